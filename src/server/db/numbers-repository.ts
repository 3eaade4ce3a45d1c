// The stored phone numbers not yet in one form (E.164), for the job that rewrites them (issue 54:
// every number is one number): those from before the form kept E.164, typed on a page before the
// pages did, or brought back by a restore. A rewrite carries the number's "no"s to its new hash.
import { sql, type RawBuilder } from 'kysely';
import type { QueryContext } from './sql-dialect.js';

/** A stored number that is not "+" and digits (a first digit 1-9). */
function uneven(context: QueryContext): RawBuilder<boolean> {
  return context.dialect.engine === 'sqlite'
    ? sql<boolean>`(phone NOT GLOB '+[1-9]*' OR substr(phone, 2) GLOB '*[^0-9]*')`
    : sql<boolean>`(phone !~ '^\\+[1-9][0-9]*$')`;
}

export class NumbersRepository {
  constructor(private readonly context: QueryContext) {}

  /** Records whose number is not in one form, after `afterId` (from the first when unset), in id order: at most `limit`. */
  async uneven(afterId: string | undefined, limit: number): Promise<{ id: string; phone: string }[]> {
    return this.context.db
      .selectFrom('signups')
      .select(['id', 'phone'])
      .where(uneven(this.context))
      .$if(afterId !== undefined, (query) => query.where('id', '>', afterId!))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Rewrites one record's number, unless it changed since it was read; the suppression list's rows
   * on the old form's hashes are copied to the new one's, so no "no" is lost with the old form (the
   * old rows stay: nothing deletes a "no"). Whether it was rewritten.
   */
  async rewrite(
    change: { id: string; from: string; to: string },
    hashes: { from: string[]; to: string | undefined },
  ): Promise<boolean> {
    return this.context.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('signups')
        .set({ phone: change.to })
        .where('id', '=', change.id)
        .where('phone', '=', change.from)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      const from = hashes.from.filter((hash) => hash !== hashes.to);
      if (hashes.to === undefined || from.length === 0) return true;
      await trx
        .insertInto('suppressions')
        .columns(['kind', 'address_hash', 'reason', 'source', 'created_at', 'lifts_reason', 'lifts_at'])
        .expression(
          trx
            .selectFrom('suppressions')
            .select([
              'kind',
              sql<string>`cast(${hashes.to} as text)`.as('address_hash'),
              'reason',
              'source',
              'created_at',
              // A lifting goes with the rows it lifts: what the person undid stays undone.
              'lifts_reason',
              'lifts_at',
            ])
            .where('kind', '=', 'phone')
            .where('address_hash', 'in', from),
        )
        .execute();
      return true;
    });
  }
}
