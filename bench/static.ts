// `npm run bench:static [-- --runs N] [--seconds S] [--connections C]`: requests per second and p99
// for GET / and for a hashed asset (the page's script) from the production server, beside a bare
// Node http server that answers the same paths with the same bytes and headers in the same run.
// Requests ask for brotli, as browsers do, so both send the precompressed bytes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { stop, waitForServer } from './server-process.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const PORT = 4398;
const base = `http://127.0.0.1:${PORT}`;
const REQUEST_HEADERS = { 'accept-encoding': 'br, gzip' };
/** What the bare server repeats of the production server's answer (the rest are security headers). */
const KEPT_HEADERS = ['content-type', 'content-encoding', 'cache-control', 'vary', 'etag'];

async function withServer<T>(script: string, env: NodeJS.ProcessEnv, work: () => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForServer(child, base);
    return await work();
  } finally {
    await stop(child);
  }
}

interface Result {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  bytes: number;
}

async function drive(url: string): Promise<Result> {
  const result = await autocannon({ url, connections, duration: seconds, headers: REQUEST_HEADERS });
  return {
    perSecond: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    bytes: result.throughput.average,
  };
}

/** GET with the bytes exactly as sent (fetch would decompress them). */
function getRaw(url: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: REQUEST_HEADERS }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const home = readFileSync('dist/pages/home.html', 'utf8');
const asset = home.match(/data-app="(\/assets\/[^"]+\.js)"/)?.[1];
if (!asset) throw new Error('dist/pages/home.html names no script: run npm run build.');
const paths = ['/', asset];
const work = mkdtempSync(path.join(tmpdir(), 'scamsavvy-bench-static-'));
const database = { DATABASE_URL: `sqlite:${path.join(work, 'signups.db')}`, SITE_URL: base };

try {
  // The production server's answers, captured once, for the bare server to repeat byte for byte.
  const captured = await withServer('dist/node/server/index.js', database, async () =>
    Promise.all(
      paths.map(async (url, index) => {
        const { headers: answered, body } = await getRaw(`${base}${url}`);
        const file = `response-${index}`;
        writeFileSync(path.join(work, file), body);
        const headers = Object.fromEntries(
          KEPT_HEADERS.flatMap((name) => (answered[name] ? [[name, answered[name]]] : [])),
        );
        return { url, headers, file, size: body.length };
      }),
    ),
  );
  writeFileSync(path.join(work, 'index.json'), JSON.stringify(captured));

  const results: Record<string, Result[]> = {};
  const record = (name: string, result: Result) => (results[name] ??= []).push(result);
  for (let run = 0; run < runs; run += 1) {
    // Targets take turns, so a noisy minute falls on all alike.
    await withServer('dist/node/server/index.js', database, async () => {
      for (const url of paths)
        record(`production ${url === '/' ? 'GET /' : 'GET asset'}`, await drive(`${base}${url}`));
    });
    await withServer('bench/bare-static-server.mjs', { BENCH_STATIC_DIR: work }, async () => {
      for (const url of paths) record(`bare http ${url === '/' ? 'GET /' : 'GET asset'}`, await drive(`${base}${url}`));
    });
  }

  console.log(
    `\nStatic files, ${runs} run(s) of ${seconds} s each, ${connections} connections, brotli asked for; ${cpus().length} cores, Node ${process.version}`,
  );
  for (const { url, size } of captured)
    console.log(`  ${url === '/' ? 'GET /' : `GET asset (${url})`}: ${size} bytes as sent`);
  console.log(
    `${'target'.padEnd(24)} ${'req/s'.padStart(9)} ${'p50'.padStart(6)} ${'p99'.padStart(6)} ${'errors'.padStart(7)}   runs (req/s)`,
  );
  for (const [name, list] of Object.entries(results)) {
    console.log(
      `${name.padEnd(24)} ${Math.round(median(list.map((r) => r.perSecond)))
        .toLocaleString('en-US')
        .padStart(
          9,
        )} ${`${median(list.map((r) => r.p50))} ms`.padStart(6)} ${`${median(list.map((r) => r.p99))} ms`.padStart(6)} ${String(list.reduce((sum, r) => sum + r.errors, 0)).padStart(7)}   ${list.map((r) => Math.round(r.perSecond).toLocaleString('en-US')).join(', ')}`,
    );
  }
  for (const kind of ['GET /', 'GET asset']) {
    const ours = median(results[`production ${kind}`]!.map((r) => r.perSecond));
    const bare = median(results[`bare http ${kind}`]!.map((r) => r.perSecond));
    console.log(
      `${kind}: the production server does ${Math.round((ours / bare) * 100)}% of the bare server's requests per second.`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
