// The owner's view of a broadcast in the terminal: counts, a progress bar, and the time left.
import { done, duration, percent } from '../server/broadcast/broadcast-progress.js';
import type { BroadcastHealth } from '../server/db/message-health-repository.js';
import type { Channel } from '../server/db/message-channels.js';
import type { ChannelPause } from '../server/db/broadcast-pauses-repository.js';
import type { StateCounts } from '../server/db/outbox-rows.js';
import { number, plural } from '../shared/plain-numbers.js';

export { done, duration, percent };

const CHANNEL_WORDS = { email: 'Email', sms: 'Text messages' } as const;

/** "Email paused since 14:02 UTC: The mail server refused our sign-in: …" and the answer, quoted. */
export function pauseLines(pauses: ChannelPause[]): string[] {
  return pauses.flatMap((pause) => [
    `${CHANNEL_WORDS[pause.channel]} paused since ${pause.pausedAt.slice(11, 16)} UTC: ${pause.reason}`,
    ...(pause.answer ? [`  Its answer: "${pause.answer}"`] : []),
  ]);
}

/** One line: [#####.....] 45% 45,000 of 100,000 · sent 44,990 · failed 3 · skipped 7 · 1,234/s · about 45 s left */
export function progressLine(
  counts: StateCounts,
  perSecond: number,
  width = 24,
  pauses: ChannelPause[] = [],
  health?: Pick<BroadcastHealth, 'messages' | 'bounceRate' | 'complaintRate'>,
): string {
  const finished = done(counts);
  const share = counts.total === 0 ? 1 : finished / counts.total;
  const filled = Math.round(share * width);
  const left = counts.total - finished;
  const failed = counts.failed_temporary - counts.retrying + counts.failed_permanent;
  const parts = [
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(share * 100)}%`,
    `${number(finished)} of ${number(counts.total)}`,
    `sent ${number(counts.sent)}`,
    ...(failed > 0 ? [`failed ${number(failed)}`] : []),
    ...(counts.retrying > 0 ? [`retrying ${number(counts.retrying)}`] : []),
    ...(counts.skipped > 0 ? [`skipped ${number(counts.skipped)}`] : []),
    ...(counts.unknown > 0 ? [`unknown ${number(counts.unknown)}`] : []),
    ...(health && health.messages > 0
      ? [`bounced ${percent(health.bounceRate)}`, `spam ${percent(health.complaintRate)}`]
      : []),
    ...pauses.map((pause) => `${pause.channel} PAUSED`),
    `${number(Math.round(perSecond))}/s`,
    left === 0
      ? 'done'
      : pauses.length > 0
        ? 'waiting for resume'
        : `${duration(perSecond > 0 ? left / perSecond : Infinity)} left`,
  ];
  return parts.join(' · ');
}

/** The status table: every state, with what it means. */
export function statusLines(counts: StateCounts): string[] {
  const gaveUp = counts.failed_temporary - counts.retrying;
  const rows: [string, number, string][] = [
    ['queued', counts.queued, 'waiting to be sent'],
    ['sending', counts.sending, 'being sent now'],
    ['sent', counts.sent, 'accepted by the provider'],
    [
      'failed, temporary',
      counts.failed_temporary,
      `${number(counts.retrying)} will be tried again, ${number(gaveUp)} gave up (retry queues them again)`,
    ],
    ['failed, permanent', counts.failed_permanent, 'the provider said the address or number cannot be reached'],
    ['skipped', counts.skipped, 'left, opted out, replied STOP or deleted their details after it was created'],
    ['unknown', counts.unknown, 'a sender stopped while sending them: not sent again unless you say --resend-unknown'],
  ];
  const width = Math.max(...rows.map(([, value]) => number(value).length));
  return rows.map(([label, value, meaning]) => `  ${label.padEnd(18)} ${number(value).padStart(width)}  ${meaning}`);
}

/** What came back about a channel's messages, as status prints it under the counts. */
export function healthLines(channel: Channel, health: BroadcastHealth): string[] {
  if (health.messages === 0) return [];
  if (channel === 'sms')
    return [
      `  came back: delivered ${number(health.delivered)}, cannot get texts ${number(health.undeliverable)}, not delivered for now ${number(health.softBounced)}; turned texts off during the send ${number(health.unsubscribed)}`,
    ];
  return [
    `  came back: delivered ${number(health.delivered)}, bounced ${number(health.hardBounced)} (${percent(health.bounceRate)}) and ${number(health.softBounced)} for now, reported as spam ${number(health.complained)} (${percent(health.complaintRate)}); unsubscribed during the send ${number(health.unsubscribed)}`,
    // Ours to fix, never the person's: receiving servers say our SPF, DKIM or DMARC failed.
    ...(health.authFailures.length > 0
      ? [
          `  our email failed receiving servers' checks: ${health.authFailures
            .map(
              (failure) =>
                `${failure.mechanism.toUpperCase()}${failure.domain ? ` for ${failure.domain}` : ''} (${plural(failure.reports, 'report')})`,
            )
            .join(
              ', ',
            )}. Fix the SPF, DKIM and DMARC records of your sending domain (docs/messaging.md); nobody is held to blame for it.`,
        ]
      : []),
  ];
}
