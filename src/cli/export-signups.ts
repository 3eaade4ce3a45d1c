// `sudo scamsavvy signups:export [--format csv|json] [--since DATE] [--beta-only] [--out FILE]`: sign-ups, for the owner.
import { createWriteStream, type WriteStream } from 'node:fs';
import {
  exportColumns,
  exportFormats,
  exportSignups,
  standingColumns,
  type ExportFormat,
} from '../server/signups/signup-export.js';
import {
  fileProblem,
  isEntryPoint,
  openStoreForCli,
  ownerPath,
  parseSince,
  readFlags,
  runCli,
  TERMINAL,
  type Output,
} from './cli-support.js';
import { loadConfig } from '../server/config.js';
import { createMessagingCore } from '../server/compose-messaging.js';
import { launchStanding } from '../server/consent/launch-standing.js';

/** The columns, as the export writes them: the one list in signup-export.ts, in its order, a few to a line. */
const columns = [...exportColumns, ...standingColumns]
  .map((column, index, all) => `${column}${index < all.length - 1 ? ',' : '.'}`)
  .reduce<string[]>((lines, column) => {
    const last = lines.at(-1);
    if (last !== undefined && last.length + column.length < 96) lines[lines.length - 1] = `${last} ${column}`;
    else lines.push(`    ${column}`);
    return lines;
  }, [])
  .join('\n');

const usage = `Usage: sudo scamsavvy signups:export [--format csv|json] [--since DATE] [--beta-only] [--out FILE]

Writes sign-ups, one record per person, with where they came from, in these columns:
${columns}
The last two say "yes" when the launch message will reach the person by email or by text, else
why not (left, opted_out, stopped, suppressed, undeliverable, not_confirmed, texts_not_confirmed),
by the rule the senders use (blank without SECRET_KEY). Reads the database DATABASE_URL names.
  --format csv|json   CSV (the default: RFC 4180, header row, safe to open in a spreadsheet) or a JSON array
  --since DATE        only sign-ups first made on or after DATE (2026-11-01, or a full ISO time)
  --beta-only         only people who asked to beta test
  --out FILE          write to FILE instead of standard output`;

export async function main(argv: string[], output: Output = TERMINAL): Promise<number> {
  const flags = readFlags(
    argv,
    {
      format: { type: 'string' },
      since: { type: 'string' },
      'beta-only': { type: 'boolean' },
      out: { type: 'string' },
    },
    usage,
    output,
  );
  if ('exitCode' in flags) return flags.exitCode;
  const { values } = flags;
  const format = (values.format ?? 'csv') as ExportFormat;
  if (!exportFormats.includes(format)) {
    output.err.write(`--format must be csv or json.\n\n${usage}\n`);
    return 2;
  }
  const filter = {
    ...(values.since ? { since: parseSince(values.since) } : {}),
    betaOnly: values['beta-only'] === true,
  };

  const file = values.out ? ownerPath(values.out) : undefined;
  const { store } = await openStoreForCli();
  // Where each stands for the launch, by the senders' own rule (it needs SECRET_KEY to read the "no"s kept by address).
  const { messaging } = loadConfig();
  const standing = messaging?.secretKey
    ? launchStanding(createMessagingCore(messaging, store).subscriptions, store.broadcastRecipients)
    : undefined;
  if (!standing) output.err.write('launchEmail and launchText are blank: SECRET_KEY is not set.\n');
  try {
    // The file is opened before a row is read: a path that cannot be written is said at once.
    const out = file ? await openForWriting(file) : process.stdout;
    const count = await exportSignups(store.signups, format, out, filter, standing);
    if (file) {
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(fileProblem(error, file, 'write')) : resolve())),
      );
    }
    output.err.write(`Exported ${count} sign-up${count === 1 ? '' : 's'}${file ? ` to ${file}` : ''}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** A file stream once the file is open, or the reason it cannot be, in words. */
function openForWriting(file: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const stream = createWriteStream(file);
    stream.once('open', () => resolve(stream));
    stream.once('error', (error) => reject(fileProblem(error, file, 'write')));
  });
}

if (isEntryPoint(import.meta.url)) runCli(main);
