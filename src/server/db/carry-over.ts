// A restore never rewinds a "no", a yes, a choice or a send (decision 041, issue 54): what the
// database being replaced knows that the backup may not (every suppression, each person's leaving and
// opt-outs, their confirmation, beta wish, language and number with its proof, who was deleted, and
// every message that went, of every kind) is read before the restore and written back after it.
// Written once with Kysely for both engines.
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { stamp, type QueryContext } from './sql-dialect.js';
import { DELETED_PERSON } from './opt-outs-repository.js';
import { LIVE_STATES as LIVE } from './outbox-claims.js';
import { CHOICE_COLUMNS, NO_COLUMNS, readCarryOver, type CarryOver, type Row } from './carry-over-read.js';

/** What tells one row of the suppression list from another, across databases (ids differ). */
type SuppressionKey = Pick<
  Row<'suppressions'>,
  'kind' | 'address_hash' | 'reason' | 'created_at' | 'lifts_reason' | 'lifts_at'
>;

/** What the restore carried across, for the owner. */
export interface CarriedOver {
  /** People who left after the backup was made, kept out. */
  keptOut: number;
  /** People whose email or texts were turned off after the backup was made. */
  optOuts: number;
  /** People whose confirmation, beta wish, language or number (with its YES) changed after the backup was made. */
  choices: number;
  /** People deleted after the backup was made (or swept as never confirmed), deleted again. */
  deletions: number;
  /** Entries of the suppression list made after the backup was made. */
  suppressions: number;
  /** Messages that went (or were settled) after the backup was made, of every kind, kept as they are. */
  sends: number;
}

/** Reads what a restore must not forget, and writes it back into the restored database. */
export class CarryOverRepository {
  constructor(private readonly context: QueryContext) {}

  read(): Promise<CarryOver> {
    return readCarryOver(this.context.db);
  }

  /** `emailHashes`: every key's hash of an email, to know whom the suppression list says was deleted. */
  apply(carry: CarryOver, emailHashes: (email: string) => string[] = () => []): Promise<CarriedOver> {
    return applyCarryOver(this.context, carry, emailHashes);
  }
}

const time = (value: unknown) => (value === null || value === undefined ? '' : new Date(String(value)).toISOString());
const sameTime = (a: unknown, b: unknown) => time(a) === time(b);

/** Writes what the restored database must not forget, in one transaction; says what it carried. */
async function applyCarryOver(
  context: QueryContext,
  carry: CarryOver,
  emailHashes: (email: string) => string[],
): Promise<CarriedOver> {
  const result: CarriedOver = { keptOut: 0, optOuts: 0, choices: 0, deletions: 0, suppressions: 0, sends: 0 };
  const postgres = context.dialect.engine === 'postgres';
  await context.db.transaction().execute(async (trx) => {
    // The suppression list: every entry the backup lacks.
    // A lifting is a row too (it names the row it lifts): carried like any other, so a "no" the person
    // undid since the backup stays undone, and one they gave since stays given.
    const key = (row: SuppressionKey) =>
      `${row.kind} ${row.address_hash} ${row.reason} ${time(row.created_at)} ${row.lifts_reason ?? ''} ${row.lifts_at === null ? '' : time(row.lifts_at)}`;
    const held = new Set(
      (
        await trx
          .selectFrom('suppressions')
          .select(['kind', 'address_hash', 'reason', 'created_at', 'lifts_reason', 'lifts_at'])
          .execute()
      ).map(key),
    );
    const missing = carry.suppressions.filter((row) => !held.has(key(row)));
    for (let start = 0; start < missing.length; start += 500)
      await trx
        .insertInto('suppressions')
        .values(
          missing.slice(start, start + 500).map((row) => ({
            kind: row.kind,
            address_hash: row.address_hash,
            reason: row.reason,
            source: row.source,
            created_at: row.created_at,
            lifts_reason: row.lifts_reason,
            lifts_at: row.lifts_at,
          })),
        )
        .execute();
    result.suppressions = missing.length;

    // Someone the later database no longer had, and whose email its suppression list says was
    // deleted, was deleted since: deleted again, as a deletion deletes (opt-outs-repository.ts).
    // (Without the key that says so, their "deleted" entries above still keep every message from them.)
    const undone = new Set(
      carry.suppressions.flatMap((row) =>
        row.lifts_at === null ? [] : [`${row.address_hash} ${row.lifts_reason} ${time(row.lifts_at)}`],
      ),
    );
    const deletedHashes = new Set(
      carry.suppressions
        .filter((row) => row.reason === 'deleted' && row.kind === 'email')
        .filter((row) => !undone.has(`${row.address_hash} deleted ${time(row.created_at)}`))
        .map((row) => row.address_hash),
    );
    const wasDeleted = (email: string) => emailHashes(email).some((hash) => deletedHashes.has(hash));
    // Each person as the later database had them: a leaving or an opt-out made since stays.
    const later = new Map(carry.people.map((person) => [String(person.id), person]));
    const restored = await trx
      .selectFrom('signups')
      .select(['id', 'email', ...NO_COLUMNS, ...CHOICE_COLUMNS])
      .execute();
    const gone: string[] = [];
    for (const person of restored) {
      const now = later.get(String(person.id));
      if (!now) {
        if (wasDeleted(person.email)) gone.push(String(person.id));
        continue;
      }
      const changed =
        !sameTime(now.left_at, person.left_at) ||
        !sameTime(now.email_opt_out_at, person.email_opt_out_at) ||
        !sameTime(now.sms_opt_out_at, person.sms_opt_out_at);
      const chose =
        Boolean(now.beta_testing) !== Boolean(person.beta_testing) ||
        now.language !== person.language ||
        now.phone !== person.phone ||
        !sameTime(now.sms_confirmed_at, person.sms_confirmed_at) ||
        !sameTime(now.joining_text_sent_at, person.joining_text_sent_at) ||
        !sameTime(now.confirmed_at, person.confirmed_at) ||
        !sameTime(now.confirm_sent_at, person.confirm_sent_at);
      if (chose) {
        result.choices += 1;
        await trx
          .updateTable('signups')
          .set({
            beta_testing: now.beta_testing,
            language: now.language,
            phone: now.phone,
            sms_confirmed_at: now.sms_confirmed_at,
            joining_text_sent_at: now.joining_text_sent_at,
            confirmed_at: now.confirmed_at,
            confirm_sent_at: now.confirm_sent_at,
          })
          .where('id', '=', String(person.id))
          .execute();
      }
      if (!changed) continue;
      if (now.left_at !== null && person.left_at === null) result.keptOut += 1;
      else if (
        (now.email_opt_out_at !== null && person.email_opt_out_at === null) ||
        (now.sms_opt_out_at !== null && person.sms_opt_out_at === null)
      )
        result.optOuts += 1;
      await trx
        .updateTable('signups')
        .set({ left_at: now.left_at, email_opt_out_at: now.email_opt_out_at, sms_opt_out_at: now.sms_opt_out_at })
        .where('id', '=', String(person.id))
        .execute();
    }
    for (let start = 0; start < gone.length; start += 500) {
      const ids = gone.slice(start, start + 500);
      await trx
        .updateTable('signups')
        .set({ referred_by: null })
        .where('referred_by', 'in', trx.selectFrom('signups').select('referral_code').where('id', 'in', ids))
        .execute();
      await trx.deleteFrom('consent_events').where('signup_id', 'in', ids).execute();
      await trx
        .updateTable('sent_messages')
        .set({ signup_id: null, address_hash: null, provider_id: null, message_id: null })
        .where('signup_id', 'in', ids)
        .execute();
      await trx
        .updateTable('owner_audit_log')
        .set({ subject: null, detail: DELETED_PERSON })
        .where('subject', 'in', ids)
        .execute();
      await trx.deleteFrom('signups').where('id', 'in', ids).execute();
    }
    result.deletions = gone.length;

    // Broadcasts: the later record of each wins; a broadcast made after the backup comes back whole.
    // The same broadcast is the same id and name: a backup of another database's list shares neither.
    const have = new Map(
      (await trx.selectFrom('broadcasts').select(['id', 'name']).execute()).map((row) => [Number(row.id), row.name]),
    );
    const same = new Set<number>();
    for (const broadcast of carry.broadcasts) {
      const name = have.get(Number(broadcast.id));
      if (name !== undefined && name !== broadcast.name) continue;
      same.add(Number(broadcast.id));
      if (name !== undefined) {
        await trx
          .updateTable('broadcasts')
          .set({ state: broadcast.state, started_at: broadcast.started_at, finished_at: broadcast.finished_at })
          .where('id', '=', broadcast.id)
          .execute();
      } else {
        await insertKeepingId(trx, 'broadcasts', broadcast, postgres);
      }
    }
    // Every other message to a person, once it went or was settled (a live one is tried again from the
    // backup's row): for someone still on the list. The same row is the same id, kind and person.
    const mine = new Map(
      (
        await trx
          .selectFrom('outbox')
          .select(['id', 'kind', 'signup_id', 'webhook_endpoint_id', 'webhook_event_id'])
          .execute()
      ).map((row) => [Number(row.id), row]),
    );
    const onList = new Set((await trx.selectFrom('signups').select('id').execute()).map((row) => String(row.id)));
    const settled = (state: string) => !(LIVE as readonly string[]).includes(state);
    for (const message of [...carry.messages].sort((a, b) => Number(a.id) - Number(b.id))) {
      const ours = mine.get(Number(message.id));
      if (ours && (ours.kind !== message.kind || String(ours.signup_id) !== String(message.signup_id))) continue;
      if (message.kind === 'broadcast' ? !same.has(Number(message.broadcast_id)) : !settled(message.state)) continue;
      // A webhook delivery names no person: the backup's own row for the same endpoint and event learns
      // it went (so it never goes twice); one the backup does not have stays out (its event is not there).
      if (message.kind === 'webhook') {
        const same =
          ours &&
          String(ours.webhook_endpoint_id) === String(message.webhook_endpoint_id) &&
          String(ours.webhook_event_id) === String(message.webhook_event_id);
        if (!same) continue;
      } else if (message.kind !== 'broadcast' && !onList.has(String(message.signup_id))) continue;
      if (ours) {
        const before = await trx.selectFrom('outbox').select(['state']).where('id', '=', message.id).executeTakeFirst();
        await trx
          .updateTable('outbox')
          .set({
            state: message.state,
            attempts: message.attempts,
            next_attempt_at: message.next_attempt_at,
            claimed_by: null,
            claimed_at: null,
            sent_at: message.sent_at,
            provider_id: message.provider_id,
            error: message.error,
            failure_kind: message.failure_kind,
          })
          .where('id', '=', message.id)
          .execute();
        if (before?.state !== message.state) result.sends += 1;
      } else {
        await insertKeepingId(trx, 'outbox', { ...message, claimed_by: null, claimed_at: null }, postgres);
        result.sends += 1;
      }
    }
    // What the replaced database did not know (it was restored from a backup itself, unsettled) stays
    // unknown; what it knew, it has carried: a mark the backup brings along is settled by it.
    const unsettled = await trx.selectFrom('restore_marks').select('id').where('settled_at', 'is', null).execute();
    if (carry.unsettledRestore && unsettled.length === 0)
      await trx
        .insertInto('restore_marks')
        .values({ restored_at: stamp(context), backup_file: 'the database this restore replaced' })
        .execute();
    if (!carry.unsettledRestore && unsettled.length > 0)
      await trx
        .updateTable('restore_marks')
        .set({ settled_at: stamp(context), settled_by: 'carried' })
        .where('settled_at', 'is', null)
        .execute();
    // A key revoked or an endpoint deleted after the backup stays so: the backup's copy is ended too.
    for (const key of carry.revokedKeys ?? [])
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: key.revoked_at })
        .where('key_hash', '=', key.key_hash)
        .where('revoked_at', 'is', null)
        .execute();
    for (const endpoint of carry.deletedEndpoints ?? []) {
      const ended = await trx
        .updateTable('webhook_endpoints')
        .set({ deleted_at: endpoint.deleted_at })
        .where('name', '=', endpoint.name)
        .where('created_at', '=', endpoint.created_at)
        .where('deleted_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (ended)
        await trx
          .updateTable('outbox')
          .set({ state: 'skipped', next_attempt_at: null, error: 'its endpoint was deleted' })
          .where('kind', '=', 'webhook')
          .where('webhook_endpoint_id', '=', ended.id)
          .where('state', 'in', ['queued', 'failed_temporary'])
          .execute();
    }
    if (postgres)
      for (const table of ['broadcasts', 'outbox'])
        await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), coalesce((SELECT max(id) FROM ${sql.table(table)}), 1))`.execute(
          trx,
        );
  });
  return result;
}

/** Inserts a row with its own id (PostgreSQL's identity columns need OVERRIDING SYSTEM VALUE for that). */
async function insertKeepingId(
  trx: Kysely<Database>,
  table: 'broadcasts' | 'outbox',
  row: Record<string, unknown>,
  postgres: boolean,
): Promise<void> {
  const columns = Object.keys(row);
  await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))}) ${
    postgres ? sql`OVERRIDING SYSTEM VALUE` : sql``
  } VALUES (${sql.join(columns.map((column) => row[column]))})`.execute(trx);
}
