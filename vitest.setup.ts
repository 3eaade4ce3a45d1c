// Every unit and component test: an unexpected console.error fails it.
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { DAYTIME } from './src/server/test/clock.js';

// No .env in the checkout reaches the processes the tests start (server/settings-files.ts).
process.env.ENV_FILE = '';
// Texts go only in the daytime where their person is (server/messaging/text-hours.ts): the tests' texts
// are sent at 4 p.m. New York time, noon in Honolulu, whatever the machine's clock; the tests of the
// daytime rules set their own (TEST_TEXT_CLOCK, tests only).
process.env.TEST_TEXT_CLOCK ??= DAYTIME;

// Files share a worker's modules and its page (isolate: false, decision 056): a jsdom file starts on a
// blank page, whatever the file before it left there (a portal, the pointer-events: none a modal
// dialog puts on the body, an attribute on <html>, a stored choice).
beforeAll(() => {
  if (typeof document === 'undefined') return;
  for (const element of [document.documentElement, document.head, document.body])
    for (const { name } of [...element.attributes]) element.removeAttribute(name);
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  window.localStorage.clear();
  window.sessionStorage.clear();
});

let allowed: RegExp[] = [];
let unexpected: string[] = [];

/** Declares a console.error the test expects (and so must not fail on). */
export function allowConsoleError(pattern: RegExp): void {
  allowed.push(pattern);
}

beforeEach(() => {
  allowed = [];
  unexpected = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const text = args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' ');
    if (!allowed.some((pattern) => pattern.test(text))) unexpected.push(text);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  if (unexpected.length > 0) {
    throw new Error(`Unexpected console.error:\n${unexpected.join('\n')}`);
  }
});
