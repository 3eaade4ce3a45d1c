import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const [w, size] of [[320,'largest'],[1280,'largest'],[390,'normal'],[390,'large']]) {
  const p = await b.newPage({ viewport: { width: w, height: 900 } });
  p.on('console', m => m.type()==='error' && console.log('console', m.text()));
  await p.goto('http://127.0.0.1:4555/');
  await p.waitForTimeout(1500);
  if (size !== 'normal') await p.getByRole('button', { name: size === 'large' ? 'Large' : 'Largest', exact: true }).click();
  const over = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  console.log(w, size, 'overflow', over, await p.evaluate(() => document.documentElement.dataset.textSize));
  await p.screenshot({ path: `/tmp/ts-${w}-${size}.png`, fullPage: false });
  await p.close();
}
await b.close();
