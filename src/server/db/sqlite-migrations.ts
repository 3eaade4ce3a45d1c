// The numbered schema changes for SQLite, in order, one file each (migrations/NNN-name.sqlite.ts); never edit one that has shipped.
// Same version and name as PostgreSQL's for the same change (postgres-migrations.ts).
import type { SqliteMigration } from './migrations/migration.js';
import { migration as m001 } from './migrations/001-create-signups.sqlite.js';
import { migration as m002 } from './migrations/002-one-record-per-email-and-attribution.sqlite.js';
import { migration as m003 } from './migrations/003-create-analytics-events.sqlite.js';
import { migration as m004 } from './migrations/004-messaging.sqlite.js';
import { migration as m005 } from './migrations/005-broadcasts.sqlite.js';
import { migration as m006 } from './migrations/006-owners.sqlite.js';
import { migration as m007 } from './migrations/007-broadcast-pauses.sqlite.js';
import { migration as m008 } from './migrations/008-feedback.sqlite.js';
import { migration as m009 } from './migrations/009-broadcast-confirmation-rule.sqlite.js';
import { migration as m010 } from './migrations/010-confirmation-reminder.sqlite.js';
import { migration as m011 } from './migrations/011-phone-change-requests.sqlite.js';
import { migration as m012 } from './migrations/012-acted-on-reports.sqlite.js';
import { migration as m013 } from './migrations/013-referrals.sqlite.js';
import { migration as m014 } from './migrations/014-backup-runs.sqlite.js';
import { migration as m015 } from './migrations/015-texts-proven.sqlite.js';
import { migration as m016 } from './migrations/016-restore-marks.sqlite.js';
import { migration as m017 } from './migrations/017-webhook-signatures.sqlite.js';
import { migration as m018 } from './migrations/018-background-jobs.sqlite.js';
import { migration as m019 } from './migrations/019-outbox-marks.sqlite.js';
import { migration as m020 } from './migrations/020-texts-wait.sqlite.js';
import { migration as m021 } from './migrations/021-signup-language.sqlite.js';
import { migration as m022 } from './migrations/022-sms-replies.sqlite.js';
import { migration as m023 } from './migrations/023-one-outbox.sqlite.js';
import { migration as m024 } from './migrations/024-suppressions-only-grow.sqlite.js';
import { migration as m025 } from './migrations/025-owner-sign-in-in-outbox.sqlite.js';
import { migration as m026 } from './migrations/026-api-keys-and-evidence.sqlite.js';
import { migration as m027 } from './migrations/027-webhooks.sqlite.js';
import { migration as m028 } from './migrations/028-consent-proof.sqlite.js';

export type { SqliteMigration };

// prettier-ignore
export const sqliteMigrations: SqliteMigration[] = [
  m001, m002, m003, m004, m005, m006, m007, m008, m009, m010,
  m011, m012, m013, m014, m015, m016, m017, m018, m019, m020, m021, m022, m023, m024, m025, m026, m027, m028,
];
