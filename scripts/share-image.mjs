// `npm run share-image`: draws public/share-image.png, the 1200 × 630 picture a link to the page
// shows when shared (Open Graph, Twitter/X cards), and public/share-image-launched.png, the launched
// page's (SITE_MODE=launched). Run it after changing the logo or the words below; each picture's words
// are also its alt text, in src/client/content.ts (shareCard) and src/client/launch-content.ts.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.mjs';

const logo = readFileSync('src/client/assets/logo.svg', 'utf8');
/** The last line of each picture: what the page asks of the visitor. */
const pictures = [
  { file: 'public/share-image.png', ask: 'Coming soon: join the list.' },
  { file: 'public/share-image-launched.png', ask: 'Out now on the App Store and Google Play.' },
];

const html = (ask) => `<!doctype html><html><head><style>
  html, body { margin: 0; width: 1200px; height: 630px; }
  body { box-sizing: border-box; padding: 72px 88px; background: #fff9f0; color: #1b2a3a;
    font-family: system-ui, 'Noto Sans', 'DejaVu Sans', sans-serif; display: flex; flex-direction: column;
    justify-content: space-between; border-bottom: 24px solid #0b5563; }
  .brand { display: flex; align-items: center; gap: 28px; font-size: 64px; font-weight: 800; color: #0b5563; }
  .brand svg { width: 120px; height: 120px; }
  h1 { margin: 0; font-size: 76px; line-height: 1.1; font-weight: 800; }
  p { margin: 0; font-size: 36px; line-height: 1.4; color: #3d4a59; }
  .soon { color: #083f4a; font-weight: 700; }
</style></head><body>
  <div class="brand">${logo}<span>ScamSavvy</span></div>
  <h1>Practice spotting scams, safely.</h1>
  <p>Pretend scam emails, calls and texts, with friendly help.<br><span class="soon">${ask}</span></p>
</body></html>`;

const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  for (const { file, ask } of pictures) {
    await page.setContent(html(ask));
    await page.screenshot({ path: file, type: 'png' });
    console.log(`wrote ${file} (1200 × 630)`);
  }
} finally {
  await browser.close();
}
