// `sudo scamsavvy suppressions list|lift [--reason R] [--since T] [--code C] [--yes]`: the suppression
// list, and a way back for the entries that were our fault (docs/messaging.md, "A way back";
// decision 037). Lifting asks once (or --yes), is written in the audit log, and `broadcast -- retry`
// then reaches those people. `import FILE [--reason R] [--yes]`: a provider's list added to ours
// (decision 041), the way back from a restore that could not read what it replaced.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../server/config.js';
import type { CountryCode } from 'libphonenumber-js';
import { compose } from '../server/compose.js';
import type { SuppressionReason } from '../server/db/suppressions.table.js';
import {
  describeFilter,
  LIFTABLE,
  NotLiftable,
  REASONS,
  WayBack,
  type SuppressedAddress,
  type SuppressionFilter,
} from '../server/suppressions/way-back.js';
import {
  countByReason,
  IMPORT_MAX_BYTES,
  IMPORT_REASONS,
  ImportError,
  importSuppressions,
  peopleNamed,
  readSuppressionFile,
} from '../server/suppressions/import-list.js';
import { plural } from '../shared/plain-numbers.js';
import {
  CliError,
  confirmedAtKeyboard,
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

const usage = `Usage: sudo scamsavvy suppressions list [--reason R] [--since T] [--code C]
       sudo scamsavvy suppressions lift [--reason R] [--since T] [--code C] [--yes]
       sudo scamsavvy suppressions import FILE [--reason R] [--yes]

list   The suppression list, newest first: whose address (masked), why, when, and the answer that
       caused it. Reasons: ${REASONS.join(', ')}.
lift   Lifts the entries that may have been our fault (${LIFTABLE.join(', ')}: a DMARC or block-list
       refusal read as the person's). Says how many, asks once (or --yes), writes it in the audit
       log and on each person's history. Then: sudo scamsavvy broadcast retry NAME reaches them.
       A STOP, a complaint, leaving and deleting are the person's own word: never lifted.
import FILE  Adds a provider's suppression list (or another tool's) to ours: a CSV or JSON of email
       addresses or phone numbers, each with a reason (a column named reason or type), or one
       --reason for the whole file (${IMPORT_REASONS.join(', ')}). A time column (created_at)
       is kept where it is a real time. Says what it read, asks once (or --yes). Nothing is imported
       unless every row reads. After a restore that could not read the database it replaced, this is
       what lets broadcast send and resume go on.
  --reason R   only this reason (import: the reason of every row in the file)
  --since T    only entries made since then (2026-11-25, or a full ISO time)
  --code C     only entries whose answer carried this code (5.7.26, 550, 30003)
  --yes        lift without asking (where nobody is at the keyboard)`;

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'import') return importFile(rest, { out, err });
  if (command !== 'list' && command !== 'lift') {
    err.write(`Unknown command "${command ?? ''}".\n\n${usage}\n`);
    return 2;
  }
  const flags = readFlags(
    rest,
    { reason: { type: 'string' }, since: { type: 'string' }, code: { type: 'string' }, yes: { type: 'boolean' } },
    usage,
    { out, err },
  );
  if ('exitCode' in flags) return flags.exitCode;
  const { values } = flags;
  if (values.reason !== undefined && !REASONS.includes(values.reason as SuppressionReason)) {
    err.write(`--reason must be one of ${REASONS.join(', ')}, not "${values.reason}".\n`);
    return 2;
  }
  let filter: SuppressionFilter;
  try {
    filter = {
      ...(values.reason ? { reason: values.reason as SuppressionReason } : {}),
      ...(values.since ? { since: parseSince(values.since) } : {}),
      ...(values.code ? { code: values.code.trim() } : {}),
    };
  } catch (error) {
    err.write(`${(error as Error).message}\n`);
    return 2;
  }
  const config = loadConfig();
  const { secretKey } = config.messaging;
  if (!secretKey) {
    err.write(
      'SECRET_KEY is not set: without it the suppression list cannot be read (its entries are keyed hashes).\n',
    );
    return 1;
  }
  const { store } = await openStoreForCli();
  try {
    const { subscriptions } = compose(config, store).messaging;
    const wayBack = new WayBack(store, subscriptions, store.outboxRefusals);
    if (command === 'list') {
      const listed = await wayBack.list(filter);
      if (listed.length === 0) out.write('Nothing on the suppression list matches.\n');
      for (const entry of listed) out.write(`${line(entry)}\n`);
      const liftable = listed.filter((entry) => entry.liftable).length;
      if (liftable > 0)
        out.write(
          `${plural(liftable, 'entry', 'entries')} may have been our fault and can be lifted: sudo scamsavvy suppressions lift …\n`,
        );
      return 0;
    }
    if (filter.reason && !LIFTABLE.includes(filter.reason)) throw new NotLiftable(filter.reason);
    const lifting = (await wayBack.list(filter)).filter((entry) => entry.liftable);
    if (lifting.length === 0) {
      out.write(`Nothing to lift: no entry (${describeFilter(filter)}) matches.\n`);
      return 0;
    }
    for (const entry of lifting.slice(0, 20)) out.write(`${line(entry)}\n`);
    if (lifting.length > 20) out.write(`… and ${lifting.length - 20} more.\n`);
    if (values.yes !== true) {
      const question = `Lift ${plural(lifting.length, 'suppression')} (${describeFilter(filter)}), so that these people can be sent to again? Type yes to go on: `;
      if (!(await confirmedAtKeyboard(question))) {
        err.write(
          process.stdin.isTTY
            ? 'Nothing was lifted.\n'
            : 'Nothing was lifted: say it once more with --yes where nobody is at the keyboard.\n',
        );
        return 1;
      }
    }
    const lifted = await wayBack.lift(filter, { ownerEmail: 'the command line (sudo scamsavvy suppressions)' });
    out.write(
      `Lifted ${plural(lifted.length, 'suppression')}. To reach them in a broadcast: sudo scamsavvy broadcast retry NAME\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof NotLiftable) && !(error instanceof CliError)) throw error;
    err.write(`${error.message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

/** `import FILE [--reason R] [--yes]`. */
async function importFile(args: string[], { out, err }: Output): Promise<number> {
  const [file, ...rest] = args;
  if (!file || file.startsWith('--')) {
    err.write(`Say which file to import: sudo scamsavvy suppressions import FILE\n\n${usage}\n`);
    return 2;
  }
  const flags = readFlags(rest, { reason: { type: 'string' }, yes: { type: 'boolean' } }, usage, { out, err });
  if ('exitCode' in flags) return flags.exitCode;
  const config = loadConfig();
  const { secretKey } = config.messaging;
  if (!secretKey) {
    err.write('SECRET_KEY is not set: the suppression list is keyed hashes, made with it.\n');
    return 1;
  }
  const where = ownerPath(file);
  let rows;
  try {
    const size = (await stat(where)).size;
    if (size > IMPORT_MAX_BYTES)
      throw new ImportError(
        `${where} is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB: split it, and import each part.`,
      );
    rows = readSuppressionFile(await readFile(where, 'utf8'), {
      ...(flags.values.reason !== undefined ? { reason: flags.values.reason } : {}),
      now: new Date(),
      country: (config.messaging.textHours?.defaultCountry ?? 'US') as CountryCode,
    });
  } catch (error) {
    const problem = fileProblem(error, where, 'read');
    if (problem instanceof CliError) {
      err.write(`${problem.message}\n`);
      return 1;
    }
    if (!(error instanceof ImportError)) throw error;
    err.write(`${error.message}\n`);
    return 1;
  }
  const { store } = await openStoreForCli();
  try {
    const { subscriptions } = compose(config, store).messaging;
    const counts = [...countByReason(rows)].map(([what, count]) => `${count.toLocaleString('en-US')} ${what}`);
    const people = await peopleNamed(rows, store);
    out.write(
      `${where}: ${plural(rows.length, 'row')} (${counts.join(', ')}); ${plural(people, 'person', 'people')} on the list among them.\n`,
    );
    if (flags.values.yes !== true) {
      const question = `Add them to the suppression list? A complaint, a STOP, a leaving or a deletion is never lifted by the owner. Type yes to go on: `;
      if (!(await confirmedAtKeyboard(question))) {
        err.write(
          process.stdin.isTTY
            ? 'Nothing was imported.\n'
            : 'Nothing was imported: say it once more with --yes where nobody is at the keyboard.\n',
        );
        return 1;
      }
    }
    const { added, settledRestores } = await importSuppressions(rows, store, subscriptions);
    await store.owners.audit({
      ownerEmail: 'the command line (sudo scamsavvy suppressions)',
      action: 'imported_suppressions',
      subject: `${plural(added, 'address', 'addresses')}`,
      detail: `${path.basename(where)}: ${counts.join(', ')}`,
    });
    out.write(
      `Added ${plural(added, 'entry', 'entries')} to the suppression list (the other ${plural(rows.length - added, 'row')} named what it already held).\n`,
    );
    if (settledRestores > 0)
      out.write('The restore whose later "no"s were unknown is settled: broadcast send and resume may go on.\n');
    return 0;
  } finally {
    await store.close();
  }
}

/** One entry in a line: when, which channel, whose (masked), why, and the answer. */
function line(entry: SuppressedAddress): string {
  const answer = entry.answer ? ` "${entry.answer.slice(0, 120)}"` : '';
  const code = entry.code ? ` ${entry.code}` : '';
  const can = entry.liftable ? '' : " (the person's own word: not liftable)";
  return `#${entry.id} ${entry.createdAt.slice(0, 16).replace('T', ' ')} ${entry.channel} ${entry.who}: ${entry.reason} (${entry.source})${code}${answer}${can}`;
}

if (isEntryPoint(import.meta.url)) runCli(main);
