// The numbered schema changes for PostgreSQL, in order, one file each in migrations/postgres/; never edit one that has shipped.
// Same version and name as SQLite's for the same change (sqlite-migrations.ts).
import type { PostgresMigration } from './migrations/migration.js';
import { migration as m001 } from './migrations/postgres/001-create-signups.js';
import { migration as m002 } from './migrations/postgres/002-one-record-per-email-and-attribution.js';
import { migration as m003 } from './migrations/postgres/003-create-analytics-events.js';
import { migration as m004 } from './migrations/postgres/004-messaging.js';
import { migration as m005 } from './migrations/postgres/005-broadcasts.js';
import { migration as m006 } from './migrations/postgres/006-owners.js';
import { migration as m007 } from './migrations/postgres/007-broadcast-pauses.js';
import { migration as m008 } from './migrations/postgres/008-feedback.js';
import { migration as m009 } from './migrations/postgres/009-broadcast-confirmation-rule.js';
import { migration as m010 } from './migrations/postgres/010-confirmation-reminder.js';
import { migration as m011 } from './migrations/postgres/011-phone-change-requests.js';

export type { PostgresMigration };

export const postgresMigrations: PostgresMigration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
];
