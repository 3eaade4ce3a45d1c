// Test helper: one statement on the database beneath a store, as an earlier release or a careless
// hand left it, or a read of what the store's own queries do not show (the rows a lifting keeps).
// Placeholders are numbered ($1, $2) on both engines, and used in order.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';

/** Runs one statement; the rows it returns (none for a write). */
export async function rawSql(
  database: DatabaseConfig,
  text: string,
  values: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  if (database.kind === 'sqlite') {
    const connection = new Database(database.file);
    try {
      connection.pragma('busy_timeout = 5000');
      const statement = connection.prepare(text.replace(/\$\d+/g, '?'));
      if (statement.reader) return statement.all(...values) as Record<string, unknown>[];
      statement.run(...values);
      return [];
    } finally {
      connection.close();
    }
  }
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
