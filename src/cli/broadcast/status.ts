// `broadcast -- status NAME`: queued, sent, failed, skipped and unknown, per channel.
import { done, statusLines } from '../broadcast-progress.js';
import { number, type Context } from './command-support.js';

export async function status(context: Context, name: string): Promise<number> {
  const { control } = context;
  const broadcast = await control.get(name);
  const { out } = context.output;
  out.write(
    `Broadcast "${broadcast.name}": ${broadcast.template}, ${broadcast.state}, created ${broadcast.createdAt}.\n`,
  );
  for (const channel of broadcast.channels) {
    const counts = await control.counts(broadcast, channel);
    out.write(
      `${channel === 'email' ? 'Email' : 'Text messages'}: ${number(counts.total)} in all, ${number(done(counts))} done\n`,
    );
    for (const line of statusLines(counts)) out.write(`${line}\n`);
  }
  const { senders, sentLastMinute } = await control.activity(broadcast);
  out.write(`Senders running: ${senders}. Sent in the last minute: ${number(sentLastMinute)}.\n`);
  return 0;
}
