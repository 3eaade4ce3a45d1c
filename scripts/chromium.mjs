// Which Chromium the browser tests and screenshots use: Debian's where installed, else Playwright's own.
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Launch options for Playwright's chromium; `PLAYWRIGHT_BUNDLED_BROWSER` forces Playwright's own. */
export function chromiumLaunchOptions() {
  if (!existsSync(SYSTEM_CHROMIUM) || process.env.PLAYWRIGHT_BUNDLED_BROWSER) return {};
  return {
    executablePath: SYSTEM_CHROMIUM,
    // Headless in a sandbox without a GPU, and no calls home (this machine has no open network).
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  };
}
