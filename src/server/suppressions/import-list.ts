// `sudo scamsavvy suppressions import FILE` (decision 041): a provider's suppression list (or another
// tool's), as CSV or JSON of addresses or numbers with a reason, added to ours as keyed hashes. After
// a restore that could not read the database it replaced, it is how the "no"s since the backup come
// back, and it settles that restore so broadcasts may go. Nothing is written unless every row reads.
import { parse } from 'csv-parse/sync';
import { emailKey } from '../../shared/signup-schema.js';
import type { AddressKind, SuppressionReason } from '../db/suppressions.table.js';
import type { ImportedSuppression, SuppressionsRepository } from '../db/suppressions-repository.js';
import type { RestoreMarksRepository } from '../db/restore-marks-repository.js';
import type { BroadcastRecipientsRepository } from '../db/broadcast-recipients-repository.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import { signupE164, toE164 } from '../messaging/phone.js';
import type { CountryCode } from 'libphonenumber-js';

/** The largest file read: a provider's list of a million addresses is well under it. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** The most rows one file may hold. */
export const IMPORT_MAX_ROWS = 1_000_000;
/** How many unreadable rows are named before "and N more". */
const ERRORS_SHOWN = 10;

/** A file that cannot be imported as it is: the owner's to fix, nothing was written. */
export class ImportError extends Error {}

export interface ImportRow {
  /** The row's line (CSV) or position (JSON), counted from 1, for the owner's messages. */
  line: number;
  kind: AddressKind;
  /** The email as compared (emailKey), or the number in E.164. */
  address: string;
  reason: SuppressionReason;
  /** When the provider recorded it, where the file says and it is a sane time; else the import's time. */
  at: string;
}

/** The words a provider's file may give for a reason, letters only, lower case. */
const REASON_WORDS: Record<string, SuppressionReason | 'no'> = {
  bounced: 'bounced',
  bounce: 'bounced',
  bounces: 'bounced',
  hardbounce: 'bounced',
  block: 'bounced',
  blocked: 'bounced',
  blocks: 'bounced',
  undeliverable: 'undeliverable',
  invalid: 'undeliverable',
  invalidemail: 'undeliverable',
  complained: 'complained',
  complaint: 'complained',
  complaints: 'complained',
  spam: 'complained',
  spamcomplaint: 'complained',
  spamreport: 'complained',
  spamreports: 'complained',
  abuse: 'complained',
  left: 'no',
  unsubscribe: 'no',
  unsubscribed: 'no',
  unsubscribes: 'no',
  optout: 'no',
  optedout: 'no',
  manualsuppression: 'no',
  stop: 'no',
  stopped: 'no',
  smsstop: 'no',
  deleted: 'deleted',
  delete: 'deleted',
};

/** The reason words the command accepts, for its usage. */
export const IMPORT_REASONS = ['bounced', 'undeliverable', 'complained', 'unsubscribed', 'sms_stop', 'left', 'deleted'];

/** Column names (letters only, lower case) for the address, the reason and the time. */
const ADDRESS_COLUMNS = ['email', 'emailaddress', 'address', 'recipient', 'phone', 'phonenumber', 'number', 'mobile'];
const REASON_COLUMNS = ['reason', 'suppressionreason', 'type', 'category', 'event'];
const TIME_COLUMNS = ['createdat', 'created', 'date', 'timestamp', 'suppressedat', 'lastupdatetime', 'time'];

const letters = (value: string) => value.toLowerCase().replace(/[^a-z]/g, '');

/** A reason word as ours for this kind of address; undefined when it is none we know. */
export function reasonOf(word: string, kind: AddressKind): SuppressionReason | undefined {
  const found = REASON_WORDS[letters(word)];
  if (found === 'no') return kind === 'email' ? 'left' : 'sms_stop';
  if (found === 'deleted' || found === 'left') return found;
  // A number bounces or is reported only as undeliverable; complaints are email's.
  if (kind === 'phone' && found !== undefined) return found === 'complained' ? 'sms_stop' : 'undeliverable';
  return found;
}

/**
 * An email or a phone number, as the list hashes it; undefined for anything else. A number is read
 * as every path reads one (issue 54): E.164 by the numbering plan, in `country` (SMS_DEFAULT_COUNTRY)
 * when it has no country code, and "00" (the way out of most countries) read as "+".
 */
function addressOf(value: string, country: CountryCode): { kind: AddressKind; address: string } | undefined {
  const text = value.trim();
  if (text.length === 0 || text.length > 320) return undefined;
  if (text.includes('@')) {
    const email = emailKey(text.replace(/^mailto:/i, ''));
    return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? { kind: 'email', address: email } : undefined;
  }
  if (!/^\+?[\d\s\-.()]+$/.test(text)) return undefined;
  const international = text.replace(/^00(?=[1-9])/, '+');
  const e164 = signupE164(international, country) ?? toE164(international);
  const digits = e164.length - 1;
  return digits >= 7 && digits <= 15 ? { kind: 'phone', address: e164 } : undefined;
}

/** A provider's time if it is one (not before 2000, not in the future); else the import's time. */
function timeOf(value: unknown, now: Date): string {
  if (typeof value !== 'string' && typeof value !== 'number') return now.toISOString();
  const text = String(value).trim();
  // Seconds since 1970 (Mailgun, SendGrid) or an ISO time.
  const date = /^\d{9,10}(\.\d+)?$/.test(text) ? new Date(Number(text) * 1000) : new Date(text);
  const time = date.getTime();
  if (Number.isNaN(time) || time < Date.UTC(2000, 0, 1) || time > now.getTime()) return now.toISOString();
  return date.toISOString();
}

/** The value of the first of these columns the record has, by letters-only name. */
function pick(record: Record<string, unknown>, names: string[]): unknown {
  for (const [key, value] of Object.entries(record)) if (names.includes(letters(key))) return value;
  return undefined;
}

/** The records of a JSON file: an array, or the first array an object holds (Mailgun's items, Postmark's Suppressions). */
function jsonRecords(text: string): unknown[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ImportError(`The file is not JSON that can be read: ${(error as Error).message}.`);
  }
  if (Array.isArray(data)) return data;
  if (data !== null && typeof data === 'object') {
    const list = Object.values(data).find(Array.isArray);
    if (list) return list;
  }
  throw new ImportError('The JSON file holds no list: give an array of addresses, or of objects with an address.');
}

/** The records of a CSV file: by its header where it has one, else address, reason, time in that order. */
function csvRecords(text: string): { records: Record<string, unknown>[]; firstLine: number } {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (error) {
    throw new ImportError(`The CSV file cannot be read: ${(error as Error).message}`);
  }
  const header = rows[0]?.map(letters) ?? [];
  if (header.some((name) => ADDRESS_COLUMNS.includes(name)))
    return {
      records: rows.slice(1).map((row) => Object.fromEntries(header.map((name, index) => [name, row[index] ?? '']))),
      firstLine: 2,
    };
  return { records: rows.map(([address, reason, time]) => ({ address, reason, time })), firstLine: 1 };
}

/**
 * Reads a file's rows. `reason`, when the owner gives one, applies to every row (a provider's list of
 * one kind, such as Mailgun's bounces); otherwise each row must say its own. Throws an ImportError
 * naming the rows that cannot be read: then nothing is imported.
 */
export function readSuppressionFile(
  text: string,
  { reason, now, country = 'US' }: { reason?: string; now: Date; country?: CountryCode },
): ImportRow[] {
  if (Buffer.byteLength(text) > IMPORT_MAX_BYTES)
    throw new ImportError(
      `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB: split it, and import each part.`,
    );
  if (reason !== undefined && reason.trim() !== '' && reasonOf(reason, 'email') === undefined)
    throw new ImportError(`--reason must be one of ${IMPORT_REASONS.join(', ')}, not "${reason}".`);
  const json = /^\s*[[{]/.test(text);
  const { records, firstLine } = json ? { records: jsonRecords(text), firstLine: 1 } : csvRecords(text);
  if (records.length > IMPORT_MAX_ROWS)
    throw new ImportError(
      `The file has ${records.length.toLocaleString('en-US')} rows; at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} are read at once: split it.`,
    );
  const rows: ImportRow[] = [];
  const problems: string[] = [];
  records.forEach((record, index) => {
    const line = index + firstLine;
    const fields = typeof record === 'string' ? { address: record } : record;
    if (fields === null || typeof fields !== 'object') {
      problems.push(`${json ? 'item' : 'line'} ${line}: not an address`);
      return;
    }
    const given = pick(fields as Record<string, unknown>, ADDRESS_COLUMNS);
    const address = typeof given === 'string' ? addressOf(given, country) : undefined;
    if (!address) {
      problems.push(
        `${json ? 'item' : 'line'} ${line}: "${String(given ?? '').slice(0, 60)}" is not an email address or phone number`,
      );
      return;
    }
    const word = reason?.trim() || String(pick(fields as Record<string, unknown>, REASON_COLUMNS) ?? '');
    const why = reasonOf(word, address.kind);
    if (!why) {
      problems.push(
        word.trim() === ''
          ? `${json ? 'item' : 'line'} ${line}: no reason (give the file's reason with --reason)`
          : `${json ? 'item' : 'line'} ${line}: "${word.slice(0, 40)}" is not a reason this command knows`,
      );
      return;
    }
    rows.push({
      line,
      ...address,
      reason: why,
      at: timeOf(pick(fields as Record<string, unknown>, TIME_COLUMNS), now),
    });
  });
  if (problems.length > 0) {
    const more = problems.length > ERRORS_SHOWN ? `\n… and ${problems.length - ERRORS_SHOWN} more.` : '';
    throw new ImportError(
      `Nothing was imported: ${problems.length === 1 ? 'a row' : `${problems.length.toLocaleString('en-US')} rows`} cannot be read.\n${problems.slice(0, ERRORS_SHOWN).join('\n')}${more}`,
    );
  }
  if (rows.length === 0) throw new ImportError('The file holds no addresses or numbers.');
  return rows;
}

/** What an import would do, or did. */
export interface ImportSummary {
  /** Rows read, by reason and kind ("left email": 12). */
  byReason: Map<string, number>;
  /** Entries new to the list (the rest it already held, for the same reason). */
  added: number;
  /** People on the list whose email or number the file names. */
  people: number;
  /** Restores whose later "no"s were unknown, now settled by this import. */
  settledRestores: number;
}

export interface ImportStores {
  suppressions: Pick<SuppressionsRepository, 'addImported'>;
  broadcastRecipients: Pick<BroadcastRecipientsRepository, 'recipientsAfter'>;
  restoreMarks: Pick<RestoreMarksRepository, 'settle'>;
}

const PAGE = 1_000;

/** Rows by reason and kind, for the owner to read before saying yes. */
export function countByReason(rows: ImportRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.reason} ${row.kind === 'email' ? 'emails' : 'numbers'}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** How many people on the list the rows name (by their email or number). */
export async function peopleNamed(
  rows: ImportRow[],
  stores: Pick<ImportStores, 'broadcastRecipients'>,
): Promise<number> {
  const emails = new Set(rows.filter((row) => row.kind === 'email').map((row) => row.address));
  const phones = new Set(rows.filter((row) => row.kind === 'phone').map((row) => row.address));
  let people = 0;
  let after: string | null = null;
  for (;;) {
    const page = await stores.broadcastRecipients.recipientsAfter(after, PAGE);
    for (const person of page) if (emails.has(emailKey(person.email)) || phones.has(toE164(person.phone))) people += 1;
    if (page.length < PAGE) return people;
    after = page[page.length - 1]!.id;
  }
}

/** Adds the rows to the list (each once), and settles any restore whose later "no"s were unknown. */
export async function importSuppressions(
  rows: ImportRow[],
  stores: ImportStores,
  subscriptions: Pick<Subscriptions, 'emailHash' | 'phoneHash'>,
): Promise<Pick<ImportSummary, 'added' | 'settledRestores'>> {
  const entries: ImportedSuppression[] = [];
  for (const row of rows) {
    const hash = row.kind === 'email' ? subscriptions.emailHash(row.address) : subscriptions.phoneHash(row.address);
    if (!hash) throw new ImportError('SECRET_KEY is not set: the suppression list is keyed hashes, made with it.');
    entries.push({ kind: row.kind, hash, reason: row.reason, at: row.at });
  }
  const added = await stores.suppressions.addImported(entries);
  const settledRestores = await stores.restoreMarks.settle('import');
  return { added, settledRestores };
}
