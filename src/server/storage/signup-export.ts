// Writes every sign-up as CSV (RFC 4180) or JSON, streaming from the store.
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { SignupRecord } from '../../shared/signup-schema.js';
import type { SignupStore } from './signup-store.js';

export const exportFormats = ['csv', 'json'] as const;
export type ExportFormat = (typeof exportFormats)[number];

const columns = [
  'id',
  'name',
  'phone',
  'email',
  'betaTesting',
  'timestamp',
] as const satisfies readonly (keyof SignupRecord)[];

function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.write(text)) resolve();
    else out.once('drain', resolve).once('error', reject);
  });
}

/** Streams the store to `out` in the chosen format; returns how many sign-ups it wrote. */
export async function exportSignups(store: SignupStore, format: ExportFormat, out: Writable): Promise<number> {
  let count = 0;
  if (format === 'json') {
    await write(out, '[');
    for await (const record of store.list()) {
      const row = Object.fromEntries(columns.map((column) => [column, record[column]]));
      await write(out, `${count === 0 ? '\n' : ',\n'}  ${JSON.stringify(row)}`);
      count += 1;
    }
    await write(out, count === 0 ? ']\n' : '\n]\n');
    return count;
  }
  await write(out, stringify([columns], { record_delimiter: 'windows' }));
  for await (const record of store.list()) {
    const row = columns.map((column) => (column === 'betaTesting' ? String(record[column]) : record[column]));
    await write(out, stringify([row], { record_delimiter: 'windows' }));
    count += 1;
  }
  return count;
}
