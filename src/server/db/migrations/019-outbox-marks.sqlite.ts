// SQLite migration 19, outbox marks: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 19,
  name: 'outbox-marks',
  // What a failed row's error text used to begin with becomes data (issue 43): 'held: ' and
  // 'paused the channel: ' a pause mark, 'refused for our sending: ' a flag; 'gave up after N
  // attempts: ' is already said by failed_temporary with no next attempt, so it goes. The error keeps
  // the answer alone. The prefixes nested in this order when several were written.
  up: (db) =>
    db.exec(`
        ALTER TABLE broadcast_messages ADD COLUMN pause_mark TEXT
          CHECK (pause_mark IN ('paused_the_channel', 'held'));
        ALTER TABLE broadcast_messages ADD COLUMN refused_for_our_sending INTEGER NOT NULL DEFAULT 0
          CHECK (refused_for_our_sending IN (0, 1));
        UPDATE broadcast_messages SET pause_mark = 'held', error = substr(error, 7)
          WHERE substr(error, 1, 6) = 'held: ';
        UPDATE broadcast_messages SET pause_mark = 'paused_the_channel', error = substr(error, 21)
          WHERE substr(error, 1, 20) = 'paused the channel: ';
        UPDATE broadcast_messages SET error = substr(error, instr(error, ' attempts: ') + 11)
          WHERE error GLOB 'gave up after [0-9]* attempts: *';
        UPDATE broadcast_messages SET refused_for_our_sending = 1, error = substr(error, 26)
          WHERE substr(error, 1, 25) = 'refused for our sending: ';
      `),
};
