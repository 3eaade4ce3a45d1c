// How far a broadcast has got, in figures a person reads: the terminal's status and the dashboard's
// live progress both come from here.
import { senderIsDead } from './broadcast-rules.js';
import type { MessageHealthRepository } from '../db/message-health-repository.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import type { ChannelPause } from '../db/broadcast-pauses-repository.js';
import type { BroadcastDb } from '../db/open-database.js';
import type { StateCounts } from '../db/outbox-rows.js';
import { MESSAGE_STATES } from '../db/outbox.table.js';
import { number } from '../../shared/plain-numbers.js';

/** "about 3 min", "about 45 s", "under a second". */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'unknown';
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `about ${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `about ${Math.round(seconds / 60)} min`;
  return `about ${(seconds / 3600).toFixed(1)} h`;
}

/**
 * The line launch day shows while texts wait for the hours at their person's location (or a state's
 * 24-hour cap): how many, when the next may go (UTC, to the minute), and that they go by themselves.
 */
export function waitingTextsLine(waits: { count: number; next: string | undefined }): string | undefined {
  if (waits.count === 0) return undefined;
  const when = waits.next ? ` the next go at ${waits.next.slice(0, 16).replace('T', ' ')} UTC;` : '';
  return `${waits.count.toLocaleString('en-US')} ${waits.count === 1 ? 'text waits' : 'texts wait'} for daytime where ${waits.count === 1 ? 'its person is' : 'their people are'} (or a state's limit of texts a day);${when} they go by themselves while the server runs.`;
}

/** Messages that have an outcome (not waiting to be sent or retried). */
export function done(counts: StateCounts): number {
  return counts.total - counts.queued - counts.sending - counts.retrying;
}

/** The figures a live view shows, each already written out, keyed as the page's elements are. */
export interface BroadcastProgress {
  name: string;
  /**
   * The broadcast's state, or 'stopped': it is sending, but no sender is alive to do it (the process
   * that ran it stopped: the web server restarted, a terminal was closed). Resume goes on. Or
   * 'texts-wait': all that is left is texts held for daytime, which the server sends by itself.
   */
  state: Broadcast['state'] | 'stopped' | 'texts-wait';
  /** Share of messages with an outcome, 0-100. */
  percent: number;
  /** "email.sent" → "1,234"; "rate" → "12"; "eta" → "about 3 min"; "done" → "1,240 of 5,000". */
  fields: Record<string, string>;
  /** The channels a failure of ours paused, as plain data: the page shows a notice for each. */
  pauses: ProgressPause[];
}

/** A paused channel as the dashboard shows it: why, the provider's answer, and since when (ISO, UTC). */
export type ProgressPause = Pick<ChannelPause, 'channel' | 'reason' | 'answer' | 'pausedAt'>;

export const PROGRESS_COUNTS = [
  'total',
  'queued',
  'sent',
  'failedTemporary',
  'failedPermanent',
  'skipped',
  'unknown',
] as const;
export type ProgressCount = (typeof PROGRESS_COUNTS)[number];

function countOf(counts: StateCounts, key: ProgressCount): number {
  switch (key) {
    case 'total':
      return counts.total;
    case 'queued':
      return counts.queued + counts.sending + counts.retrying;
    case 'failedTemporary':
      return counts.failed_temporary;
    case 'failedPermanent':
      return counts.failed_permanent;
    default:
      return counts[key];
  }
}

/** What came back, per channel, as the page's rows (after PROGRESS_COUNTS). */
export const HEALTH_COUNTS = ['delivered', 'hardBounced', 'softBounced', 'complained', 'unsubscribed'] as const;
export type HealthCount = (typeof HEALTH_COUNTS)[number];
export const HEALTH_RATES = ['bounceRate', 'complaintRate'] as const;

/** "1.2%" (two decimals under 1%): a share of 0..1 in a column of figures. */
export function share(value: number): string {
  return `${(value * 100).toFixed(value < 0.01 ? 2 : 1)}%`;
}

/** "2.95%", "2%": a share of 0..1 in a sentence, no trailing zeros. */
export function percent(value: number): string {
  return `${(value * 100).toFixed(2).replace(/\.?0+$/, '')}%`;
}

/** The counts of several channels together. */
function sumCounts(parts: StateCounts[]): StateCounts {
  const sum = Object.fromEntries([...MESSAGE_STATES, 'retrying', 'total'].map((key) => [key, 0])) as StateCounts;
  for (const part of parts) for (const key of Object.keys(sum) as (keyof StateCounts)[]) sum[key] += part[key];
  return sum;
}

/** Reads the broadcast's counts now, with the rate over the last minute and the time left at that rate. */
export async function broadcastProgress(
  store: BroadcastDb,
  broadcast: Broadcast,
  now = new Date(),
  messageHealth?: Pick<MessageHealthRepository, 'health'>,
): Promise<BroadcastProgress> {
  const [byChannel, senders, lastMinute, state, pauses, waits] = await Promise.all([
    Promise.all(broadcast.channels.map((channel) => store.outbox.counts(broadcast.id, channel))),
    store.broadcastSenders.liveSenders(broadcast.id),
    store.outbox.sentSince(broadcast.id, new Date(now.getTime() - 60_000)),
    store.broadcasts.state(broadcast.id),
    store.broadcastPauses.channelPauses(broadcast.id),
    store.outbox.waitingTexts(broadcast.id),
  ]);
  const fields: Record<string, string> = {};
  broadcast.channels.forEach((channel, index) => {
    const counts = byChannel[index];
    if (counts) for (const key of PROGRESS_COUNTS) fields[`${channel}.${key}`] = number(countOf(counts, key));
  });
  // What came back about each channel's messages (docs/messaging.md, "Hearing back").
  if (messageHealth)
    for (const channel of broadcast.channels) {
      const health = await messageHealth.health(broadcast.id, channel, broadcast.startedAt);
      for (const key of HEALTH_COUNTS) fields[`${channel}.${key}`] = number(health[key]);
      fields[`${channel}.bounceRate`] = share(health.bounceRate);
      fields[`${channel}.complaintRate`] = share(health.complaintRate);
    }
  const all = sumCounts(byChannel);
  const finished = done(all);
  const left = all.total - finished;
  const perSecond = lastMinute / 60;
  fields.done = `${number(finished)} of ${number(all.total)}`;
  fields.rate = perSecond >= 10 ? number(Math.round(perSecond)) : perSecond.toFixed(1);
  // A paused channel does not finish at any rate: it waits for the owner (as the terminal's line says).
  fields.eta =
    left === 0
      ? 'none: done'
      : pauses.length > 0
        ? 'waiting for resume'
        : perSecond > 0
          ? duration(left / perSecond)
          : '–';
  const alive = senders.filter((sender) => !senderIsDead(sender));
  fields.senders = number(alive.length);
  fields.waitingTexts = waitingTextsLine(waits) ?? '';
  const current = state ?? broadcast.state;
  const onlyTextsWait = waits.count > 0 && left === waits.count && pauses.length === 0;
  if (onlyTextsWait) fields.eta = 'when their daytime comes';
  return {
    name: broadcast.name,
    state: current === 'sending' && alive.length === 0 ? (onlyTextsWait ? 'texts-wait' : 'stopped') : current,
    percent: all.total === 0 ? 100 : Math.floor((finished / all.total) * 100),
    fields,
    pauses: pauses.map(({ channel, reason, answer, pausedAt }) => ({ channel, reason, answer, pausedAt })),
  };
}
