// `broadcast -- pause NAME`: senders stop after the messages they are sending now.
import type { Context } from './command-support.js';

export async function pause(context: Context, name: string): Promise<number> {
  const broadcast = await context.control.get(name);
  if (!(await context.control.pause(broadcast))) {
    context.output.out.write(`"${name}" is ${broadcast.state}: there is nothing to pause.\n`);
    return broadcast.state === 'paused' ? 0 : 1;
  }
  context.output.out.write(
    `Paused "${name}". Its senders stop after the messages they are sending now (a few seconds).\nGo on later with: sudo scamsavvy broadcast resume ${name}\n`,
  );
  return 0;
}
