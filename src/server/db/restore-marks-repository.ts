// Restores that could not read the database they replaced (decision 041), and how each was settled.
// While one is unsettled, `broadcast send` and `resume` (and the dashboard's buttons) refuse.
import { iso } from './column-types.js';
import type { RestoreSettlement } from './restore-marks.table.js';
import { stamp, type QueryContext } from './sql-dialect.js';

export interface RestoreMark {
  restoredAt: string;
  backupFile: string;
}

export class RestoreMarksRepository {
  constructor(private readonly context: QueryContext) {}

  /** Records a restore whose "no"s and sends after the backup are unknown. */
  async mark(backupFile: string): Promise<void> {
    await this.context.db
      .insertInto('restore_marks')
      .values({ restored_at: stamp(this.context), backup_file: backupFile.slice(0, 1000) })
      .execute();
  }

  /** The oldest restore still unsettled, if any. */
  async unsettled(): Promise<RestoreMark | undefined> {
    const row = await this.context.db
      .selectFrom('restore_marks')
      .select(['restored_at', 'backup_file'])
      .where('settled_at', 'is', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row ? { restoredAt: iso(row.restored_at), backupFile: row.backup_file } : undefined;
  }

  /** Settles every unsettled restore; returns how many it settled. */
  async settle(by: RestoreSettlement): Promise<number> {
    const result = await this.context.db
      .updateTable('restore_marks')
      .set({ settled_at: stamp(this.context), settled_by: by })
      .where('settled_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
