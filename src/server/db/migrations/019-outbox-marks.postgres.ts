// PostgreSQL migration 19, outbox marks: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 19,
  name: 'outbox-marks',
  // What a failed row's error text used to begin with becomes data (issue 43): 'held: ' and
  // 'paused the channel: ' a pause mark, 'refused for our sending: ' a flag; 'gave up after N
  // attempts: ' is already said by failed_temporary with no next attempt, so it goes. The error keeps
  // the answer alone. The prefixes nested in this order when several were written.
  sql: `
      ALTER TABLE broadcast_messages
        ADD COLUMN pause_mark text CHECK (pause_mark IN ('paused_the_channel', 'held')),
        ADD COLUMN refused_for_our_sending boolean NOT NULL DEFAULT false;
      UPDATE broadcast_messages SET pause_mark = 'held', error = substr(error, 7)
        WHERE error LIKE 'held: %';
      UPDATE broadcast_messages SET pause_mark = 'paused_the_channel', error = substr(error, 21)
        WHERE error LIKE 'paused the channel: %';
      UPDATE broadcast_messages SET error = regexp_replace(error, '^gave up after [0-9]+ attempts: ', '')
        WHERE error ~ '^gave up after [0-9]+ attempts: ';
      UPDATE broadcast_messages SET refused_for_our_sending = true, error = substr(error, 26)
        WHERE error LIKE 'refused for our sending: %';
    `,
};
