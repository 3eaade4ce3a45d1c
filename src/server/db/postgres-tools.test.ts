// How pg_dump and pg_restore are told where the database is: never with the password on the command line.
import { describe, expect, it } from 'vitest';
import { connectionFor, runPostgresTool } from './postgres-tools.js';
import { BackupError } from './database-errors.js';

describe('connectionFor', () => {
  it('takes the password out of the URL into PGPASSWORD, decoded', () => {
    const { dbname, env } = connectionFor('postgres://scamsavvy:p%40ss%20word@db.example:5432/list');
    expect(dbname).toBe('postgres://scamsavvy@db.example:5432/list');
    expect(env).toEqual({ PGPASSWORD: 'p@ss word' });
  });

  it("writes the URL's options as libpq reads them: a space as %20, never +", () => {
    const url = new URL('postgres://postgres@127.0.0.1:5432/test');
    url.searchParams.set('options', '-c search_path=bench_1');
    expect(url.toString()).toContain('options=-c+search_path');
    expect(connectionFor(url.toString()).dbname).toBe(
      'postgres://postgres@127.0.0.1:5432/test?options=-c%20search_path%3Dbench_1',
    );
    expect(connectionFor('postgres://postgres@127.0.0.1/test').env).toEqual({});
  });
});

describe('runPostgresTool', () => {
  it('says what to install when the tool is missing', async () => {
    const error = await runPostgresTool('pg_dump', ['--version'], { env: { PATH: '/nonexistent' } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toMatch(/^pg_dump is not installed on this machine\. .*postgresql-client/);
  });
});
