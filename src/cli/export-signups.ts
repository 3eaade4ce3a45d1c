// `npm run signups:export -- --format csv|json [--out FILE]`: every sign-up, for the owner.
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.js';
import { createSignupStore } from '../server/storage/create-signup-store.js';
import { exportFormats, exportSignups, type ExportFormat } from '../server/storage/signup-export.js';

const usage = `Usage: npm run --silent signups:export -- --format csv|json [--out FILE]

Prints every sign-up (id, name, phone, email, betaTesting, timestamp) as CSV (RFC 4180, with a
header row) or as a JSON array, reading the database that DATABASE_URL names.
  --format csv|json   the output format (required)
  --out FILE          write to FILE instead of standard output`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { format: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const format = values.format as ExportFormat | undefined;
  if (!format || !exportFormats.includes(format)) {
    process.stderr.write(`--format must be csv or json.\n\n${usage}\n`);
    return 2;
  }

  const config = loadConfig();
  const store = createSignupStore(config.database, { migrate: false });
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  try {
    const count = await exportSignups(store, format, out);
    if (values.out) {
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
    }
    process.stderr.write(
      `Exported ${count} sign-up${count === 1 ? '' : 's'}${values.out ? ` to ${values.out}` : ''}.\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`Export failed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
