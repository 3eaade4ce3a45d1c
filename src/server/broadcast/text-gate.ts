// Whether each text of a batch may go now, just before it leaves (decision 045, issue 54): only to a
// number that can take texts, in a country SMS_COUNTRIES names, once per number per broadcast
// however many sign-ups typed it, in daytime where the person is, and within a state's 24-hour cap.
import type { ClaimedMessage, Outcome } from '../db/outbox-rows.js';
import type { OutboxRepository } from '../db/outbox-repository.js';
import type { Recipient } from '../db/broadcast-recipients-repository.js';
import type { TextTiming } from '../messaging/text-hours.js';
import { storedForms } from '../messaging/phone.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the owner reads beside a text that can never go by the rules. */
export const TEXT_HOURS_WORDS = {
  never: 'not sent: its number may be in time zones that share no hour of daytime, so no hour is right for it',
  abroad: (country: string) => `not sent: the number is in ${country}, which SMS_COUNTRIES does not name`,
  sameNumber: 'not sent: this number gets this text once, through another sign-up that gave it',
} as const;

/**
 * The texts of a batch that may not go now, by message id: skipped with why (a number that cannot
 * take texts, one abroad, one that has this broadcast's text through another sign-up, one whose zones
 * share no daytime hour), or waiting (outside the hours at its location, or its state's cap reached:
 * until the oldest text that fills it is 24 hours old).
 */
export async function textsNotYet(
  timing: TextTiming,
  outbox: Pick<OutboxRepository, 'textsSentTo' | 'numbersGiven'>,
  broadcastId: number,
  going: { message: ClaimedMessage; person: Recipient }[],
): Promise<Map<number, Outcome>> {
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
  for (const { message, person } of going) {
    const number = timing.numberTiming(person.phone);
    const id = message.id;
    if (!number.facts.textable) {
      held.set(id, { id, result: 'skipped', error: `cannot take texts: ${number.facts.why ?? 'not a mobile number'}` });
      continue;
    }
    const abroad = timing.outsideTextCountries(number.facts.e164);
    if (abroad) {
      held.set(id, { id, result: 'skipped', error: TEXT_HOURS_WORDS.abroad(abroad) });
      continue;
    }
    const forms = storedForms(number.facts.e164);
    if (forms.some((form) => given.has(form))) {
      held.set(id, { id, result: 'skipped', error: TEXT_HOURS_WORDS.sameNumber });
      continue;
    }
    const opens = timing.opensAt(number.place, now);
    if (opens === undefined) {
      held.set(id, { id, result: 'skipped', error: TEXT_HOURS_WORDS.never });
      continue;
    }
    if (opens > now) {
      held.set(id, { id, result: 'wait', until: opens, why: 'daytime' });
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
