// The test object every spec uses: fails a test on any console error it did not expect.
import { test as base, expect } from '@playwright/test';

interface ConsoleWatch {
  /** Declares an error the test expects, and returns the matching messages seen so far. */
  expectError: (pattern: RegExp) => () => string[];
}

export const test = base.extend<{ console: ConsoleWatch }>({
  console: [
    async ({ page }, use) => {
      const seen: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') seen.push(message.text());
      });
      page.on('pageerror', (error) => seen.push(`Uncaught: ${error.message}`));
      await use({
        expectError: (pattern) => {
          allowed.push(pattern);
          return () => seen.filter((text) => pattern.test(text));
        },
      });
      const unexpected = seen.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect(unexpected, 'console errors the test did not expect').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
