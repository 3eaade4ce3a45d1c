// Where the settings come from, the same for the server and every owner command (docs/production.md,
// "4. Set the variables"): the environment, over the `.env` file in the working folder (ENV_FILE names another,
// or none), over the production settings file (SETTINGS_FILE, which deploy/scamsavvy and the
// service set). The files are read once at start, with Node's own parser (the same lines systemd
// and the shell read: VARIABLE=value, quotes for a value with spaces or a #), into the environment,
// so a backup command or a child process sees what the server sees.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './config.js';

/** The settings file read when ENV_FILE is not set, in the working folder; not there: nothing is read. */
export const DEFAULT_ENV_FILE = '.env';

/** Why a file could not be read, in words, with what to do. */
function unreadable(variable: string, file: string, error: NodeJS.ErrnoException): ConfigError {
  const why =
    error.code === 'ENOENT'
      ? 'there is no such file'
      : error.code === 'EACCES' || error.code === 'EPERM'
        ? 'this user may not read it (run the command as the service does: sudo scamsavvy …)'
        : error.code === 'EISDIR'
          ? 'it is a folder, not a file'
          : (error.code ?? error.message);
  return new ConfigError([`${variable}: could not read ${file}: ${why}. Fix the path, or unset ${variable}.`]);
}

/**
 * Fills the environment from the settings files, never over what it already holds; returns the
 * files read, first the one that wins. ENV_FILE and SETTINGS_FILE themselves are read only from the
 * environment. `named` collects every name the files hold (a name we do not know is then reported:
 * unknown-settings.ts).
 */
export function loadSettingsFiles(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  named = new Set<string>(),
): string[] {
  const given = new Set(Object.keys(env).filter((name) => env[name] !== undefined));
  const read: string[] = [];
  const dotenvNamed = env.ENV_FILE !== undefined;
  const sources: { variable: string; file: string | undefined; required: boolean }[] = [
    { variable: 'ENV_FILE', file: dotenvNamed ? env.ENV_FILE : DEFAULT_ENV_FILE, required: dotenvNamed },
    { variable: 'SETTINGS_FILE', file: env.SETTINGS_FILE, required: true },
  ];
  for (const { variable, file, required } of sources) {
    if (!file) continue; // set empty: none
    const where = path.resolve(cwd, file);
    let text: string;
    try {
      text = readFileSync(where, 'utf8');
    } catch (error) {
      if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw unreadable(variable, where, error as NodeJS.ErrnoException);
    }
    for (const [name, value] of Object.entries(parseEnv(text))) {
      named.add(name);
      if (given.has(name) || name === 'ENV_FILE' || name === 'SETTINGS_FILE') continue;
      env[name] = value;
      given.add(name); // the first file to name it wins: .env over the settings file
    }
    read.push(where);
  }
  return read;
}
