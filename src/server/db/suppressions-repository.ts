// The suppression list (decision 020): keyed hashes of addresses we must not send to, and why.
// Read a page of hashes at a time; what the entries mean for a person is the one contact rule's to
// say (consent/contact-rule.ts: exclusionOf, blockingReason), never restated here in SQL. Written
// and lifted only inside the transaction of the consent change that causes it (the functions below).
// The list only grows (issue 54): a lifting is a 'lifted' row naming the row it lifts, never a
// deletion, so no edit, sweep or restore can lose a "no" (lint refuses a delete or update of it).
import type { Kysely, Transaction } from 'kysely';
import { iso, type Time } from './column-types.js';
import type { ConsentKind, ConsentSource } from './consent-events.table.js';
import type { Database } from './database.js';
import type { QueryContext } from './sql-dialect.js';
import { entriesFrom, listRow, type SuppressionEntry } from './suppression-fold.js';
import type { AddressKind, SuppressionReason } from './suppressions.table.js';

/** One keyed hash to add to the suppression list. */
export interface Suppression {
  kind: AddressKind;
  hash: string;
  reason: SuppressionReason;
  source: ConsentSource;
  /** On a deletion's row: the person's consent history, as JSON (migration 28). */
  history?: string | undefined;
}

/** A row kept by an address's hash, as the proof of consent reads it. */
export interface KeptSuppression {
  reason: SuppressionReason;
  source: ConsentSource;
  at: string;
  /** On a 'lifted' row: the reason it lifts. */
  liftsReason: SuppressionReason | null;
  /** On a deletion's row: the person's consent history, as JSON. */
  history: string | null;
}

/** An entry from a provider's list (`sudo scamsavvy suppressions import`), at the time the provider gave. */
export interface ImportedSuppression {
  kind: AddressKind;
  hash: string;
  reason: SuppressionReason;
  at: string;
}

/** One row of the list, as the owner's "way back" reads it. */
export interface SuppressionRow {
  id: number;
  kind: AddressKind;
  hash: string;
  reason: SuppressionReason;
  source: ConsentSource;
  createdAt: string;
}

export class SuppressionsRepository {
  constructor(private readonly context: QueryContext) {}

  /** The list's rows of these reasons (every reason when none are given), since `since`, newest first. */
  async rows({ reasons, since }: { reasons?: readonly SuppressionReason[]; since?: string } = {}): Promise<
    SuppressionRow[]
  > {
    const rows = await liveRows(this.context.db)
      .select(['s.id as id', 's.kind as kind', 's.address_hash as address_hash', 's.reason as reason'])
      .select(['s.source as source', 's.created_at as created_at'])
      .$if(reasons !== undefined, (query) => query.where('s.reason', 'in', [...(reasons ?? [])]))
      .$if(since !== undefined, (query) => query.where('s.created_at', '>=', since!))
      .orderBy('s.id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      hash: row.address_hash,
      reason: row.reason,
      source: row.source,
      createdAt: iso(row.created_at),
    }));
  }

  /** What the list holds for these hashes of one kind: one query for a page of people, or for one. */
  async entries(kind: AddressKind, hashes: string[]): Promise<Map<string, SuppressionEntry>> {
    if (hashes.length === 0) return new Map();
    const rows = await this.context.db
      .selectFrom('suppressions')
      .select(['address_hash', 'reason', 'created_at', 'lifts_reason', 'lifts_at'])
      .where('kind', '=', kind)
      .where('address_hash', 'in', [...new Set(hashes)])
      .execute();
    return entriesFrom(rows.map(listRow));
  }

  /**
   * Adds entries from a provider's list, each hash and reason once (what the list already holds for
   * the same reason, not lifted, is left as it is), in one transaction; returns how many were new.
   */
  async addImported(entries: ImportedSuppression[]): Promise<number> {
    const seen = new Set<string>();
    const unique = entries.filter((entry) => {
      const key = `${entry.kind} ${entry.hash} ${entry.reason}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return this.context.db.transaction().execute(async (trx) => {
      let added = 0;
      for (const kind of ['email', 'phone'] as const) {
        const ofKind = unique.filter((entry) => entry.kind === kind);
        for (let start = 0; start < ofKind.length; start += 500) {
          const batch = ofKind.slice(start, start + 500);
          const held = new Set(
            (
              await liveRows(trx)
                .select(['s.address_hash as address_hash', 's.reason as reason'])
                .where('s.kind', '=', kind)
                .where('s.address_hash', 'in', [...new Set(batch.map((entry) => entry.hash))])
                .execute()
            ).map((row) => `${row.address_hash} ${row.reason}`),
          );
          const missing = batch.filter((entry) => !held.has(`${entry.hash} ${entry.reason}`));
          if (missing.length === 0) continue;
          await trx
            .insertInto('suppressions')
            .values(
              missing.map((entry) => ({
                kind,
                address_hash: entry.hash,
                reason: entry.reason,
                source: 'suppression_import' as const,
                created_at: entry.at,
              })),
            )
            .execute();
          added += missing.length;
        }
      }
      return added;
    });
  }

  /** How many entries the list holds that are not lifted, of either kind (for the owner's figures). */
  /** Every row kept for these hashes of one kind, oldest first, with a deletion's history (the proof of consent). */
  async kept(kind: AddressKind, hashes: string[]): Promise<KeptSuppression[]> {
    if (hashes.length === 0) return [];
    const rows = await this.context.db
      .selectFrom('suppressions')
      .select(['reason', 'source', 'created_at', 'history', 'lifts_reason'])
      .where('kind', '=', kind)
      .where('address_hash', 'in', hashes)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      reason: row.reason,
      source: row.source,
      at: iso(row.created_at),
      liftsReason: row.lifts_reason,
      history: row.history,
    }));
  }

  async count(): Promise<number> {
    const row = await liveRows(this.context.db)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

type Writer = Kysely<Database> | Transaction<Database>;

/** Adds hashes to the list, inside the transaction of the change that causes it. */
export async function addSuppressions(trx: Writer, suppressions: Suppression[], at: string): Promise<void> {
  if (suppressions.length === 0) return;
  await trx
    .insertInto('suppressions')
    .values(
      suppressions.map((entry) => ({
        kind: entry.kind,
        address_hash: entry.hash,
        reason: entry.reason,
        source: entry.source,
        created_at: at,
        ...(entry.history === undefined ? {} : { history: entry.history }),
      })),
    )
    .execute();
}

/** The list's entries that hold now (as `s`): no 'lifted' row, and none a 'lifted' row names. */
export function liveRows(db: Writer) {
  return db
    .selectFrom('suppressions as s')
    .where('s.reason', '!=', 'lifted')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('suppressions as l')
            .select('l.id')
            .whereRef('l.kind', '=', 's.kind')
            .whereRef('l.address_hash', '=', 's.address_hash')
            .whereRef('l.lifts_reason', '=', 's.reason')
            .whereRef('l.lifts_at', '=', 's.created_at'),
        ),
      ),
    );
}

/** Who lifts, and when: the lifting rows' source and time. */
export interface LiftedBy {
  source: ConsentSource;
  at: string;
}

/** Appends a 'lifted' row for each of these entries that holds; returns how many it lifted. */
async function appendLifts(
  trx: Writer,
  targets: { kind: AddressKind; address_hash: string; reason: SuppressionReason; created_at: Time }[],
  by: LiftedBy,
): Promise<number> {
  for (let start = 0; start < targets.length; start += 500)
    await trx
      .insertInto('suppressions')
      .values(
        targets.slice(start, start + 500).map((row) => ({
          kind: row.kind,
          address_hash: row.address_hash,
          reason: 'lifted' as const,
          source: by.source,
          created_at: by.at,
          lifts_reason: row.reason,
          lifts_at: row.created_at,
        })),
      )
      .execute();
  return targets.length;
}

const TARGET = [
  's.kind as kind',
  's.address_hash as address_hash',
  's.reason as reason',
  's.created_at as created_at',
] as const;

/** Lifts an address's entries of these reasons (every reason when none are given); returns how many it lifted. */
export async function liftSuppressions(
  trx: Writer,
  kind: AddressKind,
  hash: string | string[],
  reasons: readonly SuppressionReason[] | undefined,
  by: LiftedBy,
): Promise<number> {
  const hashes = typeof hash === 'string' ? [hash] : hash;
  if (hashes.length === 0) return 0;
  const targets = await liveRows(trx)
    .select(TARGET)
    .where('s.kind', '=', kind)
    .where('s.address_hash', 'in', hashes)
    .$if(reasons !== undefined, (query) => query.where('s.reason', 'in', [...(reasons ?? [])]))
    .execute();
  return appendLifts(trx, targets, by);
}

/**
 * Lifts the marks on a number that one record's own choice made: rows of `reason` on these hashes made
 * at the moment of one of that record's `kind` consent events. Another person's "no" on a shared
 * number stays. Returns how many it lifted.
 */
export async function liftOwnPhoneMarks(
  trx: Writer,
  signupId: string,
  hashes: string[],
  reason: SuppressionReason,
  kind: ConsentKind,
  by: LiftedBy,
): Promise<number> {
  if (hashes.length === 0) return 0;
  const targets = await liveRows(trx)
    .select(TARGET)
    .where('s.kind', '=', 'phone')
    .where('s.address_hash', 'in', hashes)
    .where('s.reason', '=', reason)
    .where(
      's.created_at',
      'in',
      trx.selectFrom('consent_events').select('created_at').where('signup_id', '=', signupId).where('kind', '=', kind),
    )
    .execute();
  return appendLifts(trx, targets, by);
}

/** Lifts these rows of the list, by id (the owner's way back); returns how many it lifted. */
export async function liftRowsById(trx: Writer, ids: number[], by: LiftedBy): Promise<number> {
  let lifted = 0;
  for (let start = 0; start < ids.length; start += 500) {
    const targets = await liveRows(trx)
      .select(TARGET)
      .where('s.id', 'in', ids.slice(start, start + 500))
      .execute();
    lifted += await appendLifts(trx, targets, by);
  }
  return lifted;
}
