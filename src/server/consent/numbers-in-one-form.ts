// The job "numbers-in-one-form" (jobs/job-list.ts): every stored number in E.164 (issue 54: every
// number is one number), so a STOP, a provider's report or a "no" kept by the number's hash finds the
// record whatever way the number was once typed. The form and the pages keep E.164 already; this
// rewrites what came before them, or back with a restore, and carries each number's "no"s with it.
import type { NumbersRepository } from '../db/numbers-repository.js';
import { toE164 } from '../messaging/phone.js';
import { plural } from '../../shared/plain-numbers.js';
import type { Subscriptions } from './subscriptions.js';

/** How many records are read at a time. */
const PAGE = 500;

export async function numbersInOneForm(
  numbers: Pick<NumbersRepository, 'uneven' | 'rewrite'>,
  subscriptions: Pick<Subscriptions, 'e164' | 'phoneHashes' | 'phoneHash'>,
): Promise<string> {
  let rewritten = 0;
  let unreadable = 0;
  let after: string | undefined;
  for (;;) {
    const page = await numbers.uneven(after, PAGE);
    for (const { id, phone } of page) {
      const e164 = subscriptions.e164(phone);
      // One the numbering plan cannot read is never texted (the gate says why); it is kept as "+" and
      // its digits, so the owner's search and a deletion by number still find it.
      const to = e164 ?? toE164(phone);
      if (e164 === undefined) unreadable += 1;
      if (to === phone) continue;
      const from = subscriptions.phoneHashes(phone);
      const done = await numbers.rewrite({ id, from: phone, to }, { from, to: subscriptions.phoneHash(to) });
      if (done && e164 !== undefined) rewritten += 1;
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.id;
  }
  if (rewritten + unreadable === 0) return 'every number is in one form';
  return `${plural(rewritten, 'number')} rewritten in E.164${unreadable > 0 ? `, ${plural(unreadable, 'number')} no phone can have (never texted)` : ''}`;
}
