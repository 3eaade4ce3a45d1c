import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const [w, size, path] = [Number(process.argv[2]), process.argv[3], process.argv[4] ?? '/'];
const p = await b.newPage({ viewport: { width: w, height: 900 } });
await p.addInitScript((s) => localStorage.setItem('scamsavvy.textSize', s), size);
await p.goto('http://127.0.0.1:4555' + path);
await p.waitForTimeout(1200);
const found = await p.evaluate(() => {
  const W = document.documentElement.clientWidth; const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.right > W + 1 && !el.closest('[hidden]')) {
      const parentOver = el.parentElement && el.parentElement.getBoundingClientRect().right > W + 1;
      if (!parentOver) out.push(`${el.tagName}.${el.className} right=${Math.round(r.right)} w=${Math.round(r.width)} fs=${getComputedStyle(el).fontSize}`);
    }
  }
  return [document.documentElement.scrollWidth - W, out.slice(0, 25)];
});
console.log(JSON.stringify(found, null, 1));
if (process.argv[5]) await p.screenshot({ path: process.argv[5], fullPage: true });
await b.close();
