// The settings every door reads: the environment, over .env in the working folder (or ENV_FILE), over
// SETTINGS_FILE; a file that cannot be read is named, with why and what to do.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { loadSettingsFiles } from './settings-files.js';
import { senderLine } from '../shared/public-config.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-settings-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('settings files', () => {
  it('deploy/scamsavvy.env.example, its examples switched on, read as its comments say: the postal address named once, BACKUP_COMMAND one command', () => {
    // Its two examples switched on, as an owner following the file would.
    const example = readFileSync('deploy/scamsavvy.env.example', 'utf8').replace(
      /^# ((?:MAIL_POSTAL_ADDRESS|BACKUP_COMMAND)=.+)$/gm,
      '$1',
    );
    const dir = folder({ 'scamsavvy.env': example });
    const env: NodeJS.ProcessEnv = { SETTINGS_FILE: path.join(dir, 'scamsavvy.env'), ENV_FILE: '' };
    loadSettingsFiles(env, dir);
    const config = loadConfig({ ...env, SECRET_KEY: 'k'.repeat(40) }, dir);
    expect(senderLine(config.messaging.postalAddress)).toBe('ScamSavvy, 1 Example Street, Springfield, IL 62701');
    expect(config.backup?.command).toBe(
      'rclone --config /etc/scamsavvy/rclone.conf copy {file} offsite:scamsavvy-backups',
    );
  });

  it('reads the environment over .env over SETTINGS_FILE, each value once, as the config then sees it', () => {
    const dir = folder({
      '.env': 'PORT=4321\nSITE_URL=http://localhost:4321\n# a comment\nBACKUP_DIR="/var/backups/scam savvy"\n',
      'production.env': [
        'PORT=3000',
        'DATABASE_URL=sqlite:/var/lib/scamsavvy/signups.db',
        'BACKUP_COMMAND=rclone copy {file} offsite:scamsavvy-backups',
        "MAIL_POSTAL_ADDRESS='1 Example Street, Springfield # not a comment'",
        'SITE_URL=https://scamsavvy.example',
        'ENV_FILE=elsewhere.env',
        '',
      ].join('\n'),
    });
    const env: NodeJS.ProcessEnv = { SETTINGS_FILE: path.join(dir, 'production.env'), SITE_URL: 'https://from.env' };
    const read = loadSettingsFiles(env, dir);
    expect(read).toEqual([path.join(dir, '.env'), path.join(dir, 'production.env')]);
    expect(env).toMatchObject({
      SITE_URL: 'https://from.env', // the environment wins
      PORT: '4321', // .env over the settings file
      BACKUP_DIR: '/var/backups/scam savvy',
      DATABASE_URL: 'sqlite:/var/lib/scamsavvy/signups.db',
      BACKUP_COMMAND: 'rclone copy {file} offsite:scamsavvy-backups',
      MAIL_POSTAL_ADDRESS: '1 Example Street, Springfield # not a comment',
    });
    expect(env.ENV_FILE).toBeUndefined(); // which files to read is the environment's to say, never a file's
    const config = loadConfig(env, dir);
    expect([config.port, config.siteUrl]).toEqual([4321, 'https://from.env']);
    expect(config.database).toEqual({ kind: 'sqlite', file: '/var/lib/scamsavvy/signups.db' });
  });

  it('reads no .env with ENV_FILE empty, another with ENV_FILE named, and none where there is none', () => {
    const dir = folder({ '.env': 'PORT=4321\n', 'other.env': 'PORT=4400\n' });
    const none: NodeJS.ProcessEnv = { ENV_FILE: '' };
    expect(loadSettingsFiles(none, dir)).toEqual([]);
    expect(none.PORT).toBeUndefined();
    const other: NodeJS.ProcessEnv = { ENV_FILE: 'other.env' };
    loadSettingsFiles(other, dir);
    expect(other.PORT).toBe('4400');
    const empty = folder({});
    const nothing: NodeJS.ProcessEnv = {};
    expect(loadSettingsFiles(nothing, empty)).toEqual([]);
    expect(nothing).toEqual({});
  });

  it('names a file it was told to read and cannot, with why and what to do', () => {
    const dir = folder({ 'secret.env': 'SECRET_KEY=x\n' });
    const missing = () => loadSettingsFiles({ SETTINGS_FILE: path.join(dir, 'nope.env') }, dir);
    expect(missing).toThrow(ConfigError);
    expect(missing).toThrow(`SETTINGS_FILE: could not read ${path.join(dir, 'nope.env')}: there is no such file.`);
    expect(() => loadSettingsFiles({ ENV_FILE: 'nope.env' }, dir)).toThrow(
      `ENV_FILE: could not read ${path.join(dir, 'nope.env')}: there is no such file. Fix the path, or unset ENV_FILE.`,
    );
    expect(() => loadSettingsFiles({ SETTINGS_FILE: dir }, dir)).toThrow('it is a folder, not a file');
    if (process.getuid?.() !== 0) {
      // Root reads anything: the permission case shows only for another user.
      chmodSync(path.join(dir, 'secret.env'), 0o000);
      expect(() => loadSettingsFiles({ SETTINGS_FILE: path.join(dir, 'secret.env') }, dir)).toThrow(
        'this user may not read it (run the command as the service does: sudo scamsavvy …)',
      );
    }
  });
});
