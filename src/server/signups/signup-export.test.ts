import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { SignupInput, SignupRecord } from '../../shared/signup-schema.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import { exportColumns, exportSignups, standingColumns } from './signup-export.js';
import type { SignupFilter } from '../db/signups-repository.js';
import { openDatabase, type Db } from '../db/open-database.js';
import { testClock } from '../test/clock.js';

async function exported(store: Db, format: 'csv' | 'json', filter?: SignupFilter) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const count = await exportSignups(store.signups, format, out, filter);
  return { count, text: Buffer.concat(chunks).toString('utf8') };
}

/** Every sign-up is stamped by this clock (the store's `now`). */
const clock = testClock();

async function storeWith(...inputs: Partial<SignupInput>[]): Promise<{ store: Db; records: SignupRecord[] }> {
  const store = await openDatabase({ kind: 'sqlite', file: tempDatabaseFile() }, { now: clock });
  for (const [index, input] of inputs.entries()) {
    await store.signups.add({
      name: 'Rosa Díaz',
      phone: `+1555000000${index}`,
      email: `p${index}@example.com`,
      betaTesting: index % 2 === 0,
      ...input,
    });
  }
  const records: SignupRecord[] = [];
  for await (const record of store.signups.list()) records.push(record);
  return { store, records };
}

describe('exportSignups', () => {
  it('writes JSON that parses back to the stored records, every field', async () => {
    const { store, records } = await storeWith(
      { name: 'Li "Lee" Wei', attribution: { utmSource: 'tv', button: 'cta_section' } },
      {},
    );
    const { count, text } = await exported(store, 'json');
    expect(count).toBe(2);
    const parsed = JSON.parse(text) as Record<string, unknown>[];
    // Every stored field, then where each stands for the launch (blank here: no standing reader given).
    expect(parsed).toEqual(records.map((record) => ({ ...record, launchEmail: null, launchText: null })));
    expect(Object.keys(parsed[0] ?? {})).toEqual([...exportColumns, ...standingColumns]);
    await store.close();
  });

  it('writes an empty JSON array when there are no sign-ups', async () => {
    const { store } = await storeWith();
    expect(JSON.parse((await exported(store, 'json')).text)).toEqual([]);
    await store.close();
  });

  it('filters by first sign-up time and by beta interest', async () => {
    const { store } = await storeWith({ betaTesting: true }, { betaTesting: false }, { betaTesting: true });
    expect((await exported(store, 'json', { betaOnly: true })).count).toBe(2);
    expect((await exported(store, 'json', { since: new Date(clock.ms() + 60_000) })).count).toBe(0);
    expect((await exported(store, 'json', { since: new Date(clock.ms() - 60_000) })).count).toBe(3);
    await store.close();
  });

  it('writes RFC 4180 CSV with a header that a CSV parser reads back', async () => {
    const { store, records } = await storeWith(
      { name: 'Li "Lee", Wei' },
      { name: 'Ann\u00e9e 🌻\nSecond line'.replace('\n', ' ') },
    );
    const { text } = await exported(store, 'csv');
    expect(text.split('\r\n')[0]).toBe([...exportColumns, ...standingColumns].join(','));
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.name)).toEqual(['Li "Lee", Wei', 'Année 🌻 Second line']);
    expect(rows.map((row) => row.id)).toEqual(records.map((record) => record.id));
    expect(rows[0]?.betaTesting).toBe('true');
    expect(rows[0]?.utmSource).toBe('');
    await store.close();
  });

  it('neutralises cells a spreadsheet would run as a formula, and keeps phone numbers as text', async () => {
    const payloads = ['=HYPERLINK("http://evil","x")', '+SUM(1,1)', '-2+3', '@cmd', '\tfoo', '\rbar'];
    const { store } = await storeWith(
      ...payloads.map((payload, index) => ({
        name: `Rosa ${index}`,
        attribution: { utmCampaign: payload, utmSource: 'safe' },
      })),
      { name: '=1+1 Rosa', phone: '5551234567' },
    );
    const rows = parse((await exported(store, 'csv')).text, { columns: true }) as Record<string, string>[];
    for (const row of rows) {
      for (const [column, cell] of Object.entries(row)) {
        expect(cell, `${column}: ${cell}`).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
    // utmCampaign is cleaned of control characters by the schema, so only the formula ones remain to neutralise.
    expect(rows.slice(0, 4).map((row) => row.utmCampaign)).toEqual([
      '\'=HYPERLINK("http://evil","x")',
      "'+SUM(1,1)",
      "'-2+3",
      "'@cmd",
    ]);
    expect(rows.at(-1)?.name).toBe("'=1+1 Rosa");
    expect(rows[0]?.phone).toBe("'+15550000000");
    expect(rows.at(-1)?.phone).toBe("'5551234567");
    await store.close();
  });
});
