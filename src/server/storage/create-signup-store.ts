// Picks the sign-up store that DATABASE_URL names.
import type { DatabaseConfig } from '../config.js';
import type { SignupStore } from './signup-store.js';
import { SqliteSignupStore, type SqliteSignupStoreOptions } from './sqlite-signup-store.js';

export function createSignupStore(database: DatabaseConfig, options: SqliteSignupStoreOptions = {}): SignupStore {
  switch (database.kind) {
    case 'sqlite':
      return new SqliteSignupStore(database.file, options);
  }
}
