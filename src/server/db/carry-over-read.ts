// What a restore must not forget, read from the database about to be replaced (carry-over.ts writes
// it back after the restore). Written once with Kysely for both engines; a database from an older
// release is read as far as it goes.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from './database.js';

export type Row<T extends keyof Database> = Selectable<Database[T]>;

/** What a person chose, as the later database has it: it wins over the backup's. */
export const NO_COLUMNS = ['left_at', 'email_opt_out_at', 'sms_opt_out_at'] as const;
export const CHOICE_COLUMNS = [
  'beta_testing',
  'language',
  'phone',
  'sms_confirmed_at',
  'joining_text_sent_at',
  // The emailed button's yes, and when the confirmation email went (what the reminder and the sweep
  // of the never-confirmed count from): a restore that rewound them would ask again, or delete a "yes".
  'confirmed_at',
  'confirm_sent_at',
] as const;
export type PersonColumn = 'id' | (typeof NO_COLUMNS)[number] | (typeof CHOICE_COLUMNS)[number];

/** What the replaced database knew, read before the restore. */
export interface CarryOver {
  suppressions: Row<'suppressions'>[];
  /** Each person's "no"s and choices as the replaced database had them. */
  people: Pick<Row<'signups'>, PersonColumn>[];
  broadcasts: Row<'broadcasts'>[];
  /** Every message to a person that is no longer waiting, of every kind: sent, failed, skipped, unknown. */
  messages: Row<'outbox'>[];
  /** The replaced database was itself restored without knowing what came after its backup, and not yet settled. */
  unsettledRestore: boolean;
  /** API keys revoked and webhook endpoints deleted: a restore never brings one back (issue 56). */
  revokedKeys: Pick<Row<'api_keys'>, 'key_hash' | 'revoked_at'>[];
  deletedEndpoints: Pick<Row<'webhook_endpoints'>, 'name' | 'created_at' | 'deleted_at'>[];
}

/** Reads what a restore must not forget from the database about to be replaced. */
export async function readCarryOver(db: Kysely<Database>): Promise<CarryOver> {
  return {
    suppressions: await db.selectFrom('suppressions').selectAll().execute(),
    people: await readPeople(db),
    broadcasts: await db.selectFrom('broadcasts').selectAll().execute(),
    messages: await readMessages(db),
    unsettledRestore: await hasUnsettledRestore(db),
    ...(await readEnded(db)),
  };
}

/**
 * The messages to people past queued, of every kind (an owner's sign-in link is not one: it is never
 * sent again anyway). A database from before migration 23 keeps only the broadcasts', in broadcast_messages.
 */
async function readMessages(db: Kysely<Database>): Promise<CarryOver['messages']> {
  try {
    return await db
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '!=', 'owner_sign_in')
      .where('state', '!=', 'queued')
      .execute();
  } catch {
    const before23 = db.withTables<{ broadcast_messages: Omit<Database['outbox'], 'kind'> }>();
    const rows = await before23.selectFrom('broadcast_messages').selectAll().where('state', '!=', 'queued').execute();
    return rows.map((row) => ({ ...row, kind: 'broadcast' as const }));
  }
}

/** The keys revoked and the endpoints deleted (none in a database from before migrations 26 and 27). */
async function readEnded(db: Kysely<Database>): Promise<Pick<CarryOver, 'revokedKeys' | 'deletedEndpoints'>> {
  try {
    return {
      revokedKeys: await db
        .selectFrom('api_keys')
        .select(['key_hash', 'revoked_at'])
        .where('revoked_at', 'is not', null)
        .execute(),
      deletedEndpoints: await db
        .selectFrom('webhook_endpoints')
        .select(['name', 'created_at', 'deleted_at'])
        .where('deleted_at', 'is not', null)
        .execute(),
    };
  } catch {
    return { revokedKeys: [], deletedEndpoints: [] };
  }
}

/** Each person's "no"s and choices (a database from before migration 21 has no language: English). */
async function readPeople(db: Kysely<Database>): Promise<CarryOver['people']> {
  const columns = ['id', ...NO_COLUMNS, ...CHOICE_COLUMNS] as const;
  try {
    return await db.selectFrom('signups').select(columns).execute();
  } catch {
    const older = await db
      .selectFrom('signups')
      .select(['id', ...NO_COLUMNS, 'beta_testing', 'phone', 'confirmed_at', 'confirm_sent_at'])
      .execute();
    return older.map((row) => ({
      ...row,
      language: 'en' as const,
      sms_confirmed_at: null,
      joining_text_sent_at: null,
    }));
  }
}

/** An unsettled restore mark (a database from before migration 16 has none to read). */
async function hasUnsettledRestore(db: Kysely<Database>): Promise<boolean> {
  try {
    const row = await db.selectFrom('restore_marks').select('id').where('settled_at', 'is', null).executeTakeFirst();
    return row !== undefined;
  } catch {
    return false;
  }
}
