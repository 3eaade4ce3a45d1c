// Where SQLite and PostgreSQL differ, in one small object per engine: every query is written once
// and asks its dialect for these few words.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from './column-types.js';
import type { Database } from './database.js';
import type { SignupWriter } from './signup-writer.js';
import { postgresUpsert, sqliteUpsert, type UpsertDialect } from './signup-upsert.js';

export interface SqlDialect {
  engine: Engine;
  /** The column that keeps insertion order: SQLite's rowid, PostgreSQL's seq. */
  insertionOrder: 'rowid' | 'seq';
  /** A time column's UTC day as YYYY-MM-DD text. */
  utcDay(column: string): RawBuilder<string>;
  /** The start of a UTC day (YYYY-MM-DD), comparable with a time column. */
  dayStart(day: string): RawBuilder<string>;
  /** A field of a JSON column as text (false, 25), so one comparison works in both engines. */
  jsonText(column: string, field: string): RawBuilder<string>;
  /**
   * A string field of a JSON column as plain text (no quotes), or null where it is missing. Written
   * into the statement (never a parameter), so a GROUP BY can name the same expression as the SELECT.
   */
  jsonString(column: string, field: string): RawBuilder<string | null>;
  /** The sign-up upsert's words (signup-upsert.ts). */
  upsert: UpsertDialect;
}

/** Times are ISO 8601 text, so a day is their first ten characters and compares as text. */
export const sqliteDialect: SqlDialect = {
  engine: 'sqlite',
  insertionOrder: 'rowid',
  utcDay: (column) => sql<string>`substr(${sql.ref(column)}, 1, 10)`,
  dayStart: (day) => sql<string>`${day}`,
  jsonText: (column, field) => sql<string>`(${sql.ref(column)} -> ${`$.${field}`})`,
  jsonString: (column, field) => sql<string | null>`(${sql.ref(column)} ->> ${sql.lit(`$.${field}`)})`,
  upsert: sqliteUpsert,
};

/** Days are taken in UTC, whatever the session's time zone. */
export const postgresDialect: SqlDialect = {
  engine: 'postgres',
  insertionOrder: 'seq',
  utcDay: (column) => sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  dayStart: (day) => sql<string>`(${day}::date)::timestamp AT TIME ZONE 'UTC'`,
  jsonText: (column, field) => sql<string>`(${sql.ref(column)} ->> ${field})`,
  jsonString: (column, field) => sql<string | null>`(${sql.ref(column)} ->> ${sql.lit(field)})`,
  upsert: postgresUpsert,
};

/** What the sign-up and event repositories work with: reads through Kysely, writes through the engine's writer. */
export interface QueryContext {
  db: Kysely<Database>;
  dialect: SqlDialect;
  writer: SignupWriter;
  now: () => Date;
}

/** Now, as the repositories write times: ISO 8601 text, which SQLite compares in order and PostgreSQL reads as timestamptz. */
export const stamp = (context: Pick<QueryContext, 'now'>): string => context.now().toISOString();

/** A boolean as the engine keeps it: 0 or 1 on SQLite, a boolean on PostgreSQL. */
export const flag = (context: Pick<QueryContext, 'dialect'>, value: boolean): number | boolean =>
  context.dialect.engine === 'sqlite' ? (value ? 1 : 0) : value;

export type CaseValue = string | number | boolean | null;
export type CaseType = 'text' | 'timestamptz' | 'boolean';

/** CASE column WHEN … THEN … END: a different value per row in one UPDATE, on both engines. */
export function caseBy(
  context: Pick<QueryContext, 'dialect'>,
  column: string,
  pairs: [number | string, CaseValue][],
  type: CaseType = 'text',
) {
  const whens = pairs.map(([key, value]) => sql`WHEN ${key} THEN ${value}`);
  // PostgreSQL types the parameters from the column they are written to only with a cast.
  const cast = context.dialect.engine === 'postgres' ? sql.raw(`::${type}`) : sql``;
  return sql<string | null>`(CASE ${sql.ref(column)} ${sql.join(whens, sql` `)} ELSE NULL END)${cast}`;
}

/** Rows per statement in the batch queries (well under either engine's limit on parameters). */
export const CHUNK = 200;

/** Longest text kept from a provider (its ids, a report's id and detail): reports are read, not archived. */
export const TEXT_LENGTH = 300;
