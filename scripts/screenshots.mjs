// `npm run screenshots`: pictures of the built page at phone and desktop widths, for docs/.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.mjs';

const port = 4390;
const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-shots-'));
const server = spawn(process.execPath, ['dist/node/server/index.js'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${dir}/signups.db`,
    LOG_LEVEL: 'warn',
  },
  stdio: 'inherit',
});

const base = `http://127.0.0.1:${port}`;
for (let tries = 0; ; tries += 1) {
  try {
    if ((await fetch(base)).ok) break;
  } catch {
    if (tries > 50) throw new Error('The server did not start.');
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const browser = await chromium.launch(chromiumLaunchOptions());
try {
  for (const [name, width, height] of [
    ['phone-390', 390, 844],
    ['desktop-1280', 1280, 900],
  ]) {
    const page = await browser.newPage({ viewport: { width, height }, reducedMotion: 'reduce' });
    await page.goto(base, { waitUntil: 'networkidle' });
    await page.screenshot({ path: `docs/screenshots/landing-${name}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
    await page.getByRole('dialog').waitFor();
    await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
    await page.getByText('There is a problem').waitFor();
    await page.screenshot({ path: `docs/screenshots/dialog-errors-${name}.png` });
    await page.close();
    console.log(`docs/screenshots/landing-${name}.png, docs/screenshots/dialog-errors-${name}.png`);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
