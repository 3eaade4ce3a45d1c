// `npm run broadcast -- COMMAND`: launch day from the owner's terminal (docs/launch-day.md).
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../server/config.js';
import { smsSegments } from '../server/consent/sms-segments.js';
import { BroadcastError, Broadcasts, transportsFrom, type AudienceReport } from '../server/broadcast/broadcasts.js';
import type { SenderReport } from '../server/broadcast/broadcast-sender.js';
import { EXCLUSION_WORDS, EXCLUSIONS } from '../server/broadcast/eligibility.js';
import { SenderBusyError, type Broadcast, type OutboxRepository } from '../server/db/outbox-repository.js';
import type { Db } from '../server/db/open-database.js';
import { done, progressLine, statusLines } from './broadcast-progress.js';
import { CliError, isEntryPoint, openStoreForCli, runCli } from './cli-support.js';

const usage = `Usage: npm run --silent broadcast -- COMMAND [options]

Launch day: tell everyone on the list once (docs/launch-day.md). Reads the database DATABASE_URL names
and sends through SMTP_URL and TWILIO_* like the server.

  create --name NAME --template launch|beta [--segment all|beta] [--channels email,sms] [--include-unconfirmed]
      Takes the recipients now and says how many get what, and why the others do not.
  preview NAME [--out FILE]      The email as text, an HTML file to open, and the text message.
  test NAME --to EMAIL|PHONE     Sends one real message to you ("[Test]" in the subject).
  send NAME [--workers N] [--rate PER_SECOND] [--sms-rate PER_SECOND] [--resend-unknown]
      Sends, N sender processes at once (PostgreSQL only), at most PER_SECOND emails a second in all
      (BROADCAST_EMAIL_RATE) and texts (BROADCAST_SMS_RATE). Safe to run again after a crash: it goes on
      where it stopped, and sends nobody anything twice.
  status NAME      Queued, sent, failed, skipped and unknown.
  pause NAME       Senders stop after the messages they are sending now.
  resume NAME [send's options]    Goes on with a paused broadcast.
  top-up NAME      Adds people who signed up since it was created.
  list             Every broadcast.`;

export interface Output {
  out: { write(text: string): unknown; isTTY?: boolean };
  err: { write(text: string): unknown };
}

const number = (value: number) => value.toLocaleString('en-US');
const plural = (count: number, one: string, many = `${one}s`) => `${number(count)} ${count === 1 ? one : many}`;

interface Context {
  config: Config;
  signups: Db;
  store: OutboxRepository;
  broadcasts: Broadcasts;
  where: string;
  output: Output;
}

function describeReport(report: AudienceReport, broadcast: Broadcast, topUp: boolean): string[] {
  const lines = [`${plural(report.people, 'person', 'people')} on the list.`];
  for (const channel of broadcast.channels) {
    const tally = report.channels[channel];
    if (!tally) continue;
    const what = channel === 'email' ? 'the email' : 'the text message';
    lines.push(
      topUp
        ? `${plural(tally.added, 'more person', 'more people')} will get ${what} (${number(tally.recipients)} in all).`
        : `${plural(tally.recipients, 'person', 'people')} will get ${what}.`,
    );
    for (const why of EXCLUSIONS) {
      const count = tally.excluded[why];
      if (count > 0) lines.push(`  not ${number(count)}: ${EXCLUSION_WORDS[why]}`);
    }
  }
  return lines;
}

async function create(context: Context, values: Record<string, string | boolean | undefined>): Promise<number> {
  const name = typeof values.name === 'string' ? values.name : undefined;
  const template = typeof values.template === 'string' ? values.template : undefined;
  if (!name || !template) throw new UsageError('create needs --name NAME and --template launch|beta.');
  const channels =
    typeof values.channels === 'string' ? values.channels.split(',').map((part) => part.trim()) : undefined;
  const { broadcast, report } = await context.broadcasts.create({
    name,
    template,
    ...(typeof values.segment === 'string' ? { segment: values.segment } : {}),
    ...(channels ? { channels } : {}),
    includeUnconfirmed: values['include-unconfirmed'] === true,
  });
  const { out } = context.output;
  out.write(
    `Created the broadcast "${broadcast.name}" (${broadcast.template}, ${broadcast.segment === 'beta' ? 'beta testers' : 'everyone'}, ${broadcast.channels.join(' and ')}).\n`,
  );
  if (!broadcast.includeUnconfirmed)
    out.write('Only people who confirmed their email are in it (--include-unconfirmed adds the others).\n');
  for (const line of describeReport(report, broadcast, false)) out.write(`${line}\n`);
  out.write(`\nNext: npm run broadcast -- preview ${broadcast.name}\n`);
  return 0;
}

async function preview(
  context: Context,
  name: string,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const broadcast = await context.broadcasts.get(name);
  const message = context.broadcasts.preview(broadcast);
  const file = path.resolve(typeof values.out === 'string' ? values.out : `broadcast-${broadcast.name}.html`);
  writeFileSync(file, message.html);
  const segments = smsSegments(message.sms);
  const { out } = context.output;
  out.write(`Subject: ${message.subject}\n\n${message.text}\n`);
  out.write(`The HTML part is in ${file}: open it in a browser.\n`);
  out.write(`(The links name nobody: in the real message they are each person's own.)\n\n`);
  out.write(
    `Text message (${message.sms.length} characters, ${plural(segments.segments, 'SMS segment')}, ${segments.encoding}):\n${message.sms}\n`,
  );
  return 0;
}

async function test(
  context: Context,
  name: string,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const to = typeof values.to === 'string' ? values.to.trim() : '';
  if (!to) throw new UsageError('test needs --to EMAIL or --to PHONE.');
  const broadcast = await context.broadcasts.get(name);
  const transports = transportsFrom(context.config, { connections: 1 });
  try {
    const id = await context.broadcasts.test(broadcast, to, transports);
    context.output.out.write(`Sent one test ${to.includes('@') ? 'email' : 'text message'} to ${to} (${id}).\n`);
    return 0;
  } finally {
    transports.email?.close();
  }
}

async function status(context: Context, name: string): Promise<number> {
  const broadcast = await context.broadcasts.get(name);
  const { out } = context.output;
  out.write(
    `Broadcast "${broadcast.name}": ${broadcast.template}, ${broadcast.state}, created ${broadcast.createdAt}.\n`,
  );
  for (const channel of broadcast.channels) {
    const counts = await context.store.counts(broadcast.id, channel);
    out.write(
      `${channel === 'email' ? 'Email' : 'Text messages'}: ${number(counts.total)} in all, ${number(done(counts))} done\n`,
    );
    for (const line of statusLines(counts)) out.write(`${line}\n`);
  }
  const senders = await context.store.liveSenders(broadcast.id);
  const lastMinute = await context.store.sentSince(broadcast.id, new Date(Date.now() - 60_000));
  out.write(`Senders running: ${senders.length}. Sent in the last minute: ${number(lastMinute)}.\n`);
  return 0;
}

async function list(context: Context): Promise<number> {
  const all = await context.store.list();
  const { out } = context.output;
  if (all.length === 0) {
    out.write('No broadcasts yet. Create one: npm run broadcast -- create --name launch --template launch\n');
    return 0;
  }
  for (const broadcast of all) {
    const counts = await context.store.counts(broadcast.id);
    out.write(
      `${broadcast.name.padEnd(20)} ${broadcast.template.padEnd(7)} ${broadcast.state.padEnd(9)} ${number(counts.sent).padStart(9)} sent of ${number(counts.total)}  created ${broadcast.createdAt.slice(0, 16).replace('T', ' ')}\n`,
    );
  }
  return 0;
}

async function pause(context: Context, name: string): Promise<number> {
  const broadcast = await context.broadcasts.get(name);
  if (!(await context.store.setState(broadcast.id, 'paused', ['ready', 'sending']))) {
    context.output.out.write(`"${name}" is ${broadcast.state}: there is nothing to pause.\n`);
    return broadcast.state === 'paused' ? 0 : 1;
  }
  context.output.out.write(
    `Paused "${name}". Its senders stop after the messages they are sending now (a few seconds).\nGo on later with: npm run broadcast -- resume ${name}\n`,
  );
  return 0;
}

async function topUp(context: Context, name: string): Promise<number> {
  const { broadcast, report } = await context.broadcasts.topUp(name);
  for (const line of describeReport(report, broadcast, true)) context.output.out.write(`${line}\n`);
  const added = Object.values(report.channels).reduce((sum, channel) => sum + channel.added, 0);
  if (added > 0) context.output.out.write(`Send them with: npm run broadcast -- send ${name}\n`);
  return 0;
}

class UsageError extends Error {}

function positiveNumber(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new UsageError(`${flag} must be a number above 0, not "${String(value)}".`);
  return parsed;
}

/** Watches the outbox and draws the progress line until `until` settles. */
async function watch(context: Context, broadcast: Broadcast, until: Promise<unknown>): Promise<void> {
  const { out } = context.output;
  const tty = Boolean(out.isTTY);
  const samples: { at: number; sent: number }[] = [];
  let settled = false;
  void until.finally(() => {
    settled = true;
  });
  let lastPrinted = 0;
  const draw = async (final: boolean) => {
    const counts = await context.store.counts(broadcast.id);
    const now = Date.now();
    samples.push({ at: now, sent: done(counts) });
    while (samples.length > 2 && now - (samples[0]?.at ?? now) > 10_000) samples.shift();
    const first = samples[0];
    const perSecond = first && now > first.at ? ((done(counts) - first.sent) * 1000) / (now - first.at) : 0;
    const line = progressLine(counts, perSecond);
    if (tty) out.write(`\r${line}\u001b[K${final ? '\n' : ''}`);
    else if (final || now - lastPrinted >= 10_000) {
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

function describeEnd(report: Pick<SenderReport, 'ended'>, name: string): string {
  switch (report.ended) {
    case 'finished':
      return `Finished: nothing is left to send. See npm run broadcast -- status ${name}`;
    case 'paused':
      return `Paused. Go on with: npm run broadcast -- resume ${name}`;
    case 'stopped':
      return `Stopped. Run the same command again to go on where it stopped.`;
    case 'waiting':
      return `This sender is done; others are still sending, or some channel has no sender here.`;
  }
}

async function send(
  context: Context,
  name: string,
  values: Record<string, string | boolean | undefined>,
  resume: boolean,
): Promise<number> {
  const { out } = context.output;
  const workers = positiveNumber(values.workers, '--workers') ?? 1;
  if (!Number.isInteger(workers) || workers > 32)
    throw new UsageError('--workers must be a whole number from 1 to 32.');
  const rate = positiveNumber(values.rate, '--rate');
  const smsRate = positiveNumber(values['sms-rate'], '--sms-rate');
  if (context.store.engine === 'sqlite' && workers > 1)
    throw new CliError('SQLite allows one sender at a time: use --workers 1, or PostgreSQL (DATABASE_URL) for more.');
  let broadcast = await context.broadcasts.get(name);
  const missing = broadcast.channels.filter((channel) => !context.broadcasts.configuredChannels().includes(channel));
  if (missing.length > 0)
    throw new CliError(`"${name}" sends ${missing.join(' and ')}, which is not set up here (docs/messaging.md).`);
  if (broadcast.state === 'paused' && !resume)
    throw new CliError(`"${name}" is paused. Go on with: npm run broadcast -- resume ${name}`);
  if (values['resend-unknown'] === true) {
    const requeued = await context.store.requeueUnknown(broadcast.id);
    out.write(`${plural(requeued, 'message')} whose fate was unknown will be sent again.\n`);
    if (requeued > 0) await context.store.setState(broadcast.id, 'ready', ['finished']);
  }
  if (resume && !(await context.store.setState(broadcast.id, 'sending', ['paused'])) && broadcast.state !== 'sending')
    out.write(`"${name}" was not paused (it is ${broadcast.state}).\n`);
  await context.store.setState(broadcast.id, 'sending', ['ready']);
  broadcast = await context.broadcasts.get(name);
  if (broadcast.state === 'finished') {
    out.write(`"${name}" has finished: nothing is left to send.\n`);
    await status(context, name);
    return 0;
  }
  const rates = { ...(rate ? { email: rate } : {}), ...(smsRate ? { sms: smsRate } : {}) };
  out.write(
    `Sending "${name}" with ${plural(workers, 'sender')}, at most ${number(rates.email ?? context.config.broadcast.emailRate)} emails and ${number(rates.sms ?? context.config.broadcast.smsRate)} texts a second. Ctrl-C stops safely; run it again to go on.\n`,
  );
  if (workers === 1) {
    const transports = transportsFrom(context.config);
    const sender = context.broadcasts.sender(broadcast, transports, { rates });
    const stop = () => sender.stop();
    process.once('SIGINT', stop).once('SIGTERM', stop);
    try {
      const running = sender.run(broadcast);
      await watch(context, broadcast, running);
      const report = await running;
      out.write(`${describeEnd(report, name)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof SenderBusyError) throw new CliError(error.message);
      throw error;
    } finally {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      transports.email?.close();
    }
  }
  const script = process.argv[1];
  if (!script) throw new CliError("Cannot find this command's own file to start the senders.");
  const args = [
    'worker',
    name,
    ...(rate ? ['--rate', String(rate)] : []),
    ...(smsRate ? ['--sms-rate', String(smsRate)] : []),
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
  const finished = (await context.store.state(broadcast.id)) === 'finished';
  const paused = results.some((result) => result.report?.ended === 'paused');
  out.write(`${describeEnd({ ended: finished ? 'finished' : paused ? 'paused' : 'stopped' }, name)}\n`);
  return results.every((result) => result.code === 0) ? 0 : 1;
}

/** A sender process started by send --workers N: sends, then tells its parent how it went. */
async function worker(
  context: Context,
  name: string,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const broadcast = await context.broadcasts.get(name);
  const rate = positiveNumber(values.rate, '--rate');
  const smsRate = positiveNumber(values['sms-rate'], '--sms-rate');
  const transports = transportsFrom(context.config);
  const sender = context.broadcasts.sender(broadcast, transports, {
    rates: { ...(rate ? { email: rate } : {}), ...(smsRate ? { sms: smsRate } : {}) },
  });
  const stop = () => sender.stop();
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    const report = await sender.run(broadcast);
    const memory = { peakRssBytes: process.resourceUsage().maxRSS * 1024 };
    if (process.send) process.send({ ...report, ...memory });
    else context.output.out.write(`${JSON.stringify({ ...report, ...memory })}\n`);
    return 0;
  } catch (error) {
    if (error instanceof SenderBusyError) throw new CliError(error.message);
    throw error;
  } finally {
    transports.email?.close();
  }
}

export async function main(
  argv: string[],
  output: Output = { out: process.stdout, err: process.stderr },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        template: { type: 'string' },
        segment: { type: 'string' },
        channels: { type: 'string' },
        'include-unconfirmed': { type: 'boolean' },
        out: { type: 'string' },
        to: { type: 'string' },
        workers: { type: 'string' },
        rate: { type: 'string' },
        'sms-rate': { type: 'string' },
        'resend-unknown': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (error) {
    output.err.write(`${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, name, ...extra] = positionals;
  if (values.help || !command) {
    (command ? output.out : output.err).write(`${usage}\n`);
    return values.help ? 0 : 2;
  }
  const needsName = ['preview', 'test', 'send', 'status', 'pause', 'resume', 'top-up', 'worker'];
  const known = ['create', 'list', ...needsName];
  if (!known.includes(command)) {
    output.err.write(`There is no command "${command}".\n\n${usage}\n`);
    return 2;
  }
  if (needsName.includes(command) && !name) {
    output.err.write(`${command} needs the broadcast's name: npm run broadcast -- ${command} NAME\n`);
    return 2;
  }
  if (extra.length > 0 || (!needsName.includes(command) && name)) {
    output.err.write(
      `Unexpected: ${[...(needsName.includes(command) ? [] : [name]), ...extra].join(' ')}\n\n${usage}\n`,
    );
    return 2;
  }
  const config = loadConfig();
  const { store: signups, where } = await openStoreForCli();
  try {
    const context: Context = {
      config,
      signups,
      store: signups.outbox,
      broadcasts: new Broadcasts(config, signups.outbox, signups),
      where,
      output,
    };
    const target = name as string;
    switch (command) {
      case 'create':
        return await create(context, values);
      case 'preview':
        return await preview(context, target, values);
      case 'test':
        return await test(context, target, values);
      case 'send':
        return await send(context, target, values, false);
      case 'resume':
        return await send(context, target, values, true);
      case 'status':
        return await status(context, target);
      case 'pause':
        return await pause(context, target);
      case 'top-up':
        return await topUp(context, target);
      case 'worker':
        return await worker(context, target, values);
      default:
        return await list(context);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      output.err.write(`${error.message}\n\n${usage}\n`);
      return 2;
    }
    if (error instanceof BroadcastError || error instanceof CliError) {
      output.err.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await signups.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli(main);
