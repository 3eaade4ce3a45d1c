// Test helper: the confirmation emails waiting in the outbox go out, as the one sender records a send
// (their fact on the person, and the row sent), without writing any email.
import type { Db } from '../db/open-database.js';

/** Claims every due confirmation email and records it sent; whom they were for. */
export async function confirmationsWentOut(store: Pick<Db, 'outbox'>): Promise<string[]> {
  const claimed = await store.outbox.claim({ kind: 'confirmation', leaseMs: 60_000 }, 'a test', 1000);
  // Recording one sent is the person's fact too (confirm_sent_at).
  await store.outbox.record(
    'a test',
    claimed.map((message) => ({ id: message.id, result: 'sent' as const })),
  );
  return claimed.map((message) => message.signupId);
}
