// The one gate a broadcast's messages pass just before they leave (issue 54): the person is still on
// record and the one contact rule lets this channel's message reach them now (a STOP, an unsubscribe
// or a "no" kept by their address since the broadcast was made wins); each person gets each kind of
// message (launch, beta) once, ever, however many broadcasts of it the owner makes; and a text goes
// only to a number that can take texts, in a country SMS_COUNTRIES names, once per number and kind
// however many sign-ups typed it ("2 texts max"), in daytime where the person is, and within a
// state's 24-hour cap (decision 045).
import type { ClaimedMessage, Outcome } from '../db/outbox-rows.js';
import type { BroadcastDb } from '../db/open-database.js';
import type { Recipient } from '../db/broadcast-recipients-repository.js';
import type { TextTiming } from '../messaging/text-hours.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import type { Channel } from '../db/message-channels.js';
import type { SenderSettings } from './broadcast-sender-options.js';
import { EXCLUSION_WORDS, exclusionOf } from './eligibility.js';
import { storedForms } from '../messaging/phone.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the owner reads beside a text that can never go by the rules. */
export const TEXT_HOURS_WORDS = {
  never: 'not sent: its number may be in time zones that share no hour of daytime, so no hour is right for it',
  abroad: (country: string) => `not sent: the number is in ${country}, which SMS_COUNTRIES does not name`,
  sameNumber:
    'not sent: this number gets this text once, ever ("2 texts max"): it went, or is going, to this number already (through another sign-up, or an earlier broadcast)',
  emailedBefore: 'not sent: this person had this email already, from an earlier broadcast (each is sent once, ever)',
} as const;

/**
 * The texts of a batch that may not go now, by message id: skipped with why (a number that cannot
 * take texts, one abroad, one that has this broadcast's text through another sign-up, one whose zones
 * share no daytime hour), or waiting (outside the hours at its location, or its state's cap reached:
 * until the oldest text that fills it is 24 hours old).
 */
async function textsNotYet(
  timing: TextTiming,
  store: Pick<BroadcastDb, 'outbox' | 'sentMessages'>,
  phoneHashes: (e164: string) => string[],
  broadcastId: number,
  earlier: number[],
  going: { message: ClaimedMessage; person: Recipient }[],
): Promise<Map<number, Outcome>> {
  const { outbox } = store;
  const held = new Map<number, Outcome>();
  const now = new Date();
  const batch = new Set(going.map(({ message }) => message.id));
  // The numbers this broadcast's text went to (or is going to) through another sign-up.
  const given = new Set(
    await outbox.numbersGiven(
      broadcastId,
      going.flatMap(({ person }) => storedForms(timing.numberTiming(person.phone).facts.e164)),
      [...batch],
    ),
  );
  // The numbers an earlier broadcast of this kind texted (by the number it went to then, kept hashed
  // in the message log): this kind of text reaches each number once, ever.
  const hashesOf = new Map(
    going.map(({ person }) => [person.id, phoneHashes(timing.numberTiming(person.phone).facts.e164)]),
  );
  const textedBefore = new Set(
    (await store.sentMessages?.addressesSent(earlier, 'sms', [...hashesOf.values()].flat())) ?? [],
  );
  for (const { message, person } of going) {
    const id = message.id;
    // The rules every text follows (the number, the country, the hours), as for a joining text.
    const check = timing.check(person.phone, now);
    if (check.may === 'never') {
      const error = check.cannotTakeTexts ? `cannot take texts: ${check.why}` : TEXT_HOURS_WORDS.never;
      held.set(id, { id, result: 'skipped', error });
      continue;
    }
    if (check.may === 'not here') {
      held.set(id, { id, result: 'skipped', error: TEXT_HOURS_WORDS.abroad(check.country) });
      continue;
    }
    if (check.may === 'later') {
      held.set(id, { id, result: 'wait', until: check.until, why: 'daytime' });
      continue;
    }
    const { number } = check;
    const forms = storedForms(number.facts.e164);
    if (
      forms.some((form) => given.has(form)) ||
      (hashesOf.get(person.id) ?? []).some((hash) => textedBefore.has(hash))
    ) {
      held.set(id, { id, result: 'skipped', error: TEXT_HOURS_WORDS.sameNumber });
      continue;
    }
    if (number.capPer24Hours !== undefined) {
      const recent = await outbox.textsSentTo(forms, new Date(now.getTime() - DAY_MS));
      if (recent.length >= number.capPer24Hours) {
        const oldest = recent[recent.length - number.capPer24Hours]!;
        held.set(id, { id, result: 'wait', until: new Date(oldest.getTime() + DAY_MS), why: 'cap' });
        continue;
      }
    }
    // This one goes: another of the batch with the same number does not.
    for (const form of forms) given.add(form);
  }
  return held;
}

/** A claimed batch through the gate: the messages that go now, and the outcomes of those that do not. */
export async function gate(
  options: Pick<SenderSettings, 'store' | 'subscriptions' | 'audience' | 'textTiming'>,
  broadcast: Broadcast,
  channel: Channel,
  claimed: ClaimedMessage[],
): Promise<{ going: { message: ClaimedMessage; person: Recipient }[]; outcomes: Outcome[] }> {
  const { store, subscriptions } = options;
  const people = await store.broadcastRecipients.recipients(claimed.map((message) => message.signupId));
  // The broadcasts of this one's kind (its template): each kind reaches each person once, ever.
  const sameKind = await store.broadcasts.idsWithTemplate(broadcast.template);
  const earlier = sameKind.filter((id) => id !== broadcast.id);
  const emailedBefore =
    channel === 'email'
      ? new Set(
          await store.outbox.peopleEmailed(
            earlier,
            claimed.map((message) => message.signupId),
          ),
        )
      : new Set<string>();
  const suppressed = await subscriptions.suppressionsFor([...people.values()], [channel]);
  const outcomes: Outcome[] = [];
  const going: { message: ClaimedMessage; person: Recipient }[] = [];
  for (const message of claimed) {
    const person = people.get(message.signupId);
    if (!person) {
      outcomes.push({ id: message.id, result: 'skipped', error: EXCLUSION_WORDS.deleted });
      continue;
    }
    const why = exclusionOf(
      person,
      channel,
      options.audience,
      suppressed.get(person.id),
      subscriptions.canSuppress,
      subscriptions.textProof,
    );
    if (why) outcomes.push({ id: message.id, result: 'skipped', error: EXCLUSION_WORDS[why] });
    else if (emailedBefore.has(person.id))
      outcomes.push({ id: message.id, result: 'skipped', error: TEXT_HOURS_WORDS.emailedBefore });
    else going.push({ message, person });
  }
  if (channel !== 'sms' || !options.textTiming) return { going, outcomes };
  // A text goes only while it may reach its person: the rest wait in the queue, untried.
  const held = await textsNotYet(
    options.textTiming,
    store,
    (e164) => subscriptions.phoneHashes(e164),
    broadcast.id,
    earlier,
    going,
  );
  outcomes.push(...held.values());
  return { going: going.filter(({ message }) => !held.has(message.id)), outcomes };
}
