// What a migration is, per engine: a version and a name that match the other engine's for the same
// change, and the change itself (SQLite runs a function over better-sqlite3, PostgreSQL runs SQL).
import type Database from 'better-sqlite3';

export interface SqliteMigration {
  version: number;
  name: string;
  up: (db: Database.Database) => void;
}

export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}
