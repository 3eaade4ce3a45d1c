// What a person may change about their place on the list, and whether a message may reach them: the
// one place that turns a choice into stored consent and suppression hashes.
import type { Language } from '../../shared/languages.js';
import { emailKey } from '../../shared/signup-schema.js';
import type { OwnHashes } from '../db/opt-outs-repository.js';
import type { Preferences, Subscriber } from '../db/subscribers-repository.js';
import type { Suppression } from '../db/suppressions-repository.js';
import { mergeEntries, type SuppressionEntry } from '../db/suppression-fold.js';
import type { ConsentSource } from '../db/consent-events.table.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import type { Channel } from '../db/message-channels.js';
import {
  blockingReason,
  confirmationAsk,
  exclusionOf,
  suppressionsFor,
  unreachable,
  type Audience,
  type ConfirmationAsk,
  type Exclusion,
  type TextProof,
  type PersonSuppressions,
} from './contact-rule.js';
import type { AddressHasher } from '../messaging/link-tokens.js';
import { signupE164, storedForms, toE164 } from '../messaging/phone.js';
import type { CountryCode } from 'libphonenumber-js';
import type { SubscriptionsStore } from './subscriptions-store.js';

/** How long the button in the email about a new phone number works (decision 031). */
export const PHONE_CHANGE_DAYS = 7;
/** A day, for the rules that count in days. */
export const DAY_MS = 86_400_000;

export class Subscriptions {
  private readonly subscribers: SubscriptionsStore['subscribers'];
  private readonly optOuts: SubscriptionsStore['optOuts'];
  private readonly suppressions: SubscriptionsStore['suppressions'];
  private readonly phoneChanges: SubscriptionsStore['phoneChanges'];

  constructor(
    stores: SubscriptionsStore,
    /** Unset while no messaging is configured: nothing can be sent, so nothing needs suppressing by hash. */
    private readonly hasher: AddressHasher | undefined,
    /** SMS_CONFIRMATION: what proves a number's yes to texts. */
    readonly textProof: TextProof = 'reply',
    /** SMS_DEFAULT_COUNTRY: how a number typed without its country code is read. */
    private readonly phoneCountry: CountryCode = 'US',
  ) {
    this.subscribers = stores.subscribers;
    this.optOuts = stores.optOuts;
    this.suppressions = stores.suppressions;
    this.phoneChanges = stores.phoneChanges;
  }

  get canSuppress(): boolean {
    return this.hasher !== undefined;
  }

  subscriber(id: string): Promise<Subscriber | undefined> {
    return this.subscribers.subscriber(id);
  }

  /** The person pressed the button in the confirmation email. */
  confirm(id: string, source: ConsentSource): Promise<'confirmed' | 'already' | 'missing'> {
    return this.subscribers.confirm(id, source);
  }

  emailHash(email: string): string | undefined {
    return this.hasher?.hash('email', emailKey(email));
  }

  phoneHash(phone: string): string | undefined {
    return this.hasher?.hash('phone', toE164(phone));
  }

  /** Every hash the list may hold for the email: SECRET_KEY's, and SECRET_KEY_PREVIOUS's after a rotation. */
  emailHashes(email: string): string[] {
    return this.hasher?.hashes('email', emailKey(email)) ?? [];
  }

  phoneHashes(phone: string): string[] {
    return this.hasher?.hashes('phone', toE164(phone)) ?? [];
  }

  /** What the list holds for one address under every key, as one entry. */
  private async entryFor(kind: 'email' | 'phone', hashes: string[]): Promise<SuppressionEntry | undefined> {
    if (hashes.length === 0) return undefined;
    const entries = await this.suppressions.entries(kind, hashes);
    return mergeEntries(hashes.map((hash) => entries.get(hash)));
  }

  /** The person's two addresses as entries for the suppression list, for this reason. */
  private suppressionsOf(subscriber: Subscriber, reason: SuppressionReason, source: ConsentSource): Suppression[] {
    const email = this.emailHash(subscriber.email);
    const phone = this.phoneHash(subscriber.phone);
    return [
      ...(email ? [{ kind: 'email' as const, hash: email, reason, source }] : []),
      ...(phone ? [{ kind: 'phone' as const, hash: phone, reason, source }] : []),
    ];
  }

  /** Their choices, each change on their history; a channel turned off is kept by the address too (issue 54). */
  async updatePreferences(
    id: string,
    wanted: Partial<Preferences>,
    source: ConsentSource,
  ): Promise<Subscriber | undefined> {
    const current = await this.subscribers.subscriber(id);
    if (!current) return undefined;
    return this.subscribers.updatePreferences(id, wanted, source, this.hashesOf(current));
  }

  /** The one "come back?" email went to this address: no later sign-up with it asks again (decision 041). */
  async askedBack(subscriber: Pick<Subscriber, 'email'>): Promise<void> {
    const hash = this.emailHash(subscriber.email);
    if (hash) await this.optOuts.remember({ kind: 'email', hash, reason: 'asked_back', source: 'signup_form' });
  }

  /**
   * A POST from a page an emailed link opened (saving choices with a channel on, or the button of a
   * confirmation): the mailbox is theirs, so their email is confirmed and their own leaving or
   * deletion is lifted on the email (never a bounce or complaint). On the number, only what their own
   * leaving put there: a mailbox does not prove a number, and another's "no" on it only START lifts.
   */
  async provenByEmailedLink(subscriber: Subscriber, source: ConsentSource): Promise<void> {
    await this.optOuts.provenByEmailedLink(subscriber.id, this.hashesOf(subscriber), source);
  }

  /**
   * The "come back?" button (a page an emailed link opened), after leaving or turning email off: email
   * on again and their own "no" lifted as above. Texts stay off until they turn them on themselves.
   */
  async comeBack(subscriber: Subscriber, source: ConsentSource): Promise<boolean> {
    return this.optOuts.comeBack(subscriber.id, this.hashesOf(subscriber), source);
  }

  private hashesOf(subscriber: Pick<Subscriber, 'email' | 'phone'>): OwnHashes {
    return { email: this.emailHashes(subscriber.email), phone: this.phoneHashes(subscriber.phone) };
  }

  /**
   * Their name or phone number, changed by them (their own page) or the owner: each change a consent
   * event. `phone` as the form leaves it; the same number written another way is no change. A new
   * number gets texts only if it never replied STOP (the contact rule reads the number they have now).
   */
  async changeDetails(
    id: string,
    wanted: { name?: string; phone?: string },
    source: ConsentSource,
  ): Promise<Subscriber | undefined> {
    const current = await this.subscribers.subscriber(id);
    if (!current) return undefined;
    const phoneChanged = wanted.phone !== undefined && toE164(wanted.phone) !== toE164(current.phone);
    return this.subscribers.changeDetails(
      id,
      { ...(wanted.name !== undefined ? { name: wanted.name } : {}), ...(phoneChanged ? { phone: wanted.phone } : {}) },
      source,
    );
  }

  /** The owner changed the language their messages go in (issue 45). */
  changeLanguage(id: string, language: Language): Promise<Subscriber | undefined> {
    return this.subscribers.changeLanguage(id, language);
  }

  /**
   * A new number typed on the person's own page: their page's link came by email and may have been
   * forwarded, so the number is not changed here. The address on record is asked with a button, as
   * for a repeat sign-up (decision 041); the name, if typed, changes at once.
   */
  async askPhoneChange(subscriber: Subscriber, to: string): Promise<'asked' | 'askedToday' | 'missing'> {
    return this.phoneChanges.askPhoneChange(subscriber.id, to, new Date(Date.now() - PHONE_CHANGE_DAYS * DAY_MS));
  }

  /**
   * A typed number as every record keeps it, E.164 (issue 54: every number is one number), read in
   * SMS_DEFAULT_COUNTRY when it has no country code; undefined when the numbering plan cannot read it.
   */
  e164(typed: string): string | undefined {
    return signupE164(typed, this.phoneCountry);
  }

  /** Whether this number is the one they have (written any way). */
  isTheirNumber(subscriber: Pick<Subscriber, 'phone'>, phone: string): boolean {
    return toE164(phone) === toE164(subscriber.phone);
  }

  /**
   * The waiting phone number change, if it is still good: asked for within PHONE_CHANGE_DAYS.
   * (A number that is theirs already, written another way, is nothing to change.)
   */
  pendingPhoneChange(subscriber: Subscriber, now = new Date()): { to: string; at: string } | undefined {
    const change = subscriber.phoneChange;
    if (!change) return undefined;
    if (Date.parse(change.at) < now.getTime() - PHONE_CHANGE_DAYS * DAY_MS) return undefined;
    if (toE164(change.to) === toE164(subscriber.phone)) return undefined;
    return { to: change.to, at: change.at };
  }

  /** The button in the email about a new phone number: that number (and only that one) becomes theirs. */
  async applyPhoneChange(subscriber: Subscriber, to: string): Promise<Subscriber | undefined> {
    if (this.pendingPhoneChange(subscriber)?.to !== to) return undefined;
    return this.subscribers.changeDetails(subscriber.id, { phone: to }, 'phone_change_email');
  }

  /** Off the list: the record stays (it shows when they left), both addresses go on the suppression list. */
  async leave(id: string, source: ConsentSource): Promise<boolean> {
    const subscriber = await this.subscribers.subscriber(id);
    if (!subscriber) return false;
    return this.optOuts.leave(id, source, this.suppressionsOf(subscriber, 'left', source));
  }

  /** Deletes everything held about this person but the suppression hashes; returns who was deleted. */
  async remove(id: string, source: ConsentSource): Promise<Subscriber | undefined> {
    const subscriber = await this.subscribers.subscriber(id);
    if (!subscriber) return undefined;
    const removed = await this.optOuts.remove(id, this.suppressionsOf(subscriber, 'deleted', source));
    return removed ? subscriber : undefined;
  }

  /**
   * The owner's deletion, for a request by phone or letter: every sign-up with this email, or with
   * this phone number in any of the forms it may have been typed.
   */
  async removeByAddress(address: { email?: string; phone?: string }, source: ConsentSource): Promise<Subscriber[]> {
    const found: Subscriber[] = [];
    if (address.email) {
      const subscriber = await this.subscribers.subscriberByEmailKey(emailKey(address.email));
      if (subscriber) found.push(subscriber);
    }
    if (address.phone) {
      for (const subscriber of await this.subscribers.subscribersByPhone(storedForms(toE164(address.phone))))
        if (!found.some((other) => other.id === subscriber.id)) found.push(subscriber);
    }
    const removed: Subscriber[] = [];
    for (const subscriber of found) {
      const gone = await this.remove(subscriber.id, source);
      if (gone) removed.push(gone);
    }
    return removed;
  }

  /**
   * STOP (or another stop word) from this number: texts off for everyone who gave it. Also when the
   * provider answers a send with "this number replied STOP to you" (Twilio 21610: `provider_answer`).
   */
  async stopTexts(from: string, source: ConsentSource = 'sms_reply', received?: string): Promise<number> {
    const e164 = toE164(from);
    const hash = this.phoneHash(e164);
    if (!hash) return 0;
    return this.optOuts.stopTexts(
      storedForms(e164),
      { kind: 'phone', hash, reason: 'sms_stop', source },
      receivedEvidence(received),
    );
  }

  /**
   * The language to answer this number in when its word has none (START): the one everyone on
   * record with it signed up in, or English when they differ or nobody has it.
   */
  async languageOfNumber(from: string): Promise<Language> {
    const people = await this.subscribers.subscribersByPhone(storedForms(toE164(from)));
    const languages = new Set(people.map((person) => person.language));
    const [only] = languages;
    return languages.size === 1 && only ? only : 'en';
  }

  /** START or UNSTOP from this number: texts on again for those still on the list. */
  async startTexts(from: string, received?: string): Promise<number> {
    const e164 = toE164(from);
    const hashes = this.phoneHashes(e164);
    if (hashes.length === 0) return 0;
    return this.optOuts.startTexts(storedForms(e164), hashes, 'sms_reply', receivedEvidence(received));
  }

  /**
   * YES (or SÍ, Y) from this number: texts to it are proven wanted for those on the list who gave it.
   * Says how many it confirmed now, and whether anyone on the list with texts on has the number.
   */
  async confirmTexts(from: string, received?: string): Promise<{ confirmed: number; onList: boolean }> {
    const forms = storedForms(toE164(from));
    const confirmed = await this.optOuts.confirmTexts(forms, 'sms_reply', receivedEvidence(received));
    const people = await this.subscribers.subscribersByPhone(forms);
    return { confirmed, onList: people.some((person) => person.leftAt === null && person.smsOptOutAt === null) };
  }

  /**
   * A provider answered that this person's address (email) or number (sms) cannot be reached, for
   * good: recorded on their history, and no later message tries it (docs/messaging.md).
   */
  async markUndeliverable(subscriber: Pick<Subscriber, 'id' | 'email' | 'phone'>, channel: Channel): Promise<void> {
    const hash = channel === 'email' ? this.emailHash(subscriber.email) : this.phoneHash(subscriber.phone);
    if (!hash) return;
    await this.optOuts.markUndeliverable(subscriber.id, {
      kind: channel === 'email' ? 'email' : 'phone',
      hash,
      reason: 'undeliverable',
      source: 'provider_answer',
    });
  }

  /** The owner believes the provider was wrong: messages may try this person's address again. */
  async clearUndeliverable(subscriber: Pick<Subscriber, 'id' | 'email' | 'phone'>, channel: Channel): Promise<void> {
    const hash = channel === 'email' ? this.emailHashes(subscriber.email) : this.phoneHashes(subscriber.phone);
    if (hash.length === 0) return;
    await this.optOuts.clearUndeliverable(subscriber.id, channel === 'email' ? 'email' : 'phone', hash);
  }

  /**
   * Why this channel's message may not reach this person now, or undefined when it may: the one
   * contact rule (contact-rule.ts) the senders use, read for one person. By default for any message
   * (the unconfirmed included); give the audience a broadcast uses to ask about its message.
   */
  async exclusion(
    subscriber: Subscriber,
    channel: Channel,
    audience: Audience = { segment: 'all', confirmation: 'everyone' },
  ): Promise<Exclusion | undefined> {
    return (await this.exclusions(subscriber, [channel], audience))[channel];
  }

  /** exclusion() for several channels, from one reading of the suppression list. */
  async exclusions(
    subscriber: Subscriber,
    channels: Channel[],
    audience: Audience = { segment: 'all', confirmation: 'everyone' },
  ): Promise<Partial<Record<Channel, Exclusion>>> {
    const suppressed = await this.suppressionsFor([subscriber], channels);
    const found: Partial<Record<Channel, Exclusion>> = {};
    for (const channel of channels) {
      const why = exclusionOf(
        subscriber,
        channel,
        audience,
        suppressed.get(subscriber.id),
        this.canSuppress,
        this.textProof,
      );
      if (why) found[channel] = why;
    }
    return found;
  }

  /**
   * Whether a message on this channel may reach this person now: on the list, that channel on,
   * and the address not suppressed since their latest sign-up. Checked again right before each send.
   */
  async mayContact(subscriber: Subscriber, channel: Channel): Promise<boolean> {
    return (await this.exclusion(subscriber, channel)) === undefined;
  }

  /** What the suppression list holds for a page of people (a broadcast's) or one, per person id: one read per kind. */
  suppressionsFor(
    people: { id: string; email: string; phone: string }[],
    channels: Channel[],
  ): Promise<Map<string, PersonSuppressions>> {
    return suppressionsFor((kind, hashes) => this.suppressions.entries(kind, hashes), this, people, channels);
  }

  /** Which email a due confirmation request may send this person now (contact-rule.ts, confirmationAsk). */
  async confirmationAsk(subscriber: Subscriber): Promise<ConfirmationAsk> {
    const entry = await this.entryFor('email', this.emailHashes(subscriber.email));
    return confirmationAsk(subscriber, entry, this.canSuppress);
  }

  /**
   * Whether their mailbox can get an email from us at all, whatever they chose: no bounce since their
   * latest sign-up, no spam report (an emailed button goes to someone whose email is off at their request).
   */
  async mailboxReachable(subscriber: Subscriber): Promise<boolean> {
    if (!this.canSuppress) return false;
    const entry = await this.entryFor('email', this.emailHashes(subscriber.email));
    return entry === undefined || !unreachable(entry, subscriber.lastSeenAt);
  }

  /** What the suppression list says of this channel's address for this person, newest reason first (for the pages' words). */
  async blockedBy(subscriber: Subscriber, channel: Channel): Promise<SuppressionReason | undefined> {
    const entry =
      channel === 'email'
        ? await this.entryFor('email', this.emailHashes(subscriber.email))
        : await this.entryFor('phone', this.phoneHashes(subscriber.phone));
    return blockingReason(entry, subscriber.lastSeenAt);
  }
}

/** The longest reply kept as a consent's words: ten text segments. */
export const RECEIVED_WORDS_MAX = 1600;

/** A text reply's own words, kept on the consent line it made (the proof of consent: issue 56). */
function receivedEvidence(received: string | undefined): string | undefined {
  return received === undefined ? undefined : JSON.stringify({ received: received.slice(0, RECEIVED_WORDS_MAX) });
}
