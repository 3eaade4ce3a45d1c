// Renders each page to static HTML with the server-side bundle, so the server sends real content.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve('dist');
const { renderPage, site, notFoundTitle, productName, shareCard } = await import(
  pathToFileURL(path.join(dist, 'ssr', 'entry-server.js')).href
);
// The one small stylesheet goes into each page, so the first paint waits for no second request.
const stylesheet = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)">/;
const builtTemplate = readFileSync(path.join(dist, 'client', 'index.html'), 'utf8');
const cssFile = builtTemplate.match(stylesheet)?.[1];
if (!cssFile) throw new Error('The built index.html links no stylesheet to inline.');
const css = readFileSync(path.join(dist, 'client', cssFile), 'utf8').trim();
if (css.includes('</')) throw new Error(`${cssFile} holds "</", which would end its <style> element early.`);
// The app's script starts after the first paint (src/client/start.ts), so it never holds the words back.
const manifestFile = path.join(dist, 'client', '.vite', 'manifest.json');
const starter = JSON.parse(readFileSync(manifestFile, 'utf8'))['src/client/start.ts']?.file;
if (!starter) throw new Error('The build made no starter script (src/client/start.ts).');
const appScript = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
if (!appScript.test(builtTemplate)) throw new Error('The built index.html has no module script to start.');
const template = builtTemplate
  .replace(stylesheet, () => `<style>${css}</style>`)
  .replace(appScript, (_, src) => `<script src="/${starter}" data-app="${src}" defer></script>`);

const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// Filled in by the server at start with SITE_URL (src/server/routes/site.ts): share links need whole addresses.
const SITE_URL = '{{SITE_URL}}';

/** The landing page: its one canonical address, and what a shared link shows (Open Graph, Twitter/X). */
function shareTags() {
  const { image, imageAlt } = shareCard;
  const tag = (kind, name, content) => `<meta ${kind}="${name}" content="${escapeAttribute(String(content))}" />`;
  return [
    `<link rel="canonical" href="${SITE_URL}/" />`,
    tag('property', 'og:type', 'website'),
    tag('property', 'og:site_name', productName),
    tag('property', 'og:locale', 'en_US'),
    tag('property', 'og:url', `${SITE_URL}/`),
    tag('property', 'og:title', site.title),
    tag('property', 'og:description', site.description),
    tag('property', 'og:image', `${SITE_URL}${image.path}`),
    tag('property', 'og:image:type', image.type),
    tag('property', 'og:image:width', image.width),
    tag('property', 'og:image:height', image.height),
    tag('property', 'og:image:alt', imageAlt),
    tag('name', 'twitter:card', 'summary_large_image'),
    tag('name', 'twitter:title', site.title),
    tag('name', 'twitter:description', site.description),
    tag('name', 'twitter:image', `${SITE_URL}${image.path}`),
    tag('name', 'twitter:image:alt', imageAlt),
  ].join('\n    ');
}

function page(urlPath, title, headTags) {
  const html = template
    .replace('<!--head-tags-->', headTags)
    .replace(/<title>.*?<\/title>/, `<title>${escapeAttribute(title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*" \/>/,
      `<meta name="description" content="${escapeAttribute(site.description)}" />`,
    )
    .replace('<!--app-html-->', renderPage(urlPath));
  if (html.includes('<!--app-html-->') || html.includes('<!--head-tags-->') || !html.includes('<div id="root"><'))
    throw new Error(`Prerendering ${urlPath} produced no markup.`);
  return html;
}

mkdirSync(path.join(dist, 'pages'), { recursive: true });
writeFileSync(path.join(dist, 'pages', 'home.html'), page('/', site.title, shareTags()));
// Not a page to list in search results, whatever address it answers.
writeFileSync(
  path.join(dist, 'pages', 'not-found.html'),
  page('/404.html', notFoundTitle, '<meta name="robots" content="noindex" />'),
);
// The pages are served by the server's router, never as files, so /index.html cannot bypass it.
rmSync(path.join(dist, 'client', 'index.html'));
rmSync(path.join(dist, 'client', '.vite'), { recursive: true, force: true });
rmSync(path.join(dist, 'ssr'), { recursive: true, force: true });
console.log('prerendered dist/pages/home.html and dist/pages/not-found.html');
