// Test helper: the confirmation emails waiting in the outbox go out, as the one sender records a send
// (their fact on the person, and the row sent), without writing any email.
import type { Db } from '../db/open-database.js';

/** Claims every due confirmation email and records it sent; whom they were for. */
export async function confirmationsWentOut(store: Pick<Db, 'messageQueue'>): Promise<string[]> {
  const claimed = await store.messageQueue.claim('confirmation', 1000, 60_000);
  // Recording one sent is the person's fact too (confirm_sent_at).
  for (const message of claimed) await store.messageQueue.sent(message.id);
  return claimed.map((message) => message.signupId);
}
