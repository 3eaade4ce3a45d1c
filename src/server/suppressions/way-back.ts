// A way back (decision 037): the suppression list as the owner reads it (whose address, masked;
// why; when; the answer that caused it) and the lifting of the entries that may have been our fault
// ("bounced" and "undeliverable": a DMARC slip, a block list read wrongly by an older release), each
// lift written on the person's history and in the audit log. A STOP, a complaint, a leaving or a
// deletion is the person's own word: never lifted here. `sudo scamsavvy suppressions` and the dashboard's
// /owner/suppressions both use it.
import type { Subscriptions } from '../consent/subscriptions.js';
import type { BroadcastRecipientsRepository } from '../db/broadcast-recipients-repository.js';
import type { Channel } from '../db/message-channels.js';
import type { FeedbackEventsRepository } from '../db/feedback-events-repository.js';
import type { OptOutsRepository } from '../db/opt-outs-repository.js';
import type { OwnerRepository } from '../db/owner-repository.js';
import type { SuppressionRow, SuppressionsRepository } from '../db/suppressions-repository.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import { maskEmail } from '../messaging/mask-email.js';
import { phoneEnd } from '../messaging/phone.js';
import { readSmtpText } from '../messaging/smtp-answers.js';

/** The reasons that may have been our fault, and so may be lifted. */
export const LIFTABLE: readonly SuppressionReason[] = ['bounced', 'undeliverable'];
/** Every reason, as the commands and the page name them. */
export const REASONS: readonly SuppressionReason[] = [
  'bounced',
  'undeliverable',
  'complained',
  'sms_stop',
  'left',
  'deleted',
  'email_off',
  'sms_off',
];

export interface SuppressionFilter {
  reason?: SuppressionReason;
  /** Only entries made at or after this time. */
  since?: Date;
  /** Only entries whose answer carried this code (an enhanced status such as 5.7.26, a reply such as 550, a Twilio code). */
  code?: string;
}

export interface SuppressedAddress {
  id: number;
  channel: Channel;
  reason: SuppressionReason;
  /** Who recorded it: a provider's answer during the send, a report after it, the person … */
  source: string;
  createdAt: string;
  /** The person, masked ("ro•••@example.com", "a phone ending 4567"), or that they are no longer on the list. */
  who: string;
  signupId: string | null;
  /** The code of the answer that caused it, when one is known. */
  code?: string;
  /** The answer's words, addresses removed. */
  answer?: string;
  liftable: boolean;
}

/**
 * What the way back needs of the broadcast feature, which owns the outbox: the answer each person's
 * latest failed-for-good message got, by `${signupId} ${channel}` (the owner's side hands it over).
 */
export interface LastRefusals {
  lastRefusals(signupIds: string[]): Promise<Map<string, string>>;
}

export interface WayBackStores {
  suppressions: Pick<SuppressionsRepository, 'rows'>;
  feedbackEvents: Pick<FeedbackEventsRepository, 'latestFailures'>;
  broadcastRecipients: Pick<BroadcastRecipientsRepository, 'recipientsAfter'>;
  optOuts: Pick<OptOutsRepository, 'liftRows'>;
  owners: Pick<OwnerRepository, 'audit'>;
}

/** People read a page at a time to put names (masked) to the hashes. */
const PAGE = 1_000;

export class WayBack {
  constructor(
    private readonly stores: WayBackStores,
    private readonly subscriptions: Pick<Subscriptions, 'emailHashes' | 'phoneHashes'>,
    private readonly refusals: LastRefusals,
  ) {}

  /** The suppression list, newest first, as the filter asks. */
  async list(filter: SuppressionFilter = {}): Promise<SuppressedAddress[]> {
    // Only the "no"s: the mark of the one "come back?" email sent (asked_back) is not one.
    const rows = await this.stores.suppressions.rows({
      reasons: filter.reason ? [filter.reason] : REASONS,
      ...(filter.since ? { since: filter.since.toISOString() } : {}),
    });
    if (rows.length === 0) return [];
    const people = await this.peopleFor(rows);
    const reports = await this.stores.feedbackEvents.latestFailures([...new Set(rows.map((row) => row.hash))]);
    const ids = [...new Set([...people.values()].map((person) => person.id))];
    const refusals = ids.length > 0 ? await this.refusals.lastRefusals(ids) : new Map<string, string>();
    const listed = rows.map((row) => {
      const channel = row.kind === 'email' ? 'email' : 'sms';
      const person = people.get(`${row.kind} ${row.hash}`);
      const report = reports.get(row.hash);
      const refusal = person ? refusals.get(`${person.id} ${channel}`) : undefined;
      const answer = report?.detail ?? refusal ?? undefined;
      const said = refusal ? readSmtpText(refusal) : undefined;
      const code = report?.code ?? said?.status ?? (said?.reply ? String(said.reply) : undefined);
      return {
        id: row.id,
        channel,
        reason: row.reason,
        source: row.source,
        createdAt: row.createdAt,
        who: person
          ? row.kind === 'email'
            ? maskEmail(person.email)
            : `a phone ending ${phoneEnd(person.phone)}`
          : 'someone no longer on the list',
        signupId: person?.id ?? null,
        ...(code ? { code } : {}),
        ...(answer ? { answer } : {}),
        liftable: LIFTABLE.includes(row.reason),
      } satisfies SuppressedAddress;
    });
    return filter.code ? listed.filter((entry) => entry.code === filter.code) : listed;
  }

  /**
   * Lifts the liftable entries the filter matches (a reason that may not be lifted lifts nothing),
   * records each on the person's history and once in the audit log; returns what it lifted.
   */
  async lift(filter: SuppressionFilter, by: { ownerEmail: string }): Promise<SuppressedAddress[]> {
    if (filter.reason && !LIFTABLE.includes(filter.reason)) throw new NotLiftable(filter.reason);
    const lifting = (await this.list(filter)).filter((entry) => entry.liftable);
    if (lifting.length === 0) return [];
    await this.stores.optOuts.liftRows(
      lifting.map((entry) => ({
        id: entry.id,
        kind: entry.channel === 'email' ? 'email' : 'phone',
        signupId: entry.signupId,
      })),
    );
    await this.stores.owners.audit({
      ownerEmail: by.ownerEmail,
      action: 'lifted_suppressions',
      subject: `${lifting.length} ${lifting.length === 1 ? 'address' : 'addresses'}`,
      detail: describeFilter(filter),
    });
    return lifting;
  }

  /** The people whose addresses these rows hash, by `${kind} ${hash}`: everyone on the list read a page at a time. */
  private async peopleFor(rows: SuppressionRow[]): Promise<Map<string, { id: string; email: string; phone: string }>> {
    const wanted = new Set(rows.map((row) => `${row.kind} ${row.hash}`));
    const found = new Map<string, { id: string; email: string; phone: string }>();
    let after: string | null = null;
    for (;;) {
      const page = await this.stores.broadcastRecipients.recipientsAfter(after, PAGE);
      for (const person of page) {
        // Every key's hash: a row made before a key rotation names the person too.
        for (const email of this.subscriptions.emailHashes(person.email))
          if (wanted.has(`email ${email}`)) found.set(`email ${email}`, person);
        for (const phone of this.subscriptions.phoneHashes(person.phone))
          if (wanted.has(`phone ${phone}`)) found.set(`phone ${phone}`, person);
      }
      if (page.length < PAGE || found.size === wanted.size) return found;
      after = page[page.length - 1]!.id;
    }
  }
}

/** A reason that is the person's own word (STOP, a complaint, leaving): never lifted by the owner. */
export class NotLiftable extends Error {
  constructor(reason: SuppressionReason) {
    super(
      `"${reason}" is the person's own word (a STOP, a complaint, leaving or deleting) and is never lifted this way: only ${LIFTABLE.join(' and ')} can be.`,
    );
    this.name = 'NotLiftable';
  }
}

/** The filter in words, for the audit log and the commands. */
export function describeFilter(filter: SuppressionFilter): string {
  const parts = [
    filter.reason ? `reason ${filter.reason}` : `reasons ${LIFTABLE.join(' or ')}`,
    filter.since ? `since ${filter.since.toISOString()}` : '',
    filter.code ? `code ${filter.code}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}
