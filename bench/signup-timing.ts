// `npm run bench:api -- --timing [--pairs N] [--postgres URL]`: whether the answer to a sign-up tells
// a stranger that the address is on the list (issue 54, path 13). The production server, with email
// and EMAIL_CONFIRMATION on (an SMTP server on loopback takes the emails), answers sign-ups one at a
// time: a new address and a repeat of one already on the list, in turn. Prints each kind's median
// and p90 answer time and the gap between the medians, which should be inside the noise.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { median, onEachEngine } from './bench-databases.js';
import { startProductionServer, stop } from './server-process.js';
import type { DatabaseConfig } from '../src/server/config.js';

const { values } = parseArgs({
  options: {
    timing: { type: 'boolean' },
    postgres: { type: 'string' },
    pairs: { type: 'string', default: '400' },
  },
});
const pairs = Number(values.pairs);
const postgresUrl = values.postgres ?? process.env.BENCH_POSTGRES_URL;
const PORT = 4353;

const percentile = (numbers: number[], p: number) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

async function measure(name: string, database: DatabaseConfig): Promise<void> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined).on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const server = await startProductionServer(PORT, database, {
    SECRET_KEY: randomBytes(32).toString('base64'),
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
    EMAIL_CONFIRMATION: 'on',
  });
  const runId = randomBytes(4).toString('hex');
  const signUp = async (email: string) => {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${PORT}/api/signups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Rosa Díaz',
        phone: '+15551234567',
        email,
        betaTesting: false,
        consentVersion: '2026-11-22',
        openedForMs: 5000,
      }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`A sign-up was answered ${response.status}.`);
    return performance.now() - started;
  };
  try {
    // Those already on the list, and a warm-up of both kinds.
    const onList = Array.from({ length: pairs }, (_, index) => `on-list-${runId}-${index}@example.com`);
    for (const email of onList) await signUp(email);
    const fresh: number[] = [];
    const repeat: number[] = [];
    // In turn, which goes first changing each pair, and each after the one before has had its work done
    // (its confirmation email, after the answer): each answer is timed alone, as a stranger probing would.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 40));
    await settle();
    for (let index = 0; index < pairs; index += 1) {
      const newOne = () => signUp(`new-${runId}-${index}@example.com`).then((ms) => fresh.push(ms));
      const repeatOne = () => signUp(onList[index]!).then((ms) => repeat.push(ms));
      for (const one of index % 2 === 0 ? [newOne, repeatOne] : [repeatOne, newOne]) {
        await one();
        await settle();
      }
    }
    const ms = (value: number) => `${value.toFixed(2)} ms`;
    const gap = median(fresh) - median(repeat);
    console.log(
      `  ${name.padEnd(10)} new address: median ${ms(median(fresh))}, p90 ${ms(percentile(fresh, 90))} · repeat: median ${ms(
        median(repeat),
      )}, p90 ${ms(percentile(repeat, 90))} · gap of the medians ${gap >= 0 ? '+' : ''}${ms(gap)}`,
    );
  } finally {
    await stop(server);
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}

console.log(
  `bench:api --timing: ${pairs} new and ${pairs} repeat sign-ups, one at a time, in turn; email and confirmation on`,
);
await onEachEngine(postgresUrl, measure);
