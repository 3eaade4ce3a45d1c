// What a deletion does to the messages that named the people (docs/messaging.md, "Each person's own
// data"): each keeps its counts and loses the person. The outbox's rows (a broadcast's and every
// other kind's) name one random id per person that leads nowhere, with no provider id or answer; a
// row still waiting finds nobody when its turn comes, and is skipped; the message log keeps each message's
// state, nothing that names them. The owner's deletion and the never-confirmed sweep both do this.
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from './database.js';
import { CHUNK } from './sql-dialect.js';

export async function forgetPeopleInMessages(trx: Transaction<Database>, ids: string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    await trx
      .updateTable('sent_messages')
      .set({ signup_id: null, address_hash: null, provider_id: null, message_id: null })
      .where('signup_id', 'in', chunk)
      .execute();
    // Their events for the webhook endpoints no longer lead to them: a delivery still to go carries
    // the id the tools were told (so they can delete the person too), never details read from a record.
    await trx.updateTable('webhook_events').set({ signup_id: null }).where('signup_id', 'in', chunk).execute();
    // One random id each (a broadcast holds a person once per channel, another kind once while live).
    const inBroadcasts = await trx
      .selectFrom('outbox')
      .select('signup_id as id')
      .distinct()
      .where('signup_id', 'in', chunk)
      .execute();
    for (const { id } of inBroadcasts)
      await trx
        .updateTable('outbox')
        .set({ signup_id: randomUUID(), provider_id: null, error: null })
        .where('signup_id', '=', id)
        .execute();
  }
}
