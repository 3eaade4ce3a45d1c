// One Lighthouse run of a page in the Chromium the tests use, and the figures bench/page.mjs prints
// from it: scores, timings, the LCP element and its phases, the main thread's work, and the bytes.
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';

/** Lighthouse's names for the LCP phases (its largest-contentful-paint-element audit), as printed. */
export const LCP_PHASES = {
  TTFB: 'first byte',
  'Load Delay': 'load delay',
  'Load Time': 'load time',
  'Render Delay': 'render delay',
};

/** Lighthouse's main-thread groups (its mainthread-work-breakdown audit), in the order printed. */
export const MAIN_THREAD_GROUPS = {
  styleLayout: 'Style & Layout',
  scriptEvaluation: 'Script Evaluation',
  other: 'Other',
  parseHTML: 'Parse HTML & CSS',
  paintCompositeRender: 'Rendering',
  scriptParseCompile: 'Script Parsing & Compilation',
  garbageCollection: 'Garbage Collection',
};

/** The figures of one run; bytes count only what came from `origin` (third parties excluded). */
export function figures(lhr, origin) {
  const { audits, categories } = lhr;
  const own = audits['network-requests'].details.items.filter((item) => new URL(item.url).origin === origin);
  const bytes = (items) => items.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  const result = { scores: {}, timings: {}, phases: {}, mainThread: {}, bytes: {} };
  for (const category of Object.values(categories)) result.scores[category.title] = Math.round(category.score * 100);
  result.timings['First Contentful Paint'] = audits['first-contentful-paint'].numericValue;
  result.timings['Largest Contentful Paint'] = audits['largest-contentful-paint'].numericValue;
  result.timings['Total Blocking Time'] = audits['total-blocking-time'].numericValue;
  result.timings['Cumulative Layout Shift'] = audits['cumulative-layout-shift'].numericValue;
  result.timings['Speed Index'] = audits['speed-index'].numericValue;
  // The LCP element and its phases: a list of two tables, the element's and the phases'.
  const [elementTable, phaseTable] = audits['largest-contentful-paint-element'].details?.items ?? [];
  const node = elementTable?.items?.[0]?.node;
  result.lcpElement = node ? `${node.selector} "${(node.nodeLabel ?? '').slice(0, 48)}"` : '(none)';
  for (const [name, label] of Object.entries(LCP_PHASES)) {
    result.phases[label] = phaseTable?.items?.find((item) => item.phase === name)?.timing ?? 0;
  }
  for (const group of Object.keys(MAIN_THREAD_GROUPS)) result.mainThread[group] = 0;
  for (const item of audits['mainthread-work-breakdown'].details?.items ?? []) {
    result.mainThread[item.group] = item.duration;
  }
  result.bytes['JavaScript transferred'] = bytes(own.filter((item) => item.resourceType === 'Script'));
  result.bytes['Everything transferred'] = bytes(own);
  result.bytes.Requests = own.length;
  return result;
}

/** Audits outside performance that did not pass (the other three categories must stay at 100). */
export function failingAudits(lhr) {
  const failing = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    if (id === 'performance') continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
        failing.push(`${category.title}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
      }
    }
  }
  return failing;
}

/**
 * Lighthouse on `url` in a fresh Chromium (its default mobile settings unless `config`). Headless
 * Chromium now and then loses a trace (NO_NAVSTART, NO_FCP): that run is made again, up to three times.
 */
export async function lighthouseRun(url, config) {
  const launch = chromiumLaunchOptions();
  const chromePath = launch.executablePath ?? chromium.executablePath();
  const flags = ['--headless=new', ...(launch.args ?? ['--no-sandbox', '--disable-gpu'])];
  for (let tries = 1; ; tries += 1) {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: flags });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }, config);
      if (result.lhr.runtimeError)
        throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
      return result.lhr;
    } catch (error) {
      if (tries === 3) throw error;
      console.warn(`Lighthouse run failed (${error.message.split('\n')[0]}); running it again.`);
    } finally {
      chrome.kill();
    }
  }
}
