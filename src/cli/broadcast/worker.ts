// `broadcast -- worker NAME`: a sender process started by send --workers N; sends, then tells its
// parent how it went.
import { ratesOf, type Context, type Values } from './command-support.js';

export async function worker(context: Context, name: string, values: Values): Promise<number> {
  const broadcast = await context.control.get(name);
  const rates = ratesOf(values);
  const sender = context.control.startSender(broadcast, { rates });
  const stop = () => sender.stop();
  process.once('SIGINT', stop).once('SIGTERM', stop);
  const report = await sender.done;
  const memory = { peakRssBytes: process.resourceUsage().maxRSS * 1024 };
  if (process.send) process.send({ ...report, ...memory });
  else context.output.out.write(`${JSON.stringify({ ...report, ...memory })}\n`);
  return 0;
}
