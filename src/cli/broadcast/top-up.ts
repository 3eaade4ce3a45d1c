// `broadcast -- top-up NAME`: adds people who signed up since it was created.
import { describeReport } from './audience-words.js';
import type { Context } from './command-support.js';

export async function topUp(context: Context, name: string): Promise<number> {
  const { broadcast, report } = await context.control.topUp(name);
  for (const line of describeReport(report, broadcast, true)) context.output.out.write(`${line}\n`);
  const added = Object.values(report.channels).reduce((sum, channel) => sum + channel.added, 0);
  if (added > 0) context.output.out.write(`Send them with: sudo scamsavvy broadcast send ${name}\n`);
  return 0;
}
