// `sudo scamsavvy api-keys create|list|revoke`: the keys the owner's other tools call the API with
// (docs/api.md). A key is shown once, when made; the database keeps only its hash.
import { API_SCOPES } from '../server/db/api-keys.table.js';
import { apiKeyName, apiKeyWords, isApiScope, makeApiKey, revokeApiKey } from '../server/api/api-keys.js';
import { loadConfig } from '../server/config.js';
import { CliError, isEntryPoint, openStoreForCli, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';

export const API_KEY_COMMANDS = ['create', 'list', 'revoke'] as const;
type ApiKeyCommand = (typeof API_KEY_COMMANDS)[number];

/** Who the audit log says made or revoked a key from here. */
export const COMMAND_LINE = 'the command line (sudo scamsavvy api-keys)';

const usage = `Usage: sudo scamsavvy api-keys create --name NAME --scope read|write   make a key (shown once)
       sudo scamsavvy api-keys list                                   every key, live and revoked
       sudo scamsavvy api-keys revoke --name NAME                     stop a key working, at once

A read key reads the list (GET /api/v1/signups…); a write key may also add and delete people.
Keys work over https only (or from this computer). docs/api.md says how to use one. Reads DATABASE_URL.`;

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const [command, ...rest] = argv;
  if (!API_KEY_COMMANDS.includes(command as ApiKeyCommand)) {
    err.write(`Unknown command "${command ?? ''}".\n\n${usage}\n`);
    return 2;
  }
  const flags = readFlags(rest, { name: { type: 'string' }, scope: { type: 'string' } }, usage, { out, err });
  if ('exitCode' in flags) return flags.exitCode;
  try {
    return await run(command as ApiKeyCommand, flags.values, out);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    err.write(`${error.message}\n`);
    return 1;
  }
}

async function run(
  command: ApiKeyCommand,
  values: { name?: string | undefined; scope?: string | undefined },
  out: Output['out'],
): Promise<number> {
  const name = values.name === undefined ? undefined : apiKeyName(values.name);
  if (command !== 'list') {
    if (values.name === undefined) throw new CliError(`--name is required.\n\n${usage}`);
    if (!name) throw new CliError(apiKeyWords.nameRule);
  }
  if (command === 'create' && !isApiScope(values.scope))
    throw new CliError(`--scope ${values.scope ?? ''}: ${apiKeyWords.scopeRule}`);
  const { store } = await openStoreForCli();
  try {
    switch (command) {
      case 'create': {
        const scope = values.scope as (typeof API_SCOPES)[number];
        const made = await makeApiKey(store, { name: name as string, scope, by: COMMAND_LINE });
        if (made === 'name_taken') throw new CliError(apiKeyWords.nameTaken(name as string));
        const siteUrl = loadConfig().siteUrl;
        out.write(
          `${made.key}\n\nThis is the ${scope} key "${name}". It is shown only now: keep it in the tool that uses it.\n` +
            `Try it: curl -H "Authorization: Bearer ${made.key}" ${siteUrl}/api/v1/signups?limit=1\n`,
        );
        return 0;
      }
      case 'list': {
        const keys = await store.apiKeys.list();
        if (keys.length === 0) {
          out.write('No API keys yet. Make one: sudo scamsavvy api-keys create --name Zapier --scope read\n');
          return 0;
        }
        for (const key of keys)
          out.write(
            `${key.name}  ${key.scope}, ending in ${key.keyEnd}, made ${key.createdAt.slice(0, 10)} by ${key.createdBy}, ` +
              `${key.lastUsedAt ? `last used ${key.lastUsedAt.slice(0, 16).replace('T', ' ')} UTC` : 'never used'}` +
              `${key.revokedAt ? `, REVOKED ${key.revokedAt.slice(0, 16).replace('T', ' ')} UTC` : ''}\n`,
          );
        return 0;
      }
      case 'revoke': {
        if (!(await revokeApiKey(store, name as string, COMMAND_LINE)))
          throw new CliError(`No live key is named "${name}". See them: sudo scamsavvy api-keys list`);
        out.write(`The key "${name}" no longer works.\n`);
        return 0;
      }
    }
  } finally {
    await store.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli((argv) => main(argv));
