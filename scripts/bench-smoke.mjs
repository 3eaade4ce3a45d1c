// `node scripts/bench-smoke.mjs`: every benchmark once, at a tiny size, so that none can silently
// stop working (issue 29). Each must end with exit code 0; at this size its figures mean nothing,
// and none is compared with anything. `npm test` runs it after the browser tests and counts each
// benchmark as a test in its totals. Writes test-results/bench-smoke.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

// PostgreSQL too where the tests have one (CI always does); bench:broadcast reads it by itself.
const postgres = process.env.TEST_DATABASE_URL ? ['--postgres', process.env.TEST_DATABASE_URL] : [];

/** Each benchmark with the smallest arguments that still run every part of it. */
export const SMOKE_RUNS = [
  ['bench:api', ['--runs', '1', '--requests', '400', '--connections', '4', ...postgres]],
  ['bench:api', ['--confirmations', '--requests', '100', '--rate', '100', '--wait-seconds', '30', ...postgres]],
  ['bench:stats', ['--rows', '2000', ...postgres]],
  ['bench:static', ['--runs', '1', '--seconds', '1', '--connections', '4']],
  ['bench:broadcast', ['--people', '300', '--workers', '1', '--no-kill']],
  ['bench:feedback', ['--runs', '1', '--events', '200', '--report-rate', '100', '--hostile-copies', '1', ...postgres]],
  ['bench:backup', ['--runs', '1', '--megabytes', '2', '--connections', '4', ...postgres]],
  ['bench:page', ['--runs', '1', '--no-desktop', '--report-only']],
];

const results = [];
for (const [script, args] of SMOKE_RUNS) {
  process.stdout.write(`\n── ${script} ${args.join(' ')}\n`);
  const started = performance.now();
  const run = spawnSync('npm', ['run', '--silent', script, '--', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 5 * 60_000, // a hang guard, far above what a tiny run takes
  });
  const seconds = (performance.now() - started) / 1000;
  const passed = run.status === 0;
  const tail = `${run.stdout ?? ''}${run.stderr ?? ''}`
    .trim()
    .split('\n')
    .slice(passed ? -3 : -40);
  process.stdout.write(`${tail.join('\n')}\n${passed ? '✓' : '✗'} ${script} (${seconds.toFixed(1)} s)\n`);
  results.push({ script, args, passed, seconds, ...(passed ? {} : { output: tail.join('\n') }) });
}
mkdirSync('test-results', { recursive: true });
writeFileSync('test-results/bench-smoke.json', `${JSON.stringify(results, null, 2)}\n`);
const failed = results.filter((result) => !result.passed);
console.log(`\nbenchmarks, once and tiny: ${results.length - failed.length} ran, ${failed.length} failed`);
process.exit(failed.length === 0 ? 0 : 1);
