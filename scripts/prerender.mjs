// Renders each page to static HTML with the server-side bundle, so the server sends real content.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve('dist');
const { renderPage, site, notFoundTitle } = await import(pathToFileURL(path.join(dist, 'ssr', 'entry-server.js')).href);
const template = readFileSync(path.join(dist, 'client', 'index.html'), 'utf8');

const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(urlPath, title) {
  const html = template
    .replace(/<title>.*?<\/title>/, `<title>${escapeAttribute(title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*" \/>/,
      `<meta name="description" content="${escapeAttribute(site.description)}" />`,
    )
    .replace('<!--app-html-->', renderPage(urlPath));
  if (html.includes('<!--app-html-->') || !html.includes('<div id="root"><'))
    throw new Error(`Prerendering ${urlPath} produced no markup.`);
  return html;
}

mkdirSync(path.join(dist, 'pages'), { recursive: true });
writeFileSync(path.join(dist, 'pages', 'home.html'), page('/', site.title));
writeFileSync(path.join(dist, 'pages', 'not-found.html'), page('/404.html', notFoundTitle));
// The pages are served by the server's router, never as files, so /index.html cannot bypass it.
rmSync(path.join(dist, 'client', 'index.html'));
rmSync(path.join(dist, 'ssr'), { recursive: true, force: true });
console.log('prerendered dist/pages/home.html and dist/pages/not-found.html');
