// Opens the sign-up store that DATABASE_URL names.
import type { DatabaseConfig } from '../config.js';
import { PostgresSignupStore } from './postgres-signup-store.js';
import type { SignupStore } from './signup-store.js';
import { SqliteSignupStore } from './sqlite-signup-store.js';

export interface OpenSignupStoreOptions {
  /** Create or update the schema (the server and db:migrate do; export and stats only read). */
  migrate?: boolean;
}

export async function openSignupStore(
  database: DatabaseConfig,
  { migrate = true }: OpenSignupStoreOptions = {},
): Promise<SignupStore> {
  switch (database.kind) {
    case 'sqlite':
      return new SqliteSignupStore(database.file, { migrate });
    case 'postgres':
      return PostgresSignupStore.open(database.url, { migrate, poolSize: database.poolSize });
  }
}
