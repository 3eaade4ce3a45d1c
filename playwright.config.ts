// End-to-end tests: real Chromium against the real built server, on a temporary SQLite file.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium where it is installed (CI, this machine); Playwright's own browser elsewhere. */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const useSystemChromium = existsSync(SYSTEM_CHROMIUM) && !process.env.PLAYWRIGHT_BUNDLED_BROWSER;

const port = Number(process.env.E2E_PORT ?? 4310);
// Set once in the runner; the workers inherit it, so every test and the server share one file.
process.env.E2E_DATABASE_FILE ??= path.join(tmpdir(), `scamsavvy-e2e-${process.pid}-${Date.now()}.db`);

export const e2eDatabaseUrl = `sqlite:${process.env.E2E_DATABASE_FILE}`;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  // npm test also asks for a JSON report (PLAYWRIGHT_JSON_OUTPUT_NAME) to print one summary line.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : 'list',
  outputDir: 'test-results/e2e',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: useSystemChromium
      ? {
          executablePath: SYSTEM_CHROMIUM,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        }
      : {},
  },
  webServer: {
    command: 'node dist/node/server/index.js',
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: e2eDatabaseUrl,
      LOG_LEVEL: 'warn',
    },
  },
});
