// Numbered schema changes for SQLite, applied in order on start; never edit one that has shipped.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const sqliteMigrations: Migration[] = [
  {
    version: 1,
    name: 'create-signups',
    sql: `
      CREATE TABLE signups (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        phone TEXT NOT NULL,
        email TEXT NOT NULL,
        beta_testing INTEGER NOT NULL DEFAULT 0 CHECK (beta_testing IN (0, 1)),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX signups_created_at ON signups (created_at);
    `,
  },
];
