// `broadcast -- status NAME`: queued, sent, failed, skipped and unknown, per channel.
import { done, healthLines, pauseLines, statusLines } from '../broadcast-progress-line.js';
import { number } from '../../shared/plain-numbers.js';
import { type Context } from './command-support.js';

export async function status(context: Context, name: string): Promise<number> {
  const { control } = context;
  const broadcast = await control.get(name);
  const { out } = context.output;
  out.write(
    `Broadcast "${broadcast.name}": ${broadcast.template}, ${broadcast.state}, created ${broadcast.createdAt}.\n`,
  );
  const pauses = await control.pauses(broadcast);
  for (const line of pauseLines(pauses)) out.write(`${line}\n`);
  if (pauses.length > 0) out.write(`When it is put right: sudo scamsavvy broadcast resume ${name}\n`);
  else if (broadcast.state === 'paused')
    out.write(`Paused by you. Go on with: sudo scamsavvy broadcast resume ${name}\n`);
  for (const channel of broadcast.channels) {
    const counts = await control.counts(broadcast, channel);
    out.write(
      `${channel === 'email' ? 'Email' : 'Text messages'}: ${number(counts.total)} in all, ${number(done(counts))} done\n`,
    );
    for (const line of statusLines(counts)) out.write(`${line}\n`);
    const health = await control.health(broadcast, channel);
    for (const line of health ? healthLines(channel, health) : []) out.write(`${line}\n`);
  }
  const { senders, sentLastMinute, waitingTexts } = await control.activity(broadcast);
  out.write(`Senders running: ${senders}. Sent in the last minute: ${number(sentLastMinute)}.\n`);
  if (waitingTexts) out.write(`${waitingTexts}\n`);
  const refused = await control.refusedForOurSending(broadcast);
  if (refused.length > 0)
    out.write(
      `Refused for our sending (a block list, our reputation or volume; nobody suppressed, tried again): ${refused
        .slice(0, 5)
        .map(({ domain, count }) => `${domain} ${number(count)}`)
        .join(', ')}${refused.length > 5 ? ', …' : ''}\n`,
    );
  const held = await control.failed.held(broadcast);
  if (held.length > 0) {
    out.write(`Held: ${number(held.length)} (each paused the channel twice; everyone else went on):\n`);
    for (const message of held.slice(0, 50))
      out.write(`  ${message.channel === 'email' ? 'Email' : 'Text'} to ${message.person}: ${message.answer}\n`);
    if (held.length > 50) out.write(`  … and ${number(held.length - 50)} more.\n`);
    out.write(`Once what held them is fixed: sudo scamsavvy broadcast retry ${name} --held\n`);
  }
  const plan = await control.failed.plan(broadcast);
  if (plan.retryable > 0)
    out.write(
      `${number(plan.retryable)} failed by no fault of the person's and can go again: sudo scamsavvy broadcast retry ${name}\n`,
    );
  return 0;
}
