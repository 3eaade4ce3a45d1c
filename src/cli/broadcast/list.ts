// `broadcast -- list`: every broadcast, one line each.
import { number } from '../../shared/plain-numbers.js';
import { type Context } from './command-support.js';

export async function list(context: Context): Promise<number> {
  const all = await context.control.list();
  const { out } = context.output;
  if (all.length === 0) {
    out.write('No broadcasts yet. Create one: sudo scamsavvy broadcast create --name launch --template launch\n');
    return 0;
  }
  const pauses = await context.control.pausesOf(all);
  for (const broadcast of all) {
    const counts = await context.control.counts(broadcast);
    out.write(
      `${broadcast.name.padEnd(20)} ${broadcast.template.padEnd(7)} ${broadcast.state.padEnd(9)} ${number(counts.sent).padStart(9)} sent of ${number(counts.total)}  created ${broadcast.createdAt.slice(0, 16).replace('T', ' ')}\n`,
    );
    for (const pause of pauses.get(broadcast.id) ?? [])
      out.write(`${' '.repeat(21)}${pause.channel} paused: ${pause.reason}\n`);
  }
  return 0;
}
