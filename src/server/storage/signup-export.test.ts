import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { SignupRecord } from '../../shared/signup-schema.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import { exportSignups } from './signup-export.js';
import { SqliteSignupStore } from './sqlite-signup-store.js';

async function exported(store: SqliteSignupStore, format: 'csv' | 'json') {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const count = await exportSignups(store, format, out);
  return { count, text: Buffer.concat(chunks).toString('utf8') };
}

async function storeWith(...names: string[]): Promise<{ store: SqliteSignupStore; records: SignupRecord[] }> {
  const store = new SqliteSignupStore(tempDatabaseFile());
  const records = [];
  for (const [index, name] of names.entries()) {
    records.push(
      await store.add({
        name,
        phone: `+1555000000${index}`,
        email: `p${index}@example.com`,
        betaTesting: index % 2 === 0,
      }),
    );
  }
  return { store, records };
}

describe('exportSignups', () => {
  it('writes JSON that parses back to the stored records', async () => {
    const { store, records } = await storeWith('Rosa Díaz', 'Li "Lee" Wei');
    const { count, text } = await exported(store, 'json');
    expect(count).toBe(2);
    expect(JSON.parse(text)).toEqual(records);
    await store.close();
  });

  it('writes an empty JSON array when there are no sign-ups', async () => {
    const { store } = await storeWith();
    expect(JSON.parse((await exported(store, 'json')).text)).toEqual([]);
    await store.close();
  });

  it('writes RFC 4180 CSV with a header that a CSV parser reads back exactly', async () => {
    const { store, records } = await storeWith('Rosa Díaz', 'Li "Lee", Wei', 'Ann\u00e9e 🌻');
    const { text } = await exported(store, 'csv');
    expect(text.split('\r\n')[0]).toBe('id,name,phone,email,betaTesting,timestamp');
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual(records.map((record) => ({ ...record, betaTesting: String(record.betaTesting) })));
    await store.close();
  });
});
