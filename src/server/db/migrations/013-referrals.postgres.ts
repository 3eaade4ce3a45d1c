// PostgreSQL migration 13, referrals: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 13,
  name: 'referrals',
  // Each person's own link code (shared/referral.ts), and the code of the link they came through while
  // its owner is on record (decision 039). People already on the list get a code of 12 random hex
  // digits (48 bits of a version-4 UUID, before its version digit; hex is within the codes' alphabet).
  sql: `
      ALTER TABLE signups ADD COLUMN referral_code text;
      ALTER TABLE signups ADD COLUMN referred_by text;
      UPDATE signups SET referral_code = substr(replace(gen_random_uuid()::text, '-', ''), 1, 12);
      CREATE UNIQUE INDEX signups_referral_code ON signups (referral_code);
      CREATE INDEX signups_referred_by ON signups (referred_by) WHERE referred_by IS NOT NULL;
    `,
};
