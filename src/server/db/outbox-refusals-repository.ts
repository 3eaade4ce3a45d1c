// What the outbox says about refusals: the emails receiving servers refused for our sending, by
// domain (status and the dashboard), and each person's latest failed-for-good answer (the way back
// from a suppression). Read only; the broadcast feature's, handed to suppressions/ by the owner's side.
import { flag, type QueryContext } from './sql-dialect.js';

export class OutboxRefusalsRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * A broadcast's messages of this channel a receiving server last refused for our sending (block
   * list, reputation, volume), by the domain of the address: what `status` and the dashboard show.
   */
  async refusedForOurSending(broadcastId: number): Promise<{ domain: string; count: number }[]> {
    const rows = await this.context.db
      .selectFrom('outbox')
      .innerJoin('signups', 'signups.id', 'outbox.signup_id')
      .select('signups.email')
      .where('outbox.broadcast_id', '=', broadcastId)
      .where('outbox.channel', '=', 'email')
      .where('outbox.state', 'in', ['failed_temporary', 'queued'])
      .where('outbox.refused_for_our_sending', '=', flag(this.context, true))
      .execute();
    const counts = new Map<string, number>();
    for (const { email } of rows) {
      const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
      counts.set(domain, (counts.get(domain) ?? 0) + 1);
    }
    return [...counts].map(([domain, count]) => ({ domain, count })).sort((a, b) => b.count - a.count);
  }

  /** The answer each of these people's latest failed-for-good message got, by `${signupId} ${channel}`. */
  async lastRefusals(signupIds: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let start = 0; start < signupIds.length; start += 500) {
      const rows = await this.context.db
        .selectFrom('outbox')
        .select(['signup_id', 'channel', 'error'])
        .where('signup_id', 'in', signupIds.slice(start, start + 500))
        .where('state', '=', 'failed_permanent')
        .orderBy('id')
        .execute();
      for (const row of rows) if (row.error) found.set(`${row.signup_id} ${row.channel}`, row.error);
    }
    return found;
  }
}
