import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDatabaseUrl } from './config.js';

describe('DATABASE_URL', () => {
  it('defaults to data/signups.db', () => {
    expect(parseDatabaseUrl(undefined, '/srv/app')).toEqual({ kind: 'sqlite', file: '/srv/app/data/signups.db' });
    expect(parseDatabaseUrl('', '/srv/app').file).toBe('/srv/app/data/signups.db');
  });
  it('takes sqlite:<path>, relative to the working folder or absolute', () => {
    expect(parseDatabaseUrl('sqlite:other.db', '/srv/app').file).toBe('/srv/app/other.db');
    expect(parseDatabaseUrl('sqlite:/var/lib/scamsavvy/signups.db', '/srv/app').file).toBe(
      '/var/lib/scamsavvy/signups.db',
    );
    expect(parseDatabaseUrl('sqlite:///var/lib/s.db', '/srv/app').file).toBe(path.resolve('/var/lib/s.db'));
  });
  it('explains what it cannot use', () => {
    expect(() => parseDatabaseUrl('mysql://x', '/')).toThrow(/must be unset or start with sqlite:/);
    expect(() => parseDatabaseUrl('sqlite:', '/')).toThrow(/needs a file path/);
  });
});

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({ port: 3000, host: 'localhost', logLevel: 'info', distDir: '/srv/app/dist' });
  });
  it('lists every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' }, '/');
      expect.unreachable('loadConfig should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/LOG_LEVEL/);
      expect(problems).toMatch(/DATABASE_URL/);
    }
  });
});
