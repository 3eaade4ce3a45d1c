// The numbered schema changes for SQLite, in order, one file each in migrations/sqlite/; never edit one that has shipped.
// Same version and name as PostgreSQL's for the same change (postgres-migrations.ts).
import type { SqliteMigration } from './migrations/migration.js';
import { migration as m001 } from './migrations/sqlite/001-create-signups.js';
import { migration as m002 } from './migrations/sqlite/002-one-record-per-email-and-attribution.js';
import { migration as m003 } from './migrations/sqlite/003-create-analytics-events.js';
import { migration as m004 } from './migrations/sqlite/004-messaging.js';
import { migration as m005 } from './migrations/sqlite/005-broadcasts.js';
import { migration as m006 } from './migrations/sqlite/006-owners.js';
import { migration as m007 } from './migrations/sqlite/007-broadcast-pauses.js';
import { migration as m008 } from './migrations/sqlite/008-feedback.js';
import { migration as m009 } from './migrations/sqlite/009-broadcast-confirmation-rule.js';
import { migration as m010 } from './migrations/sqlite/010-confirmation-reminder.js';
import { migration as m011 } from './migrations/sqlite/011-phone-change-requests.js';

export type { SqliteMigration };

export const sqliteMigrations: SqliteMigration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010, m011];
