// The slowest tests of the last `npm test`, with each browser test's share of its time limit: where a
// busy machine would first run out of time (docs/testing.md). `node scripts/slowest-tests.mjs [N]`.
// Also the failed tests, by name, for the end of `npm test`'s output.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Every browser test's result in a Playwright JSON report: its name, duration and time limit. */
function browserResults(report) {
  const rows = [];
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results)
          rows.push({
            name: `${spec.file}:${spec.line} ${[...trail, spec.title].join(' › ')}`,
            ms: result.duration,
            limitMs: test.timeout,
            failed: result.status !== 'passed' && result.status !== 'skipped',
          });
    for (const child of suite.suites ?? []) walk(child, child.title.endsWith('.ts') ? trail : [...trail, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return rows;
}

/** Every unit test's result in a Vitest JSON report (it does not record each test's limit). */
function unitResults(report) {
  return (report.testResults ?? []).flatMap((file) =>
    file.assertionResults.map((test) => ({
      name: `${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}`,
      ms: test.duration ?? 0,
      failed: test.status === 'failed',
    })),
  );
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Lines naming the slowest `count` tests of each report that exists. */
export function slowestTests({ unit, e2e }, count = 5) {
  const lines = [];
  if (e2e) {
    const rows = browserResults(e2e).sort((a, b) => b.ms / b.limitMs - a.ms / a.limitMs);
    lines.push(`slowest browser tests, by share of their time limit:`);
    for (const row of rows.slice(0, count))
      lines.push(
        `  ${Math.round((row.ms / row.limitMs) * 100)}% ${seconds(row.ms)} of ${seconds(row.limitMs)}  ${row.name}`,
      );
  }
  if (unit) {
    const rows = unitResults(unit).sort((a, b) => b.ms - a.ms);
    lines.push(`slowest unit and component tests:`);
    for (const row of rows.slice(0, count)) lines.push(`  ${seconds(row.ms)}  ${row.name}`);
  }
  return lines;
}

/**
 * Lines naming every test that failed, and every unit test file that failed outside its tests (it
 * would not load, or a hook threw): CI keeps only the end of its log, and this is printed there.
 */
export function failedTests({ unit, e2e }) {
  const names = [...(unit ? unitResults(unit) : []), ...(e2e ? browserResults(e2e) : [])].flatMap((row) =>
    row.failed ? [row.name] : [],
  );
  for (const file of unit?.testResults ?? [])
    if (file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'))
      names.push(`${file.name.replace(`${process.cwd()}/`, '')}: ${String(file.message ?? '').split('\n')[0]}`);
  return names.length === 0 ? [] : ['failed tests:', ...names.map((name) => `  ${name}`)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const read = (file) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  };
  const reports = { unit: read('test-results/unit-report.json'), e2e: read('test-results/e2e-report.json') };
  if (!reports.unit && !reports.e2e) {
    console.error('No reports in test-results/: run npm test first.');
    process.exit(1);
  }
  for (const line of slowestTests(reports, Number(process.argv[2] ?? 15))) console.log(line);
}
