// Migration 23 on a database as the release before left it (migrations 1..22): the broadcasts'
// outbox becomes the one outbox with every row and id kept, and the joining texts' claims (a column
// on signups, now gone) become joining-text rows, due when the claim would have ended; a reminder
// once claimed is a sent reminder. Then (migration 25) a row names a person or an owner, by its kind.
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { storeEngines } from '../test/store-engines.js';
import { openDatabase } from './open-database.js';
import { databaseAtMigration } from './test-fixtures/at-migration.js';
import { rawSql } from '../test/raw-sql.js';

const RELEASE_BEFORE = 22;
const id = (n: number) => `0b6d1c52-3c1e-4f4e-9a38-6f0f2f1d7a0${n}`;
// 0: a launch email sent, 1: a joining text claimed by a sender that died (its claim ran out long
// ago), 2: one held until later (a number not to be texted for now), 3: one texted already, 4: none,
// but reminded to confirm (0 was asked to confirm too, never reminded).
const CLAIMED_AT = [
  'NULL',
  "'2026-11-05T08:00:00.000Z'",
  "'2027-01-01T00:00:00.000Z'",
  "'2026-11-05T08:00:00.000Z'",
  'NULL',
];
const SENT_AT = ['NULL', 'NULL', 'NULL', "'2026-11-05T08:00:05.000Z'", 'NULL'];
const CONFIRM_SENT_AT = ["'2026-11-01T10:01:00.000Z'", 'NULL', 'NULL', 'NULL', "'2026-11-01T10:01:00.000Z'"];
const REMINDED_AT = ['NULL', 'NULL', 'NULL', 'NULL', "'2026-11-08T10:01:00.000Z'"];
// 0's repeat sign-up asked a confirmation again, twice refused for now by the mail server.
const CONFIRM_ASKED = [
  "'2026-11-05T08:30:00.000Z', 2, '421 4.3.2 Try again later'",
  'NULL, 0, NULL',
  'NULL, 0, NULL',
  'NULL, 0, NULL',
  'NULL, 0, NULL',
];

/** Rows of a query in plain SQL, on either engine (written the same for both here). */
async function rawRows(database: DatabaseConfig, query: string): Promise<Record<string, unknown>[]> {
  if (database.kind === 'sqlite') {
    const db = new Database(database.file, { readonly: true });
    try {
      return db.prepare(query).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    return (await client.query(query)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

function fillSql(engine: 'sqlite' | 'postgres'): string {
  const no = engine === 'sqlite' ? '0' : 'false';
  const people = CLAIMED_AT.map(
    (claimed, n) =>
      `('${id(n)}', 'Person', '+1555000000${n}', 'p${n}@example.com', 'p${n}@example.com', ` +
      `'2026-11-01T10:00:00.000Z', '2026-11-01T10:00:00.000Z', 'v1', ${claimed}, ${SENT_AT[n]}, ` +
      `${CONFIRM_SENT_AT[n]}, ${REMINDED_AT[n]}, ${CONFIRM_ASKED[n]})`,
  ).join(',\n');
  return `
    INSERT INTO signups (id, name, phone, email, email_key, created_at, last_seen_at, consent_version,
      joining_text_claimed_at, joining_text_sent_at, confirm_sent_at, confirm_reminded_at, confirm_requested_at,
      confirm_attempts, confirm_error) VALUES ${people};
    INSERT INTO broadcasts (name, template, segment, channels, include_unconfirmed, content, state, created_at, started_at)
      VALUES ('launch', 'launch', 'all', 'email', ${no}, '{}', 'sending', '2026-11-05T08:00:00.000Z', '2026-11-05T08:01:00.000Z');
    INSERT INTO broadcast_messages (broadcast_id, signup_id, channel, state, attempts, sent_at, next_attempt_at) VALUES
      (1, '${id(0)}', 'email', 'sent', 1, '2026-11-05T08:01:05.000Z', NULL),
      (1, '${id(1)}', 'email', 'queued', 0, NULL, '2026-11-05T08:01:00.000Z');
  `;
}

describe.each(storeEngines)(
  `the outbox from the release before (migrations 1..${RELEASE_BEFORE}) on $name`,
  (engine) => {
    it.skipIf(!engine.available)(
      'is the one outbox: the broadcast rows kept, the joining texts claimed then queued now',
      async () => {
        const database = await engine.database();
        await databaseAtMigration(database, RELEASE_BEFORE, fillSql);

        // Its clock at the day the claims were made, an hour on: the dead sender's claim has run out.
        const db = await openDatabase(database, { migrate: true, now: () => new Date('2026-11-05T09:00:00.000Z') });
        try {
          const rows = await rawRows(
            database,
            'SELECT id, kind, broadcast_id, signup_id, state, next_attempt_at FROM outbox ORDER BY id',
          );
          const due = (at: unknown) =>
            at === null ? null : new Date(String(at instanceof Date ? at.toISOString() : at)).toISOString();
          expect(
            rows.map((row) => ({
              ...row,
              id: Number(row.id),
              broadcast_id: row.broadcast_id === null ? null : Number(row.broadcast_id),
              next_attempt_at: due(row.next_attempt_at),
            })),
          ).toEqual([
            { id: 1, kind: 'broadcast', broadcast_id: 1, signup_id: id(0), state: 'sent', next_attempt_at: null },
            {
              id: 2,
              kind: 'broadcast',
              broadcast_id: 1,
              signup_id: id(1),
              state: 'queued',
              next_attempt_at: '2026-11-05T08:01:00.000Z',
            },
            {
              id: 3,
              kind: 'joining_text',
              broadcast_id: null,
              signup_id: id(1),
              state: 'queued',
              next_attempt_at: '2026-11-05T08:05:00.000Z',
            },
            {
              id: 4,
              kind: 'joining_text',
              broadcast_id: null,
              signup_id: id(2),
              state: 'queued',
              next_attempt_at: '2027-01-01T00:05:00.000Z',
            },
            // The confirmation waiting, as it stood.
            {
              id: 5,
              kind: 'confirmation',
              broadcast_id: null,
              signup_id: id(0),
              state: 'failed_temporary',
              next_attempt_at: '2026-11-05T08:30:00.000Z',
            },
            // Reminded once: a sent reminder.
            { id: 6, kind: 'reminder', broadcast_id: null, signup_id: id(4), state: 'sent', next_attempt_at: null },
          ]);
          // The broadcast's counts read as before.
          expect(await db.outbox.counts(1)).toMatchObject({ sent: 1, queued: 1, total: 2 });
          // The claim column is gone; the sent time stays.
          const columns = (
            await rawRows(
              database,
              database.kind === 'sqlite'
                ? "SELECT name FROM pragma_table_info('signups')"
                : "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'signups' AND table_schema = current_schema()",
            )
          ).map((row) => row.name);
          for (const gone of [
            'joining_text_claimed_at',
            'phone_change_claimed_at',
            'confirm_requested_at',
            'confirm_attempts',
            'confirm_error',
            'confirm_reminded_at',
          ])
            expect(columns).not.toContain(gone);
          expect(
            (await db.messageQueue.rows('confirmation')).map(({ attempts, error }) => ({ attempts, error })),
          ).toEqual([{ attempts: 2, error: '421 4.3.2 Try again later' }]);
          // Still "asked to confirm", and waiting.
          expect(await db.subscribers.subscriber(id(0))).toMatchObject({
            askedToConfirm: true,
            confirmationWaiting: true,
          });
          expect(columns).toContain('joining_text_sent_at');
          // The dead sender's text is due now; the held one is not; nobody else is queued twice.
          expect(
            (await db.outbox.claim({ kind: 'joining_text', leaseMs: 60_000 }, 'a test', 10)).map((row) => row.signupId),
          ).toEqual([id(1)]);
          expect(await db.joiningTexts.queueDue()).toBe(2); // 0 and 4, never texted; 3 was
          expect(await db.joiningTexts.queueDue()).toBe(0);
          // Nobody reminded before is reminded again; the one never reminded is due hers.
          expect(await db.confirmations.queueReminders(new Date('2026-12-01T00:00:00.000Z'))).toBe(1);
          expect((await db.messageQueue.rows('reminder')).map((row) => [row.signupId, row.state])).toEqual([
            [id(4), 'sent'],
            [id(0), 'queued'],
          ]);
          expect(await db.confirmations.queueReminders(new Date('2026-12-01T00:00:00.000Z'))).toBe(0);
          // And a broadcast's claim sees only its own rows.
          expect(
            (await db.outbox.claim({ broadcastId: 1, channel: 'email' }, 'a-sender', 10)).map((row) => row.signupId),
          ).toEqual([id(1)]);
          // Since migration 25 (its table made anew on SQLite, every row above kept), a row names a
          // person, or (an owner's sign-in email) an owner: by its kind, never both, never neither.
          const insert = (kind: string, signup: string | null, owner: number | null) =>
            rawSql(
              database,
              "INSERT INTO outbox (kind, signup_id, owner_id, channel, state, attempts) VALUES ($1, $2, $3, 'email', 'sent', 1)",
              [kind, signup, owner],
            );
          await insert('owner_sign_in', null, 1);
          await expect(insert('owner_sign_in', null, null)).rejects.toThrow(/CHECK|check/);
          await expect(insert('owner_sign_in', id(0), 1)).rejects.toThrow(/CHECK|check/);
          await expect(insert('button', null, 1)).rejects.toThrow(/CHECK|check/);
          await expect(insert('button', null, null)).rejects.toThrow(/CHECK|check|NOT NULL|null/);
        } finally {
          await db.close();
        }
      },
    );
  },
);
