// What the owner's other tools are told of (issue 56, docs/webhooks.md): each event type, and the
// events each line of the consent history makes. A deletion's event is made where the deletion is
// (db/opt-outs-repository.ts), a broadcast's where it moves (db/broadcasts-repository.ts).
import type { ConsentKind } from '../db/consent-events.table.js';
import type { ConsentLine, NewWebhookEvent } from '../db/webhooks-repository.js';

export const WEBHOOK_EVENT_TYPES = [
  'signup.created',
  'signup.confirmed',
  'consent.changed',
  'broadcast.started',
  'broadcast.paused',
  'broadcast.completed',
  'delivery.bounced',
  'delivery.complained',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a Slack endpoint is told of: the list growing and the launch's progress, never a person. */
export const SLACK_EVENT_TYPES: WebhookEventType[] = [
  'signup.created',
  'broadcast.started',
  'broadcast.paused',
  'broadcast.completed',
];

/** A test event, sent when the owner asks (`webhooks test`): it names no person. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const isWebhookEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

type Change = { type: WebhookEventType; channel?: string; change?: string };

/** Each consent kind's event, if it makes one (a repeat sign-up, a name change: none). */
const FROM_CONSENT: Partial<Record<ConsentKind, Change>> = {
  confirmed: { type: 'signup.confirmed' },
  email_on: { type: 'consent.changed', channel: 'email', change: 'on' },
  came_back: { type: 'consent.changed', channel: 'email', change: 'on' },
  sms_on: { type: 'consent.changed', channel: 'sms', change: 'on' },
  sms_confirmed: { type: 'consent.changed', channel: 'sms', change: 'on' },
  beta_on: { type: 'consent.changed', channel: 'beta', change: 'on' },
  email_off: { type: 'consent.changed', channel: 'email', change: 'off' },
  sms_off: { type: 'consent.changed', channel: 'sms', change: 'off' },
  beta_off: { type: 'consent.changed', channel: 'beta', change: 'off' },
  left: { type: 'consent.changed', channel: 'all', change: 'left' },
  email_bounced: { type: 'delivery.bounced', channel: 'email' },
  email_undeliverable: { type: 'delivery.bounced', channel: 'email' },
  sms_undeliverable: { type: 'delivery.bounced', channel: 'sms' },
  email_complained: { type: 'delivery.complained', channel: 'email' },
};

/** The events one line of the consent history makes: ids and facts, never a person's details. */
export function eventsOfConsentLine(line: ConsentLine): NewWebhookEvent[] {
  const base = { signupId: line.signupId, at: line.at, source: line.source };
  if (line.kind === 'signed_up')
    return line.first ? [{ type: 'signup.created', signupId: line.signupId, data: base }] : [];
  const change = FROM_CONSENT[line.kind];
  if (!change) return [];
  const { type, ...facts } = change;
  return [{ type, signupId: line.signupId, data: { ...base, ...facts } }];
}
