// The progress line `send` draws while its senders work: redrawn each second on a terminal, every
// ten seconds into a log.
import type { Broadcast } from '../../server/db/broadcasts-repository.js';
import { done, pauseLines, progressLine } from '../broadcast-progress-line.js';
import type { Context } from './command-support.js';

/** Watches the outbox and draws the progress line until `until` settles. */
export async function watch(context: Context, broadcast: Broadcast, until: Promise<unknown>): Promise<void> {
  const { out } = context.output;
  const tty = Boolean(out.isTTY);
  const samples: { at: number; sent: number }[] = [];
  let settled = false;
  void until.finally(() => {
    settled = true;
  });
  let lastPrinted = 0;
  const announced = new Set<string>();
  const draw = async (final: boolean) => {
    const counts = await context.control.counts(broadcast);
    const pauses = await context.control.pauses(broadcast);
    // A channel paused by a failure of ours: its reason once, in full, above the line.
    const fresh = pauses.filter((pause) => !announced.has(`${pause.channel}${pause.pausedAt}`));
    for (const pause of fresh) announced.add(`${pause.channel}${pause.pausedAt}`);
    if (fresh.length > 0) out.write(`${tty ? '\r\u001b[K' : ''}${pauseLines(fresh).join('\n')}\n`);
    const now = Date.now();
    samples.push({ at: now, sent: done(counts) });
    while (samples.length > 2 && now - (samples[0]?.at ?? now) > 10_000) samples.shift();
    const first = samples[0];
    const perSecond = first && now > first.at ? ((done(counts) - first.sent) * 1000) / (now - first.at) : 0;
    const health = broadcast.channels.includes('email') ? await context.control.health(broadcast, 'email') : undefined;
    const line = progressLine(counts, perSecond, 24, pauses, health);
    if (tty) out.write(`\r${line}\u001b[K${final ? '\n' : ''}`);
    else if (final || fresh.length > 0 || now - lastPrinted >= 10_000) {
      out.write(`${line}\n`);
      lastPrinted = now;
    }
  };
  while (!settled) {
    await Promise.race([until, new Promise((resolve) => setTimeout(resolve, 1_000))]).catch(() => undefined);
    if (!settled) await draw(false).catch(() => undefined);
  }
  await draw(true);
}
