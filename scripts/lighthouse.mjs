// `npm run lighthouse [-- --runs N]`: Lighthouse's scores for the built page (mobile, its default
// throttling), the median of N runs (default 3), against the real server on a temporary database.
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startBuiltServer } from './built-server.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, path: { type: 'string', default: '/' } },
});
const runs = Math.max(1, Number(values.runs) || 3);
const { base, stop } = await startBuiltServer(4396);
const url = `${base}${values.path}`;

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  const launch = chromiumLaunchOptions();
  const chromePath = launch.executablePath ?? chromium.executablePath();
  const flags = ['--headless=new', ...(launch.args ?? ['--no-sandbox', '--disable-gpu'])];
  const scores = {};
  const metrics = {};
  const failing = new Map();
  for (let run = 0; run < runs; run++) {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: flags });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
      const { categories, audits } = result.lhr;
      for (const [id, category] of Object.entries(categories)) {
        (scores[category.title] ??= []).push(Math.round(category.score * 100));
        for (const ref of category.auditRefs) {
          const audit = audits[ref.id];
          if (ref.weight > 0 && audit.score !== null && audit.score < 1 && id !== 'performance') {
            failing.set(`${category.title}: ${audit.title}`, audit.displayValue ?? '');
          }
        }
      }
      for (const id of [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'cumulative-layout-shift',
        'speed-index',
      ]) {
        (metrics[audits[id].title] ??= []).push(audits[id].numericValue);
      }
    } finally {
      chrome.kill();
    }
  }
  console.log(`Lighthouse ${url}, mobile, median of ${runs} run${runs === 1 ? '' : 's'}`);
  for (const [title, list] of Object.entries(scores))
    console.log(`  ${title.padEnd(16)} ${String(median(list)).padStart(3)}   (runs: ${list.join(', ')})`);
  for (const [title, list] of Object.entries(metrics)) {
    const value = median(list);
    const shown = title.includes('Shift') ? value.toFixed(3) : `${Math.round(value)} ms`;
    console.log(`  ${title.padEnd(26)} ${shown}`);
  }
  if (failing.size > 0) {
    console.log('Audits not passed (outside performance):');
    for (const [title, value] of failing) console.log(`  - ${title}${value ? ` (${value})` : ''}`);
  }
} finally {
  stop();
}
