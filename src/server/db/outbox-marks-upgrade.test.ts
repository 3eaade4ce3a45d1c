// Migration 19 on a database as the release before left it (migrations 1..18): every held, paused
// and refused outbox row, written as that release wrote them (its words at the front of `error`),
// opens with its mark as data and its answer alone, and behaves as it did.
import { describe, expect, it } from 'vitest';
import { storeEngines } from '../test/store-engines.js';
import { openDatabase } from './open-database.js';
import { databaseAtMigration } from './test-fixtures/at-migration.js';

const RELEASE_BEFORE = 18;
const PEOPLE = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((letter, index) => ({
  id: `0b6d1c52-3c1e-4f4e-9a38-6f0f2f1d7a0${index}`,
  email: `${letter}@example.com`,
}));

/** The rows, each with the error text the release before wrote, and what today reads from it. */
const ROWS = [
  { state: 'failed_temporary', next: null, error: 'held: 554 5.7.1 Relay access denied' },
  { state: 'queued', next: '2026-11-05T08:02:00.000Z', error: 'paused the channel: Invalid login: 535 5.7.8 failed' },
  {
    state: 'failed_temporary',
    next: '2026-11-05T08:06:00.000Z',
    error: 'refused for our sending: 554 5.7.1 blocked using zen.spamhaus.org',
  },
  { state: 'failed_temporary', next: null, error: 'gave up after 6 attempts: 421 4.3.2 Try again later' },
  {
    state: 'failed_temporary',
    next: null,
    error:
      'held: gave up after 3 attempts: refused for our sending: 550 5.7.1 Service unavailable; client host blocked',
  },
  {
    state: 'failed_permanent',
    next: null,
    error: "Can't send mail - all recipients were rejected: 550 5.1.1 Held mail",
  },
  { state: 'failed_temporary', next: '2026-11-05T08:07:00.000Z', error: 'Held: not our prefix, a provider’s words' },
] as const;

function fillSql(engine: 'sqlite' | 'postgres'): string {
  const no = engine === 'sqlite' ? '0' : 'false';
  const people = PEOPLE.map(
    ({ id, email }) =>
      `('${id}', 'Person', '+1555000000${id.slice(-1)}', '${email}', '${email}', '2026-11-01T10:00:00.000Z', '2026-11-01T10:00:00.000Z', 'v1')`,
  ).join(',\n');
  const rows = ROWS.map(
    (row, index) =>
      `(1, '${PEOPLE[index]!.id}', 'email', '${row.state}', 3, ${row.next ? `'${row.next}'` : 'NULL'}, ` +
      `'${row.error.replace(/'/g, "''")}', 'message')`,
  ).join(',\n');
  return `
    INSERT INTO signups (id, name, phone, email, email_key, created_at, last_seen_at, consent_version) VALUES ${people};
    INSERT INTO broadcasts (name, template, segment, channels, include_unconfirmed, content, state, created_at, started_at)
      VALUES ('launch', 'launch', 'all', 'email', ${no}, '{}', 'sending', '2026-11-05T08:00:00.000Z', '2026-11-05T08:01:00.000Z');
    INSERT INTO broadcast_messages (broadcast_id, signup_id, channel, state, attempts, next_attempt_at, error, failure_kind)
      VALUES ${rows};
  `;
}

describe.each(storeEngines)(
  `the outbox from the release before (migrations 1..${RELEASE_BEFORE}) on $name`,
  (engine) => {
    it.skipIf(!engine.available)(
      'opens with every held, paused and refused row intact, its mark a column and its answer alone',
      async () => {
        const database = await engine.database();
        await databaseAtMigration(database, RELEASE_BEFORE, fillSql);

        const db = await openDatabase(database, { migrate: true });
        try {
          const broadcast = (await db.broadcasts.get('launch'))!;
          expect(await db.outbox.counts(broadcast.id)).toMatchObject({
            failed_temporary: 5,
            failed_permanent: 1,
            queued: 1,
            total: 7,
          });
          // Given up (no next attempt) or failed for good: what `retry` chooses among.
          const failed = await db.outbox.failedMessages(broadcast.id);
          expect(failed.map(({ signupId, state, error, held }) => ({ signupId, state, error, held }))).toEqual([
            { signupId: PEOPLE[0]!.id, state: 'failed_temporary', error: '554 5.7.1 Relay access denied', held: true },
            { signupId: PEOPLE[3]!.id, state: 'failed_temporary', error: '421 4.3.2 Try again later', held: false },
            {
              signupId: PEOPLE[4]!.id,
              state: 'failed_temporary',
              error: '550 5.7.1 Service unavailable; client host blocked',
              held: true,
            },
            {
              signupId: PEOPLE[5]!.id,
              state: 'failed_permanent',
              error: "Can't send mail - all recipients were rejected: 550 5.1.1 Held mail",
              held: false,
            },
          ]);
          // Refused for our sending, counted by the domain of the address (the held one among them, as before).
          expect(await db.outboxRefusals.refusedForOurSending(broadcast.id)).toEqual([
            { domain: 'example.com', count: 2 },
          ]);
          // The row that paused the channel is claimed marked, so the sender holds it if it pauses again;
          // a provider's own "Held:" is only words.
          const claimed = await db.outbox.claim({ broadcastId: broadcast.id, channel: 'email' }, 'a-sender', 10);
          expect(
            claimed.map(({ signupId, pausedTheChannel }) => ({ signupId, paused: pausedTheChannel === true })),
          ).toEqual([
            { signupId: PEOPLE[1]!.id, paused: true },
            { signupId: PEOPLE[2]!.id, paused: false },
            { signupId: PEOPLE[6]!.id, paused: false },
          ]);
        } finally {
          await db.close();
        }
      },
    );
  },
);
