// `npm run bench:page [-- --runs N] [--paths /,/es/] [--against REV] [--analytics] [--launched]`: builds,
// starts the production server, and runs Lighthouse (npm `lighthouse`, in the Chromium the tests use)
// N times per page on mobile (default 5, its default throttling: slow 4G, 4× CPU) and once on
// desktop. For each page (default / and /es/) it prints the medians of the scores and timings, the
// LCP element, the LCP's phases (first byte, load delay, load time, render delay), the main thread's
// work by kind, and the bytes, beside the targets of docs/performance.md; exits 1 when a median misses.
// `--against REV` builds that commit in a git worktree (the release before, say) and measures it in
// the same run, run for run interleaved with this checkout, so both meet the same machine.
// `--analytics` configures all three analytics providers (before consent nothing of theirs loads);
// `--launched` measures the launched page (SITE_MODE=launched, with stand-in store addresses).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { startBuiltServer } from '../scripts/built-server.mjs';
import { failingAudits, figures, lighthouseRun, MAIN_THREAD_GROUPS } from './lighthouse-run.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    paths: { type: 'string', default: '/,/es/' },
    against: { type: 'string' },
    analytics: { type: 'boolean', default: false },
    launched: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'no-desktop': { type: 'boolean', default: false },
    // The tiny run in npm test (scripts/bench-smoke.mjs): one run's figures on a busy machine say
    // nothing, so a missed target is printed but does not fail it.
    'report-only': { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs) || 5);
const paths = values.paths.split(',').filter(Boolean);
const lighthouseVersion = createRequire(import.meta.url)('lighthouse/package.json').version;
const PORT = 4396;
const BEFORE_PORT = 4397;

/** Public test IDs (no real account): with them the page asks about cookies, as a configured site does. */
const ANALYTICS_ENV = {
  GA_MEASUREMENT_ID: 'G-BENCH00000',
  POSTHOG_KEY: 'phc_benchbenchbenchbenchbench',
  META_PIXEL_ID: '1234567890',
};

/** The launched page (SITE_MODE=launched); the store addresses are never visited, only redirected to. */
const LAUNCHED_ENV = {
  SITE_MODE: 'launched',
  APP_STORE_URL: 'https://apps.apple.com/app/id0000000000',
  PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.bench',
};

/** The targets of the performance issues (31, 57), on mobile (docs/performance.md). */
const TARGETS = {
  Performance: { limit: 100, atLeast: true },
  Accessibility: { limit: 100, atLeast: true },
  'Best Practices': { limit: 100, atLeast: true },
  SEO: { limit: 100, atLeast: true },
  'First Contentful Paint': { limit: 900 },
  'Largest Contentful Paint': { limit: 900 },
  'Total Blocking Time': { limit: 50 },
  'Cumulative Layout Shift': { limit: 0.01 },
  'JavaScript transferred': { limit: 80_000 },
  'Everything transferred': { limit: 200_000 },
};

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const mostCommon = (list) => {
  const counts = new Map();
  for (const item of list) counts.set(item, (counts.get(item) ?? 0) + 1);
  const [item, count] = [...counts].sort((a, b) => b[1] - a[1])[0];
  return `${item} (${count} of ${list.length} runs)`;
};
const show = (title, value) => {
  if (value === undefined) return '-';
  if (title.includes('Shift')) return value.toFixed(3);
  if (title.includes('transferred')) return `${(value / 1000).toFixed(1)} kB`;
  if (['Performance', 'Accessibility', 'Best Practices', 'SEO', 'Requests'].includes(title)) return String(value);
  return `${Math.round(value)} ms`;
};

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();

/** REV checked out in a worktree of its own, with this checkout's packages where its lockfile is the same, built. */
function prepareRelease(rev) {
  const commit = git('rev-parse', '--short', `${rev}^{commit}`);
  const dir = mkdtempSync(path.join(tmpdir(), `scamsavvy-${commit}-`));
  git('worktree', 'add', '--force', '--detach', dir, commit);
  const sameLock = git('show', `${commit}:package-lock.json`) === readFileSync('package-lock.json', 'utf8').trim();
  if (sameLock) symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
  else execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], { cwd: dir, stdio: 'inherit' });
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: 'inherit' });
  return { commit, dir, remove: () => git('worktree', 'remove', '--force', dir) };
}

const siteEnv = (base) => ({
  SITE_URL: base,
  SITE_MODE: 'coming-soon',
  ...(values.analytics ? ANALYTICS_ENV : {}),
  ...(values.launched ? LAUNCHED_ENV : {}),
});

if (!values['no-build']) execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
const release = values.against ? prepareRelease(values.against) : undefined;
const sides = [{ name: 'this checkout', port: PORT, cwd: process.cwd() }];
if (release) sides.push({ name: `before (${release.commit})`, port: BEFORE_PORT, cwd: release.dir });
const failing = new Set();
try {
  for (const side of sides) {
    side.base = `http://127.0.0.1:${side.port}`;
    side.server = await startBuiltServer(side.port, siteEnv(side.base), { cwd: side.cwd });
    side.runs = Object.fromEntries(paths.map((page) => [page, []]));
  }
  // Run for run, page for page, the two sides take turns, each going first every other time.
  for (let run = 0; run < runs; run += 1) {
    for (const page of paths) {
      for (const side of run % 2 ? [...sides].reverse() : sides) {
        const lhr = await lighthouseRun(`${side.base}${page}`);
        side.runs[page].push(figures(lhr, side.base));
        if (side === sides[0]) for (const line of failingAudits(lhr)) failing.add(`${page} ${line}`);
      }
    }
  }
  const desktop = {};
  if (!values['no-desktop']) {
    for (const page of paths)
      desktop[page] = figures(await lighthouseRun(`${sides[0].base}${page}`, desktopConfig), sides[0].base);
  }

  const setup = `${values.launched ? 'launched page' : 'coming-soon page'}${values.analytics ? ', analytics configured' : ''}`;
  console.log(
    `\nLighthouse ${lighthouseVersion}, ${setup}: mobile (slow 4G, 4× CPU) median of ${runs}${release ? `, interleaved with ${release.commit}` : ''}${values['no-desktop'] ? '' : '; desktop 1 run'}`,
  );
  let missed = 0;
  for (const page of paths) {
    const [own, before] = sides.map((side) => side.runs[page]);
    const column = (list, pick) => (list ? median(list.map(pick)) : undefined);
    console.log(`\n${page}`);
    console.log(`  LCP element: ${mostCommon(own.map((run) => run.lcpElement))}`);
    if (before) console.log(`  before:      ${mostCommon(before.map((run) => run.lcpElement))}`);
    console.log(
      `  ${'metric'.padEnd(30)} ${'mobile'.padStart(9)} ${(before ? 'before' : '').padStart(9)} ${(values['no-desktop'] ? '' : 'desktop').padStart(9)}   target      runs (mobile)`,
    );
    const row = (title, pick, target) => {
      const value = column(own, pick);
      const met = target ? (target.atLeast ? value >= target.limit : value <= target.limit) : undefined;
      if (met === false) missed += 1;
      const targetText = target ? `${target.atLeast ? '≥' : '≤'} ${show(title, target.limit)}` : '';
      const desk = desktop[page] ? pick(desktop[page]) : undefined;
      console.log(
        `  ${title.padEnd(30)} ${show(title, value).padStart(9)} ${(before ? show(title, column(before, pick)) : '').padStart(9)} ${(desktop[page] ? show(title, desk) : '').padStart(9)}   ${targetText.padEnd(9)}${met === undefined ? '    ' : met ? ' met' : ' MISSED'}   ${own.map((run) => show(title, pick(run))).join(', ')}`,
      );
    };
    for (const title of Object.keys(own[0].scores)) row(title, (run) => run.scores[title], TARGETS[title]);
    for (const title of Object.keys(own[0].timings)) row(title, (run) => run.timings[title], TARGETS[title]);
    for (const phase of Object.keys(own[0].phases)) row(`LCP phase: ${phase}`, (run) => run.phases[phase]);
    for (const [group, title] of Object.entries(MAIN_THREAD_GROUPS)) {
      row(`Main thread: ${title}`, (run) => run.mainThread[group]);
    }
    for (const title of Object.keys(own[0].bytes)) row(title, (run) => run.bytes[title], TARGETS[title]);
  }
  if (failing.size > 0) {
    console.log('\nAudits not passed (outside performance):');
    for (const line of failing) console.log(`  - ${line}`);
  }
  console.log(missed === 0 ? '\nEvery target met.' : `\n${missed} target(s) missed.`);
  if (missed > 0 && !values['report-only']) process.exitCode = 1;
} finally {
  for (const side of sides) await side.server?.stop();
  release?.remove();
}
