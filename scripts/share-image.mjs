// `npm run share-image`: draws public/share-image.png, the 1200 × 630 picture a link to the page
// shows when shared (Open Graph, Twitter/X cards), and public/share-image-launched.png, the launched
// page's (SITE_MODE=launched); and each again in Spanish (-es), for /es/. Run it after changing the logo
// or the words below; each picture's words are also its alt text, in src/client/content-en.ts and
// content-es.ts (shareCard) and src/client/launch-content-en.ts and launch-content-es.ts.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.mjs';

const logo = readFileSync('src/client/assets/logo.svg', 'utf8');
/** The last line of each picture: what the page asks of the visitor. */
const english = {
  lang: 'en',
  heading: 'Practice spotting scams, safely.',
  line: 'Pretend scam emails, calls and texts, with friendly help.',
};
const spanish = {
  lang: 'es',
  heading: 'Practique cómo descubrir estafas, sin riesgo.',
  line: 'Correos, llamadas y mensajes de estafa de mentira, con ayuda amable.',
};
const pictures = [
  { file: 'public/share-image.png', ...english, ask: 'Coming soon: join the list.' },
  { file: 'public/share-image-launched.png', ...english, ask: 'Out now on the App Store and Google Play.' },
  { file: 'public/share-image-es.png', ...spanish, ask: 'Muy pronto: apúntese a la lista.' },
  { file: 'public/share-image-launched-es.png', ...spanish, ask: 'Ya está en el App Store y en Google Play.' },
];

const html = ({ lang, heading, line, ask }) => `<!doctype html><html lang="${lang}"><head><style>
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
  <h1>${heading}</h1>
  <p>${line}<br><span class="soon">${ask}</span></p>
</body></html>`;

const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  for (const picture of pictures) {
    const { file } = picture;
    await page.setContent(html(picture));
    await page.screenshot({ path: file, type: 'png' });
    console.log(`wrote ${file} (1200 × 630)`);
  }
} finally {
  await browser.close();
}
