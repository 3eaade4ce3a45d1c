// Every change of someone's consent, as their history records it: read in order, and written inside
// the transaction of the change itself (recordConsentEvent).
import type { Kysely, Transaction } from 'kysely';
import { iso, isSignupId } from './column-types.js';
import type { ConsentKind, ConsentSource } from './consent-events.table.js';
import type { Database } from './database.js';
import type { QueryContext } from './sql-dialect.js';

export interface ConsentEvent {
  kind: ConsentKind;
  source: ConsentSource;
  /** The consent text's version, for sign-ups. */
  consentVersion: string | null;
  /** ISO 8601, UTC. */
  at: string;
  /** What a sign-up through the API gave as proof of the consent (api/api-signups.ts); null for every other change. */
  evidence: Record<string, unknown> | null;
}

export class ConsentEventsRepository {
  constructor(private readonly context: QueryContext) {}

  /** Every change of this person's consent, oldest first. */
  async history(id: string): Promise<ConsentEvent[]> {
    if (!isSignupId(id)) return [];
    const rows = await this.context.db
      .selectFrom('consent_events')
      .select(['kind', 'source', 'consent_version', 'created_at', 'evidence'])
      .where('signup_id', '=', id)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      source: row.source,
      consentVersion: row.consent_version,
      at: iso(row.created_at),
      evidence: row.evidence === null ? null : (JSON.parse(row.evidence) as Record<string, unknown>),
    }));
  }
}

/** Records one change, inside the caller's transaction. */
export async function recordConsentEvent(
  trx: Kysely<Database> | Transaction<Database>,
  id: string,
  kind: ConsentKind,
  source: ConsentSource,
  at: string,
  /** What came with it, as JSON: the words a text reply said ({ received }). */
  evidence?: string,
): Promise<void> {
  await trx
    .insertInto('consent_events')
    .values({ signup_id: id, kind, source, consent_version: null, created_at: at, ...(evidence ? { evidence } : {}) })
    .execute();
}
