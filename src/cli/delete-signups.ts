// `sudo scamsavvy signups:delete --email ADDRESS | --phone NUMBER`: deletes a person's sign-up on their request.
import { emailKey, normalisePhone, PHONE_PATTERN } from '../shared/signup-schema.js';
import { loadConfig } from '../server/config.js';
import { compose } from '../server/compose.js';
import { phoneEnd, storedForms, toE164 } from '../server/messaging/phone.js';
import type { Db } from '../server/db/open-database.js';
import type { Subscriber } from '../server/db/subscribers-repository.js';
import { isEntryPoint, openStoreForCli, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';
import { plural } from '../shared/plain-numbers.js';

const usage = `Usage: sudo scamsavvy signups:delete --email ADDRESS
       sudo scamsavvy signups:delete --phone NUMBER
       sudo scamsavvy signups:delete --email ADDRESS --phone NUMBER

Deletes, when a person asks, every sign-up with this email (in any capitals) or this phone number
(however it was typed: +1 555 123 4567, 15551234567, 555-123-4567), with its consent history, and
says what it deleted. Only a scrambled code of the email and phone is kept (a keyed hash, which
needs SECRET_KEY), so no later message reaches them. Reads the database DATABASE_URL names.
  --email ADDRESS   the email they signed up with
  --phone NUMBER    the phone number they gave`;

/** "r•••@example.com": enough to tell people apart, not the whole address. */
function hiddenEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${Array.from(email)[0]}•••${email.slice(at)}`;
}

/**
 * How many consent events each matching person has, read before they are deleted with it. The same
 * matching rule as Subscriptions.removeByAddress; anyone it misses is reported without the count.
 */
async function historySizes(
  messaging: Pick<Db, 'subscribers' | 'consentEvents'>,
  address: { email?: string; phone?: string },
): Promise<Map<string, number>> {
  const found: Subscriber[] = [];
  if (address.email) {
    const subscriber = await messaging.subscribers.subscriberByEmailKey(emailKey(address.email));
    if (subscriber) found.push(subscriber);
  }
  if (address.phone)
    found.push(...(await messaging.subscribers.subscribersByPhone(storedForms(toE164(address.phone)))));
  const sizes = new Map<string, number>();
  for (const { id } of found) if (!sizes.has(id)) sizes.set(id, (await messaging.consentEvents.history(id)).length);
  return sizes;
}

function describeDeletion(subscriber: Subscriber, historySize: number | undefined, keptCodes: boolean): string {
  const history =
    historySize === undefined
      ? 'its consent history'
      : `its consent history (${plural(historySize, 'entry', 'entries')})`;
  const kept = keptCodes
    ? 'Kept a scrambled code of the email and phone so no later message reaches them.'
    : 'No scrambled code of the email and phone was kept, because SECRET_KEY is not set (without it nothing can be sent anyway).';
  return (
    `Deleted the sign-up of ${hiddenEmail(subscriber.email)} (phone ending ${phoneEnd(subscriber.phone)}), ` +
    `first signed up ${subscriber.createdAt.slice(0, 10)}, and ${history}. ${kept}`
  );
}

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const flags = readFlags(argv, { email: { type: 'string' }, phone: { type: 'string' } }, usage, { out, err });
  if ('exitCode' in flags) return flags.exitCode;
  const { values } = flags;
  const email = values.email?.trim() || undefined;
  const phone = values.phone?.trim() || undefined;
  if (!email && !phone) {
    err.write(`Give the email, the phone number, or both, of the person whose sign-up to delete.\n\n${usage}\n`);
    return 2;
  }
  if (phone && !PHONE_PATTERN.test(normalisePhone(phone))) {
    err.write(`--phone must be a phone number such as +15551234567, not "${phone}".\n\n${usage}\n`);
    return 2;
  }

  const config = loadConfig();
  const { store } = await openStoreForCli();
  try {
    const address = { ...(email ? { email } : {}), ...(phone ? { phone } : {}) };
    const sizes = await historySizes(store, address);
    const { subscriptions } = compose(config, store).messaging;
    const removed = await subscriptions.removeByAddress(address, 'owner');
    if (removed.length === 0) {
      const asked = [email ? `the email ${email}` : '', phone ? `the phone number ${phone}` : ''].filter(Boolean);
      out.write(`No sign-up matches ${asked.join(' or ')}. Nothing was deleted.\n`);
      return 0;
    }
    for (const subscriber of removed)
      out.write(`${describeDeletion(subscriber, sizes.get(subscriber.id), subscriptions.canSuppress)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli(main);
