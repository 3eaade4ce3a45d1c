// `broadcast -- send NAME` and `resume NAME`: the rules are BroadcastControl's; this starts the
// senders (one here, or N processes running `worker`), draws the progress, and says how it ended.
import { fork, type ChildProcess } from 'node:child_process';
import type { Rates } from '../../server/broadcast/start-rules.js';
import { MOST_WORKERS } from '../../server/broadcast/broadcast-rules.js';
import { waitingTextsLine } from '../../server/broadcast/broadcast-progress.js';
import type { SenderReport } from '../../server/broadcast/broadcast-sender-options.js';
import type { Broadcast } from '../../server/db/broadcasts-repository.js';
import type { ChannelPause } from '../../server/db/broadcast-pauses-repository.js';
import { pauseLines } from '../broadcast-progress-line.js';
import { CliError } from '../cli-support.js';
import { number, plural } from '../../shared/plain-numbers.js';
import { positiveNumber, ratesOf, UsageError, type Context, type Values } from './command-support.js';
import { status } from './status.js';
import { watch } from './watch.js';

function describeEnd(
  report: Pick<SenderReport, 'ended'> & { pauses?: ChannelPause[]; waitingTexts?: SenderReport['waitingTexts'] },
  name: string,
): string {
  switch (report.ended) {
    case 'finished':
      return `Finished: nothing is left to send. See sudo scamsavvy broadcast status ${name}`;
    case 'paused':
      if (report.pauses && report.pauses.length > 0)
        return `Paused, and nobody was marked failed for it:\n${pauseLines(report.pauses).join('\n')}\nWhen it is put right, go on with: sudo scamsavvy broadcast resume ${name}`;
      return `Paused. Go on with: sudo scamsavvy broadcast resume ${name}`;
    case 'stopped':
      return `Stopped. Run the same command again to go on where it stopped.`;
    case 'waiting':
      return `This sender is done; others are still sending, or some channel has no sender here.`;
    case 'texts-wait':
      return `Everything else is done. ${waitingTextsLine(report.waitingTexts ?? { count: 0, next: undefined }) ?? ''} See sudo scamsavvy broadcast status ${name}`;
  }
}

export async function send(context: Context, name: string, values: Values, resume: boolean): Promise<number> {
  const { out } = context.output;
  const workers = positiveNumber(values.workers, '--workers') ?? 1;
  if (!Number.isInteger(workers) || workers > MOST_WORKERS)
    throw new UsageError(`--workers must be a whole number from 1 to ${MOST_WORKERS}.`);
  const rates = ratesOf(values);
  const start = await context.control.startFromCommand(name, {
    workers,
    resume,
    resendUnknown: values['resend-unknown'] === true,
    despiteHealth: values['despite-health'] === true,
    afterRestore: values['after-restore'] === true,
    notReady: values['not-ready'] === true,
  });
  if (start.despiteRed) {
    const titles = start.despiteRed.map((one) => one.title).join('; ');
    out.write(`Sending although these launch checks are red (--not-ready, recorded in the audit log): ${titles}\n`);
    await context.audit({ subject: name, detail: `Sent although not ready: ${titles}` });
  }
  if (start.requeued !== undefined)
    out.write(`${plural(start.requeued, 'message')} whose fate was unknown will be sent again.\n`);
  if (start.notPaused) out.write(`"${name}" was not paused (it is ${start.notPaused}).\n`);
  for (const pause of start.resumed ?? [])
    out.write(`${pause.channel === 'email' ? 'Email' : 'Text messages'} goes on (it was paused: ${pause.reason})\n`);
  if (start.resumedInPlace) {
    out.write('The sender already running goes on with it. See: sudo scamsavvy broadcast status ' + name + '\n');
    return 0;
  }
  const { broadcast } = start;
  if (broadcast.state === 'finished') {
    out.write(`"${name}" has finished: nothing is left to send.\n`);
    await status(context, name);
    return 0;
  }
  out.write(
    `Sending "${name}" with ${plural(workers, 'sender')}, at most ${number(rates.email ?? context.config.broadcast.emailRate)} emails and ${number(rates.sms ?? context.config.broadcast.smsRate)} texts a second. Ctrl-C stops safely; run it again to go on.\n`,
  );
  return workers === 1 ? sendHere(context, broadcast, rates) : sendFromProcesses(context, broadcast, workers, rates);
}

/** One sender in this process. */
async function sendHere(context: Context, broadcast: Broadcast, rates: Rates): Promise<number> {
  const sender = context.control.startSender(broadcast, { rates });
  const stop = () => sender.stop();
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    await watch(context, broadcast, sender.done);
    const report = await sender.done;
    context.output.out.write(`${describeEnd(report, broadcast.name)}\n`);
    return 0;
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
  }
}

/** `workers` processes running this command's `worker`, each a sender; signals go on to them. */
async function sendFromProcesses(
  context: Context,
  broadcast: Broadcast,
  workers: number,
  rates: Rates,
): Promise<number> {
  const { name } = broadcast;
  const script = process.argv[1];
  if (!script) throw new CliError("Cannot find this command's own file to start the senders.");
  const args = [
    'worker',
    name,
    ...(rates.email ? ['--rate', String(rates.email)] : []),
    ...(rates.sms ? ['--sms-rate', String(rates.sms)] : []),
  ];
  const children: ChildProcess[] = Array.from({ length: workers }, () =>
    fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const forward = (signal: NodeJS.Signals) => () => {
    for (const child of children) child.kill(signal);
  };
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt).on('SIGTERM', onTerm);
  const ended = children.map(
    (child, index) =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; report?: SenderReport }>((resolve) => {
        let report: SenderReport | undefined;
        child.on('message', (message) => {
          report = message as SenderReport;
        });
        child.on('exit', (code, signal) => {
          if (code !== 0)
            context.output.err.write(
              `\nSender ${index + 1} (process ${child.pid}) stopped ${signal ? `by ${signal}` : `with exit code ${code}`}. The others go on; run send again to add one.\n`,
            );
          resolve({ code, signal, ...(report ? { report } : {}) });
        });
      }),
  );
  const all = Promise.all(ended);
  try {
    await watch(context, broadcast, all);
  } finally {
    process.off('SIGINT', onInt).off('SIGTERM', onTerm);
  }
  const results = await all;
  const finished = (await context.control.state(broadcast)) === 'finished';
  const paused = results.some((result) => result.report?.ended === 'paused');
  const pauses = await context.control.pauses(broadcast);
  context.output.out.write(
    `${describeEnd({ ended: finished ? 'finished' : paused ? 'paused' : 'stopped', pauses }, name)}\n`,
  );
  return results.every((result) => result.code === 0) ? 0 : 1;
}
