// `npm test`: every check and every test (types, lint, unit and component, browser), then one summary line.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { failedTests, slowestTests } from './slowest-tests.mjs';

const REPORTS = 'test-results';
const unitReport = `${REPORTS}/unit-report.json`;
const e2eReport = `${REPORTS}/e2e-report.json`;
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

const failedSteps = [];
function step(name, command, args, env = {}) {
  process.stdout.write(`\n━━ ${name}: ${[command, ...args].join(' ')}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failedSteps.push(name);
  return result.status === 0;
}

/**
 * A step run beside the unit tests, its output kept in a file and printed when it ends: the unit
 * tests wait on databases and servers more than they compute, and these fill the idle core
 * (docs/testing.md, "How long CI takes"). None of them reads or writes what the unit tests use.
 */
function beside(name, command, args) {
  const file = `${REPORTS}/${name.replace(/[^a-z]+/g, '-')}.log`;
  const out = openSync(file, 'w');
  const child = spawn(command, args, { stdio: ['ignore', out, out], env: process.env });
  const ended = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  return ended.then((code) => {
    closeSync(out);
    process.stdout.write(`\n━━ ${name}: ${[command, ...args].join(' ')}\n${readFileSync(file, 'utf8')}`);
    if (code !== 0) failedSteps.push(name);
    return code === 0;
  });
}

const bin = (name) => `node_modules/.bin/${name}`;
// Types, lint and the build one after another, beside the unit tests (the browser tests need the build).
const checks = (async () => {
  await beside('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
  await beside('typecheck (server)', bin('tsc'), ['-p', 'tsconfig.server.json', '--noEmit']);
  await beside('lint', bin('eslint'), ['.']);
  return beside('build', process.execPath, ['scripts/ensure-build.mjs']);
})();
await new Promise((resolve) => {
  process.stdout.write(`\n━━ unit and component tests: ${bin('vitest')} run\n`);
  const child = spawn(
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`],
    {
      stdio: 'inherit',
      env: process.env,
    },
  );
  child.on('close', (code) => {
    if (code !== 0) failedSteps.push('unit and component tests');
    resolve();
  });
});
const built = await checks;
if (built) step('browser tests', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport });
// Every benchmark once, tiny: none may silently stop working (scripts/bench-smoke.mjs).
if (built) step('benchmarks, once and tiny', process.execPath, ['scripts/bench-smoke.mjs']);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const unit = readJson(unitReport);
if (unit) {
  totals.passed += unit.numPassedTests;
  totals.failed += unit.numFailedTests;
  totals.skipped += unit.numPendingTests + unit.numTodoTests;
  console.log(
    `\nunit and component: ${unit.numPassedTests} passed, ${unit.numFailedTests} failed, ${unit.numPendingTests} skipped`,
  );
}
const e2e = readJson(e2eReport);
if (e2e) {
  const { expected, unexpected, flaky, skipped } = e2e.stats;
  totals.passed += expected;
  totals.failed += unexpected + flaky;
  totals.skipped += skipped;
  console.log(`browser: ${expected} passed, ${unexpected + flaky} failed, ${skipped} skipped`);
}
const benches = readJson(`${REPORTS}/bench-smoke.json`);
if (benches) {
  const failedBenches = benches.filter((bench) => !bench.passed).length;
  totals.passed += benches.length - failedBenches;
  totals.failed += failedBenches;
  console.log(`benchmarks, once and tiny: ${benches.length - failedBenches} ran, ${failedBenches} failed`);
}
// Where a busier machine would run out of time first (docs/testing.md).
console.log(`\n${slowestTests({ unit, e2e }).join('\n')}\n`);
// Which tests failed, by name: CI keeps only the end of this output.
for (const line of failedTests({ unit, e2e })) console.log(line);
if (failedSteps.length > 0) console.log(`failed steps: ${failedSteps.join(', ')}`);
// A step that failed without a test failing (types, lint, build) still fails the run.
if (failedSteps.length > 0 && totals.failed === 0) totals.failed = failedSteps.length;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length > 0 ? 1 : 0);
