// Two server processes on one PostgreSQL database: both take sign-ups, and none is lost.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, test } from './fixtures';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';

const databaseUrl = process.env.TEST_DATABASE_URL;

test.describe('two instances on one PostgreSQL', () => {
  // PostgreSQL is there in CI (.ci/run sets TEST_DATABASE_URL); on a laptop without it this says so and skips.
  test.skip(!databaseUrl, 'needs PostgreSQL: set TEST_DATABASE_URL');

  let schema: string;
  let servers: RunningServer[] = [];

  test.beforeEach(async () => {
    schema = `e2e_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client(databaseUrl);
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
  });

  test.afterEach(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
    const admin = new pg.Client(databaseUrl);
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  test('both accept sign-ups at the same time, repeats across them included, and neither loses any', async () => {
    test.setTimeout(60_000);
    const url = new URL(databaseUrl ?? '');
    url.searchParams.set('options', `-c search_path=${schema}`);
    const env = {
      DATABASE_URL: url.toString(),
      SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
      SIGNUP_RATE_LIMIT_PER_HOUR: '0',
      LOG_LEVEL: 'info', // so a stop that hangs shows how far shutdown got
    };
    // Both start (and migrate) at once: the migration lock makes them take turns.
    servers = await Promise.all([startBuiltServer(4331, env), startBuiltServer(4332, env)]);

    const people = 300;
    const submissions = Array.from({ length: people * 2 }, (_, index) => ({
      server: servers[index % 2] as RunningServer,
      // Every person signs up twice, once on each instance, in the same moment.
      email: `person${Math.floor(index / 2)}@example.com`,
    }));
    const statuses = await Promise.all(
      submissions.map(async ({ server, email }) => {
        const response = await fetch(`${server.url}/api/signups`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Rosa Díaz',
            phone: '+15551234567',
            email,
            betaTesting: email.endsWith('0@example.com'),
            openedForMs: 5000, // as long as a person takes: quicker is taken for a bot
          }),
        });
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status !== 201)).toEqual([]);

    const client = new pg.Client(url.toString());
    await client.connect();
    const { rows } = await client.query<{ people: string; submissions: string; ids: string }>(
      'SELECT count(*) AS people, sum(signup_count) AS submissions, count(DISTINCT id) AS ids FROM signups',
    );
    await client.end();
    expect(rows[0]).toEqual({ people: String(people), submissions: String(people * 2), ids: String(people) });
  });
});
