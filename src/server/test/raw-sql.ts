// Test helper: one statement on the database beneath a store, as an earlier release or a careless
// hand left it (the store's own queries never write such rows). Placeholders are numbered ($1, $2)
// on both engines.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';

export async function rawSql(database: DatabaseConfig, text: string, values: unknown[] = []): Promise<void> {
  if (database.kind === 'sqlite') {
    const connection = new Database(database.file);
    try {
      connection.pragma('busy_timeout = 5000');
      connection.prepare(text.replace(/\$\d+/g, '?')).run(...values);
    } finally {
      connection.close();
    }
    return;
  }
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}
