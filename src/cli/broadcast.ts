// `sudo scamsavvy broadcast COMMAND`: launch day from the owner's terminal (docs/launch-day.md). Reads
// the arguments and runs the command's file in broadcast/; the rules are BroadcastControl's.
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.js';
import { createBroadcastControl } from '../server/compose.js';
import { BroadcastError } from '../server/broadcast/broadcast-error.js';
import { SenderBusyError } from '../server/db/broadcast-senders-repository.js';
import { UsageError, type Context, type Output } from './broadcast/command-support.js';
import { create } from './broadcast/create.js';
import { list } from './broadcast/list.js';
import { pause } from './broadcast/pause.js';
import { preview } from './broadcast/preview.js';
import { retry } from './broadcast/retry.js';
import { send } from './broadcast/send.js';
import { status } from './broadcast/status.js';
import { test } from './broadcast/test.js';
import { topUp } from './broadcast/top-up.js';
import { worker } from './broadcast/worker.js';
import { CliError, isEntryPoint, ON_YOUR_COMPUTER, openStoreForCli, runCli, TERMINAL } from './cli-support.js';

const usage = `Usage: sudo scamsavvy broadcast COMMAND [options]

Launch day: tell everyone on the list once (docs/launch-day.md). Reads the database DATABASE_URL names
and sends through SMTP_URL and TWILIO_* like the server.

  create --name NAME --template launch|beta [--segment all|beta] [--channels email,sms] [--confirmed-only | --include-unconfirmed]
      Takes the recipients now and says how many get what, and why the others do not.
  preview NAME [--out FILE]      The email as text, an HTML file to open, and the text message: in English,
      then in Spanish (each person gets the one in their language; Spanish HTML in FILE-es.html).
  test NAME --to EMAIL|PHONE [--language en|es]
      Sends one real message to you ("[Test]" in the subject), in English unless --language es.
  send NAME [--workers N] [--rate PER_SECOND] [--sms-rate PER_SECOND] [--resend-unknown] [--after-restore] [--not-ready]
      Sends, N sender processes at once (PostgreSQL only), at most PER_SECOND emails a second in all
      (BROADCAST_EMAIL_RATE) and texts (BROADCAST_SMS_RATE). Safe to run again after a crash: it goes on
      where it stopped, and sends nobody anything twice. It refuses while a launch check is red (sudo
      scamsavvy ready), naming it, unless --not-ready says to go anyway (recorded in the audit log).
      After a restore that could not read the database it replaced, it refuses until you import your
      providers' suppression lists (sudo scamsavvy suppressions import FILE) or say with
      --after-restore that nothing was missed. Texts wait for daytime where their people are: it
      returns once everything else is done, and the server sends them when their hours come.
  status NAME      Queued, sent, failed, skipped and unknown; held messages by person, with the answer.
  pause NAME       Senders stop after the messages they are sending now.
  resume NAME [send's options] [--despite-health] [--after-restore]
      Goes on with a paused broadcast (paused by you, or by a failure of ours: status says why). A
      broadcast that paused itself for its bounce or complaint rates goes on only with --despite-health.
  retry NAME [--held] [--include-undeliverable [--yes]]
      Queues again the messages that failed by no fault of the person's: given up during an outage, or
      refused because of our own settings. With --held, also the held ones (each paused the channel
      twice), once what held them is fixed. With --include-undeliverable (asked once more, or --yes),
      also those whose address or number the provider said cannot be reached.
  top-up NAME      Adds people who signed up since it was created.
  list             Every broadcast.
${ON_YOUR_COMPUTER}`;

export async function main(argv: string[], output: Output = TERMINAL): Promise<number> {
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
        'confirmed-only': { type: 'boolean' },
        out: { type: 'string' },
        to: { type: 'string' },
        language: { type: 'string' },
        workers: { type: 'string' },
        rate: { type: 'string' },
        'sms-rate': { type: 'string' },
        'resend-unknown': { type: 'boolean' },
        'include-undeliverable': { type: 'boolean' },
        held: { type: 'boolean' },
        'despite-health': { type: 'boolean' },
        'after-restore': { type: 'boolean' },
        'not-ready': { type: 'boolean' },
        yes: { type: 'boolean' },
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
  const needsName = ['preview', 'test', 'send', 'status', 'pause', 'resume', 'retry', 'top-up', 'worker'];
  const known = ['create', 'list', ...needsName];
  if (!known.includes(command)) {
    output.err.write(`There is no command "${command}".\n\n${usage}\n`);
    return 2;
  }
  if (needsName.includes(command) && !name) {
    output.err.write(`${command} needs the broadcast's name: sudo scamsavvy broadcast ${command} NAME\n`);
    return 2;
  }
  if (extra.length > 0 || (!needsName.includes(command) && name)) {
    output.err.write(
      `Unexpected: ${[...(needsName.includes(command) ? [] : [name]), ...extra].join(' ')}\n\n${usage}\n`,
    );
    return 2;
  }
  const config = loadConfig();
  const { store: db } = await openStoreForCli();
  try {
    const context: Context = {
      config,
      control: createBroadcastControl(config, db),
      output,
      audit: (entry) =>
        db.owners.audit({ ownerEmail: 'the command line (sudo scamsavvy broadcast)', action: 'broadcast', ...entry }),
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
      case 'retry':
        return await retry(context, target, values);
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
    // SenderBusyError: the outbox's one sender slot on SQLite was taken (broadcast-rules.ts).
    if (error instanceof BroadcastError || error instanceof CliError || error instanceof SenderBusyError) {
      output.err.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli(main);
