// Opens the sign-up store that DATABASE_URL names.
import type { DatabaseConfig } from '../config.js';
import { PostgresSignupStore } from './postgres-signup-store.js';
import type { Db, SignupStoreOptions } from './signup-store.js';
import { SqliteSignupStore } from './sqlite-signup-store.js';

export type OpenDatabaseOptions = SignupStoreOptions;

export async function openDatabase(
  database: DatabaseConfig,
  { migrate = true, ...options }: OpenDatabaseOptions = {},
): Promise<Db> {
  switch (database.kind) {
    case 'sqlite':
      return new SqliteSignupStore(database.file, { migrate, ...options });
    case 'postgres':
      return PostgresSignupStore.open(database.url, { migrate, poolSize: database.poolSize, ...options });
  }
}
