// Writes sign-ups as CSV (RFC 4180, safe to open in a spreadsheet) or JSON, streaming from the store.
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { SignupRecord } from '../../shared/signup-schema.js';
import type { SignupFilter, SignupsRepository } from '../db/signups-repository.js';

export const exportFormats = ['csv', 'json'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const exportColumns = [
  'id',
  'name',
  'phone',
  'email',
  'betaTesting',
  'timestamp',
  'lastSeenAt',
  'signupCount',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'referrer',
  'landingPath',
  'button',
  'consentVersion',
  'confirmedAt',
  'emailOptOutAt',
  'smsOptOutAt',
  'smsConfirmedAt',
  'leftAt',
  'referralCode',
  'referredBy',
  // Issue 45: the language their messages go in (last, so the columns before keep their places).
  'language',
] as const satisfies readonly (keyof SignupRecord)[];

/**
 * Last, beside each record: whether the launch message will reach the person, per channel, by the
 * contact rule the senders use ("yes", or why not: consent/launch-standing.ts). Blank when it cannot
 * be read (no SECRET_KEY: then nothing can be sent at all).
 */
export const standingColumns = ['launchEmail', 'launchText'] as const;

/** Reads the standing of a page of records, by id. */
export type StandingReader = (ids: string[]) => Promise<Map<string, { email: string; texts: string }>>;

/** Records read and written a page at a time, so the standing costs two queries a page. */
const PAGE = 500;

/** Characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell a spreadsheet will show as text, never run. Cells that could start a formula get a
 * leading apostrophe. Phone numbers always do: they are only digits and a "+" (the schema sees
 * to that), and the apostrophe makes a spreadsheet keep them as text ("+15551234567" rather than
 * the number 15551234567).
 */
export function spreadsheetCell(
  column: (typeof exportColumns)[number],
  value: SignupRecord[keyof SignupRecord],
): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (column === 'phone' || FORMULA_START.test(text)) return `'${text}`;
  return text;
}

function write(out: Writable, text: string): Promise<void> {
  if (out.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      out.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      out.off('drain', onDrain);
      reject(error);
    };
    out.once('drain', onDrain).once('error', onError);
  });
}

/**
 * The export as text chunks (a header, then a row or a JSON line per sign-up), read from the store
 * in batches. As a generator, a consumer that stops early (a cancelled download) ends the read.
 */
export async function* exportChunks(
  signups: Pick<SignupsRepository, 'list'>,
  format: ExportFormat,
  filter: SignupFilter = {},
  standing?: StandingReader,
): AsyncGenerator<string, number> {
  let count = 0;
  const rows = (records: SignupRecord[], known: Map<string, { email: string; texts: string }>) =>
    records.map((record) => {
      const stands = known.get(record.id);
      return { record, launchEmail: stands?.email ?? null, launchText: stands?.texts ?? null };
    });
  if (format === 'json') yield '[';
  else yield stringify([[...exportColumns, ...standingColumns]], { record_delimiter: 'windows' });
  for await (const page of pages(signups.list(filter))) {
    const known = standing ? await standing(page.map((record) => record.id)) : new Map();
    for (const { record, launchEmail, launchText } of rows(page, known)) {
      if (format === 'json') {
        const row = {
          ...Object.fromEntries(exportColumns.map((column) => [column, record[column]])),
          launchEmail,
          launchText,
        };
        yield `${count === 0 ? '\n' : ',\n'}  ${JSON.stringify(row)}`;
      } else {
        const cells = [
          ...exportColumns.map((column) => spreadsheetCell(column, record[column])),
          launchEmail ?? '',
          launchText ?? '',
        ];
        yield stringify([cells], { record_delimiter: 'windows' });
      }
      count += 1;
    }
  }
  if (format === 'json') yield count === 0 ? ']\n' : '\n]\n';
  return count;
}

/** Records in pages of PAGE, as they are read. */
async function* pages(records: AsyncIterable<SignupRecord>): AsyncGenerator<SignupRecord[]> {
  let page: SignupRecord[] = [];
  for await (const record of records) {
    page.push(record);
    if (page.length === PAGE) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/** Streams the store to `out` in the chosen format; returns how many sign-ups it wrote. */
export async function exportSignups(
  signups: Pick<SignupsRepository, 'list'>,
  format: ExportFormat,
  out: Writable,
  filter: SignupFilter = {},
  standing?: StandingReader,
): Promise<number> {
  const chunks = exportChunks(signups, format, filter, standing);
  for (;;) {
    const next = await chunks.next();
    if (next.done) return next.value;
    await write(out, next.value);
  }
}
