// End-to-end tests: real Chromium against the real built server, on a temporary SQLite file.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';
import { DAYTIME } from './src/server/test/clock';

const port = Number(process.env.E2E_PORT ?? 4310);
// Set once in the runner; the workers inherit it, so every test and the server share one file.
// No .env in the checkout reaches the servers and commands the tests start (they inherit this).
process.env.ENV_FILE = '';
process.env.E2E_DATABASE_FILE ??= path.join(tmpdir(), `scamsavvy-e2e-${process.pid}-${Date.now()}.db`);

// Texts go at 4 p.m. New York time whatever the machine's clock (server/messaging/text-hours.ts), in
// every server and command the tests start: they inherit this process's environment.
process.env.TEST_TEXT_CLOCK ??= DAYTIME;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  // Time limits catch hangs, not slowness: each test does one page or state at one size and takes a
  // few seconds even on 2 cores with another load beside it (docs/testing.md, "Time limits").
  timeout: 60_000,
  // How long a web-first assertion waits for the page: a wait, never a speed check, so a busy
  // machine only makes a passing test slower.
  expect: { timeout: 15_000 },
  // Three on CI's two cores: the browser tests wait on servers and commands (two workers kept 0.8 of
  // the two cores busy); three took 9.2 min where two took 10.9 (docs/testing.md, "How long CI takes").
  workers: process.env.CI ? 3 : undefined,
  // npm test also asks for a JSON report (PLAYWRIGHT_JSON_OUTPUT_NAME) to print one summary line.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : 'list',
  outputDir: 'test-results/e2e',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: chromiumLaunchOptions(),
  },
  webServer: {
    command: 'node dist/node/server/index.js',
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${process.env.E2E_DATABASE_FILE}`,
      LOG_LEVEL: 'warn',
      TEST_TEXT_CLOCK: process.env.TEST_TEXT_CLOCK ?? '',
      // Every test signs up from 127.0.0.1; the limits have tests of their own (src/server/rate-limit.test.ts).
      SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
      SIGNUP_RATE_LIMIT_PER_HOUR: '0',
    },
  },
});
