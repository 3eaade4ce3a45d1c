// `sudo scamsavvy signups:export --format csv|json [--since DATE] [--beta-only] [--out FILE]`: sign-ups, for the owner.
import { createWriteStream, type WriteStream } from 'node:fs';
import { exportFormats, exportSignups, type ExportFormat } from '../server/signups/signup-export.js';
import { fileProblem, openStoreForCli, ownerPath, parseSince, readFlags, runCli } from './cli-support.js';
import { loadConfig } from '../server/config.js';
import { createMessagingCore } from '../server/compose-messaging.js';
import { launchStanding } from '../server/consent/launch-standing.js';

const usage = `Usage: sudo scamsavvy signups:export --format csv|json [--since DATE] [--beta-only] [--out FILE]

Writes sign-ups, one record per person, with where they came from: id, name, phone, email,
betaTesting, timestamp, lastSeenAt, signupCount, utmSource, utmMedium, utmCampaign, utmTerm,
utmContent, referrer, landingPath, button, consentVersion, confirmedAt, emailOptOutAt, smsOptOutAt,
smsConfirmedAt, leftAt, referralCode, referredBy, language, and last launchEmail and launchText:
"yes" when the launch message will reach them that way, else why not (left, opted_out, stopped,
suppressed, undeliverable, not_confirmed, texts_not_confirmed), by the rule the senders use (blank
without SECRET_KEY). Reads the database DATABASE_URL names.
  --format csv|json   CSV (RFC 4180, header row, safe to open in a spreadsheet) or a JSON array
  --since DATE        only sign-ups first made on or after DATE (2026-11-01, or a full ISO time)
  --beta-only         only people who asked to beta test
  --out FILE          write to FILE instead of standard output`;

async function main(argv: string[]): Promise<number> {
  const flags = readFlags(
    argv,
    {
      format: { type: 'string' },
      since: { type: 'string' },
      'beta-only': { type: 'boolean' },
      out: { type: 'string' },
    },
    usage,
  );
  if ('exitCode' in flags) return flags.exitCode;
  const { values } = flags;
  const format = values.format as ExportFormat | undefined;
  if (!format || !exportFormats.includes(format)) {
    process.stderr.write(`--format must be csv or json.\n\n${usage}\n`);
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
  if (!standing) process.stderr.write('launchEmail and launchText are blank: SECRET_KEY is not set.\n');
  try {
    // The file is opened before a row is read: a path that cannot be written is said at once.
    const out = file ? await openForWriting(file) : process.stdout;
    const count = await exportSignups(store.signups, format, out, filter, standing);
    if (file) {
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(fileProblem(error, file, 'write')) : resolve())),
      );
    }
    process.stderr.write(`Exported ${count} sign-up${count === 1 ? '' : 's'}${file ? ` to ${file}` : ''}.\n`);
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

runCli(main);
