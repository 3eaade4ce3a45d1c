import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { closestSetting, editDistance, unknownSettings, unknownSettingWords } from './unknown-settings.js';

describe('setting names that are not ours', () => {
  it('counts the letters added, dropped or changed between two names', () => {
    expect(editDistance('MAIL_TRANPORT', 'MAIL_TRANSPORT')).toBe(1);
    expect(editDistance('SITE_ULR', 'SITE_URL')).toBe(2);
    expect(editDistance('', 'PORT')).toBe(4);
    expect(editDistance('PORT', 'PORT')).toBe(0);
  });

  it('names the closest real setting, whatever the case, and none when nothing is close', () => {
    expect(closestSetting('MAIL_TRANPORT')).toBe('MAIL_TRANSPORT');
    expect(closestSetting('sms_transport')).toBe('SMS_TRANSPORT');
    expect(closestSetting('SECRETKEY')).toBe('SECRET_KEY');
    expect(closestSetting('COMPLETELY_DIFFERENT_THING')).toBeUndefined();
  });

  it('warns of every unknown name in the files, but only of near misses in the rest of the environment', () => {
    const env = {
      MAIL_TRANPORT: 'folder:x', // in the environment, a misspelling of ours
      PATH: '/usr/bin', // the machine's own
      HOME: '/root', // two letters from HOST, but not a name of the settings' shape
      JOURNAL_STREAM: '8:123',
      SITE_URL: 'https://example.org',
      FAVOURITE_COLOUR: 'teal', // from a settings file: not ours at all
    };
    expect(unknownSettings(env, ['SITE_URL', 'FAVOURITE_COLOUR'])).toEqual([
      { name: 'FAVOURITE_COLOUR' },
      { name: 'MAIL_TRANPORT', closest: 'MAIL_TRANSPORT' },
    ]);
    // The backup command's own variables, named in BACKUP_COMMAND_ENV, are the command's.
    const backups = { BACKUP_COMMAND_ENV: 'AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY', AWS_ACCESS_KEY_ID: 'x' };
    expect(unknownSettings(backups, ['BACKUP_COMMAND_ENV', 'AWS_ACCESS_KEY_ID'])).toEqual([]);
    expect(unknownSettingWords({ name: 'MAIL_TRANPORT', closest: 'MAIL_TRANSPORT' })).toBe(
      'MAIL_TRANPORT is not a setting; did you mean MAIL_TRANSPORT?',
    );
    expect(unknownSettingWords({ name: 'FAVOURITE_COLOUR' })).toBe(
      "FAVOURITE_COLOUR is not a setting of ScamSavvy's, and is ignored",
    );
  });

  it('reaches the configuration the server starts with, and a known name is never reported', () => {
    expect(loadConfig({ MAIL_TRANPORT: 'folder:x' }, '/srv/app').unknownSettings).toEqual([
      { name: 'MAIL_TRANPORT', closest: 'MAIL_TRANSPORT' },
    ]);
    expect(loadConfig({ SITE_MODE: 'coming-soon', PORT: '4000' }, '/srv/app').unknownSettings).toEqual([]);
  });
});
