// Making and changing the owner's webhook endpoints (issue 56), the same from the command line and
// the dashboard: the rules an endpoint keeps, its signing secret (shown once), and the audit log.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/open-database.js';
import { WEBHOOK_KINDS, type WebhookKind } from '../db/webhooks.table.js';
import { isWebhookEventType, SLACK_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-events.js';

/** An endpoint's name: as an API key's, what the owner calls the tool ("Zapier", "#launch in Slack"). */
export const ENDPOINT_NAME = /^[\p{L}\p{N}#][\p{L}\p{N} #._'()-]{0,59}$/u;
const URL_MAX = 2000;

export const endpointWords = {
  nameRule: "A name is 1 to 60 letters, digits, spaces or # . _ ' ( ) -, starting with a letter, digit or #.",
  urlRule:
    'The address must be https:// (http:// only on this computer), at most 2,000 characters, with no user name or password in it.',
  kindRule: `The kind is one of: ${WEBHOOK_KINDS.join(', ')}.`,
  eventsRule: (bad: string) => `"${bad}" is not an event. The events: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
  slackPersonal: 'A Slack endpoint never gets a person’s details: leave out --with-personal-data.',
  nameTaken: (name: string) => `An endpoint named "${name}" already exists. Delete it first, or choose another name.`,
  notFound: (name: string) => `No endpoint is named "${name}". See them: sudo scamsavvy webhooks list`,
};

export function endpointName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return ENDPOINT_NAME.test(name) ? name : undefined;
}

/** An https address, or http on this computer; undefined when it breaks the rule. */
export function endpointUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > URL_MAX) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return url.toString();
  return undefined;
}

export const isWebhookKind = (value: unknown): value is WebhookKind => WEBHOOK_KINDS.includes(value as WebhookKind);

/** "all" (or nothing) for every event; else a comma-separated list. A Slack endpoint gets its own few. */
export function endpointEvents(
  value: string | undefined,
  kind: WebhookKind,
): { events: WebhookEventType[] | '*' } | { problem: string } {
  if (kind === 'slack') return { events: SLACK_EVENT_TYPES };
  const given = (value ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  if (given.length === 0 || (given.length === 1 && given[0] === 'all')) return { events: '*' };
  const bad = given.find((type) => !isWebhookEventType(type));
  if (bad !== undefined) return { problem: endpointWords.eventsRule(bad) };
  return { events: [...new Set(given)] as WebhookEventType[] };
}

/** A signing secret as Standard Webhooks 1.0 writes it: whsec_ and 32 random bytes in base64. */
export const newEndpointSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface EndpointStores {
  webhooks: Pick<Db['webhooks'], 'create' | 'remove' | 'resume'>;
  owners: Pick<Db['owners'], 'audit'>;
}

/** Makes an endpoint and writes it in the audit log; its secret is in the answer only. */
export async function makeEndpoint(
  { webhooks, owners }: EndpointStores,
  endpoint: {
    name: string;
    kind: WebhookKind;
    url: string;
    events: WebhookEventType[] | '*';
    withPersonalData: boolean;
    by: string;
  },
): Promise<{ secret: string } | 'name_taken'> {
  const secret = newEndpointSecret();
  const created = await webhooks.create({ ...endpoint, secret, createdBy: endpoint.by });
  if (created === 'name_taken') return created;
  const host = new URL(endpoint.url).host;
  await owners.audit({
    ownerEmail: endpoint.by,
    action: 'webhook_changed',
    subject: endpoint.name,
    detail: `Made (${endpoint.kind}, to ${host}${endpoint.withPersonalData ? ', with people’s details' : ''})`,
  });
  return { secret };
}

export async function removeEndpoint({ webhooks, owners }: EndpointStores, name: string, by: string): Promise<boolean> {
  if (!(await webhooks.remove(name))) return false;
  await owners.audit({ ownerEmail: by, action: 'webhook_changed', subject: name, detail: 'Deleted' });
  return true;
}

export async function resumeEndpoint({ webhooks, owners }: EndpointStores, name: string, by: string): Promise<boolean> {
  if (!(await webhooks.resume(name))) return false;
  await owners.audit({ ownerEmail: by, action: 'webhook_changed', subject: name, detail: 'Resumed' });
  return true;
}
