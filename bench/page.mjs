// `npm run bench:page [-- --runs N] [--analytics] [--launched]`: builds, starts the production server, and runs
// Lighthouse (npm `lighthouse`, in the Chromium the tests use) N times on mobile (default 5, its
// default throttling: slow 4G, 4× CPU) and once on desktop. Prints the medians of the scores, the
// paint and blocking timings, and the bytes the page transfers, beside the targets of
// docs/performance.md; exits 1 when a median misses one. `--analytics` configures all three
// analytics providers (before consent nothing of theirs loads; the cookie question shows).
// `--launched` measures the launched page (SITE_MODE=launched, with stand-in store addresses).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { startBuiltServer } from '../scripts/built-server.mjs';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    path: { type: 'string', default: '/' },
    analytics: { type: 'boolean', default: false },
    launched: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    // The tiny run in npm test (scripts/bench-smoke.mjs): one run's figures on a busy machine say
    // nothing, so a missed target is printed but does not fail it.
    'report-only': { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs) || 5);
const lighthouseVersion = createRequire(import.meta.url)('lighthouse/package.json').version;
const PORT = 4396;

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

/** The targets of the performance issue, on mobile (docs/performance.md). */
const TARGETS = {
  Performance: { limit: 100, atLeast: true },
  Accessibility: { limit: 100, atLeast: true },
  'Best Practices': { limit: 100, atLeast: true },
  SEO: { limit: 100, atLeast: true },
  'First Contentful Paint': { limit: 1000 },
  'Largest Contentful Paint': { limit: 1000 },
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

/** One Lighthouse run: category scores, timings, and the bytes from our own origin (third parties excluded). */
function figures(lhr, origin) {
  const { audits, categories } = lhr;
  const own = audits['network-requests'].details.items.filter((item) => new URL(item.url).origin === origin);
  const bytes = (items) => items.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  const result = {};
  for (const category of Object.values(categories)) result[category.title] = Math.round(category.score * 100);
  result['First Contentful Paint'] = audits['first-contentful-paint'].numericValue;
  result['Largest Contentful Paint'] = audits['largest-contentful-paint'].numericValue;
  result['Total Blocking Time'] = audits['total-blocking-time'].numericValue;
  result['Cumulative Layout Shift'] = audits['cumulative-layout-shift'].numericValue;
  result['Speed Index'] = audits['speed-index'].numericValue;
  result['JavaScript transferred'] = bytes(own.filter((item) => item.resourceType === 'Script'));
  result['Everything transferred'] = bytes(own);
  result.Requests = own.length;
  return result;
}

function failingAudits(lhr) {
  const failing = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 1 && id !== 'performance') {
        failing.push(`${category.title}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
      }
    }
  }
  return failing;
}

const show = (title, value) => {
  if (title.includes('Shift')) return value.toFixed(3);
  if (title.includes('transferred')) return `${(value / 1000).toFixed(1)} kB`;
  if (title.includes('Paint') || title.includes('Time') || title.includes('Index')) return `${Math.round(value)} ms`;
  return String(value);
};

if (!values['no-build']) execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
const base = `http://127.0.0.1:${PORT}`;
const { stop } = await startBuiltServer(PORT, {
  SITE_URL: base,
  SITE_MODE: 'coming-soon',
  ...(values.analytics ? ANALYTICS_ENV : {}),
  ...(values.launched ? LAUNCHED_ENV : {}),
});
const url = `${base}${values.path}`;

try {
  const launch = chromiumLaunchOptions();
  const chromePath = launch.executablePath ?? chromium.executablePath();
  const flags = ['--headless=new', ...(launch.args ?? ['--no-sandbox', '--disable-gpu'])];
  const attempt = async (config) => {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: flags });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }, config);
      if (result.lhr.runtimeError)
        throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
      return result.lhr;
    } finally {
      chrome.kill();
    }
  };
  // Headless Chromium now and then loses a trace (NO_NAVSTART, NO_FCP): that run is made again.
  const audit = async (config) => {
    for (let tries = 1; ; tries += 1) {
      try {
        return await attempt(config);
      } catch (error) {
        if (tries === 3) throw error;
        console.warn(`Lighthouse run failed (${error.message.split('\n')[0]}); running it again.`);
      }
    }
  };

  const mobile = [];
  const failing = new Set();
  for (let run = 0; run < runs; run += 1) {
    const lhr = await audit();
    mobile.push(figures(lhr, base));
    for (const line of failingAudits(lhr)) failing.add(line);
  }
  const desktop = figures(await audit(desktopConfig), base);

  const setup = `${values.launched ? ', launched page' : ', coming-soon page'}${values.analytics ? ', analytics configured' : ''}`;
  console.log(`\nLighthouse ${lighthouseVersion} on ${url}${setup}: mobile median of ${runs}, desktop 1 run`);
  console.log(
    `${'metric'.padEnd(26)} ${'mobile'.padStart(10)} ${'desktop'.padStart(10)}   target   ${'runs (mobile)'}`,
  );
  let missed = 0;
  for (const title of Object.keys(mobile[0])) {
    const list = mobile.map((run) => run[title]);
    const value = median(list);
    const target = TARGETS[title];
    const met = target ? (target.atLeast ? value >= target.limit : value <= target.limit) : undefined;
    if (met === false) missed += 1;
    const targetText = target ? `${target.atLeast ? '≥' : '≤'} ${show(title, target.limit)}`.padEnd(9) : ''.padEnd(9);
    console.log(
      `${title.padEnd(26)} ${show(title, value).padStart(10)} ${show(title, desktop[title]).padStart(10)}   ${targetText}${met === undefined ? '    ' : met ? ' met' : ' MISSED'}   ${list.map((item) => show(title, item)).join(', ')}`,
    );
  }
  if (failing.size > 0) {
    console.log('Audits not passed (outside performance):');
    for (const line of failing) console.log(`  - ${line}`);
  }
  console.log(missed === 0 ? '\nEvery target met.' : `\n${missed} target(s) missed.`);
  if (missed > 0 && !values['report-only']) process.exitCode = 1;
} finally {
  await stop();
}
