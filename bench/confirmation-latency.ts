// `npm run bench:api -- --confirmations [--rate N] [--requests N] [--postgres URL]`: how soon the
// confirmation email leaves after a sign-up is answered, while sign-ups keep coming (issue 54: within
// 1 s, p99). The real production server, EMAIL_CONFIRMATION on, sends to an SMTP server on loopback
// in a process of its own, which notes when each message arrives; autocannon notes when each sign-up
// was answered. Prints the delay's p50, p99 and maximum, and how many never came.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { onEachEngine } from './bench-databases.js';
import { startProductionServer, stop } from './server-process.js';
import type { DatabaseConfig } from '../src/server/config.js';

const { values } = parseArgs({
  options: {
    confirmations: { type: 'boolean' },
    postgres: { type: 'string' },
    requests: { type: 'string', default: '5000' },
    connections: { type: 'string', default: '10' },
    /** Sign-ups a second, all clients together (0: as fast as the server answers, as bench:api drives it). */
    rate: { type: 'string', default: '0' },
    /** How long after the last answer the emails may still come. */
    'wait-seconds': { type: 'string', default: '120' },
  },
});
const requests = Number(values.requests);
const connections = Number(values.connections);
const rate = Number(values.rate);
const waitMs = Number(values['wait-seconds']) * 1000;
const postgresUrl = values.postgres ?? process.env.BENCH_POSTGRES_URL;
const PORT = 4352;

/**
 * An SMTP server that takes every message and notes when each recipient's arrived, in a process of
 * its own (bench/arrivals-sink.mjs): on this process's event loop, autocannon's work would delay the
 * arrivals it notes.
 */
async function startArrivals(): Promise<{ url: string; arrivals: Map<string, number>; stop: () => Promise<void> }> {
  const arrivals = new Map<string, number>();
  const child = spawn(process.execPath, ['bench/arrivals-sink.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SMTP sink stopped (${code})`)));
    lines.on('line', (line) => {
      if (line.startsWith('port ')) return resolve(Number(line.slice(5)));
      const [address, at] = line.split('\t');
      if (address && at) arrivals.set(address, Number(at));
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(name: string, database: DatabaseConfig): Promise<void> {
  const sink = await startArrivals();
  const server = await startProductionServer(PORT, database, {
    SECRET_KEY: randomBytes(32).toString('base64'),
    SMTP_URL: sink.url,
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
    EMAIL_CONFIRMATION: 'on',
    // The SMTP server on loopback takes whatever comes: the rate is the sender's own, not a provider's.
    BROADCAST_EMAIL_RATE: '100000',
  });
  const answered = new Map<string, number>();
  const runId = randomBytes(4).toString('hex');
  let sequence = 0;
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${PORT}/api/signups`,
      method: 'POST',
      connections,
      amount: requests,
      ...(rate > 0 ? { overallRate: rate } : {}),
      sampleInt: 50,
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request, context) => {
            sequence += 1;
            const email = `bench-${runId}-${sequence}@example.com`;
            (context as { email?: string }).email = email;
            return {
              ...request,
              body: JSON.stringify({
                name: 'Rosa Díaz',
                phone: '+15551234567',
                email,
                betaTesting: false,
                consentVersion: '2026-11-22',
                openedForMs: 5000,
              }),
            };
          },
          onResponse: (status, _body, context) => {
            const email = (context as { email?: string }).email;
            if (status === 201 && email) answered.set(email, performance.timeOrigin + performance.now());
          },
        },
      ],
    });
    const loadEnded = performance.now();
    while (performance.now() - loadEnded < waitMs && [...answered.keys()].some((email) => !sink.arrivals.has(email)))
      await new Promise((resolve) => setTimeout(resolve, 100));
    const delays = [...answered].flatMap(([email, at]) => {
      const arrived = sink.arrivals.get(email);
      return arrived === undefined ? [] : [arrived - at];
    });
    delays.sort((a, b) => a - b);
    const missing = answered.size - delays.length;
    if (missing > 0 || answered.size === 0) process.exitCode = 1; // an email that never came is a failure, not a figure
    const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `  ${name.padEnd(10)} ${(result['2xx'] / result.duration).toFixed(0)} sign-ups/s answered · confirmation email after the answer: p50 ${fmt(
        percentile(delays, 50),
      )}, p99 ${fmt(percentile(delays, 99))}, max ${fmt(delays.at(-1) ?? NaN)} · ${delays.length} of ${answered.size} arrived${
        missing > 0 ? `, ${missing} not within ${waitMs / 1000} s` : ''
      }`,
    );
  } finally {
    await stop(server);
    await sink.stop();
  }
}

console.log(
  `bench:api --confirmations: ${requests} sign-ups, ${connections} connections, ${rate > 0 ? `${rate} a second` : 'as fast as answered'}; the target: p99 within 1 s`,
);
await onEachEngine(postgresUrl, measure);
