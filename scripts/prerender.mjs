// Renders each page to static HTML with the server-side bundle, so the server sends real content.
// Once per page mode (scripts/build.mjs builds the browser app and this bundle for each): coming soon
// (dist/pages/home.html, not-found.html) and launched (home-launched.html, not-found-launched.html).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve('dist');

/** Where each mode's browser app and prerender bundle were built, and what its pages are called. */
const MODES = [
  { mode: 'coming-soon', client: 'client', ssr: 'ssr', suffix: '' },
  { mode: 'launched', client: 'client-launched', ssr: 'ssr-launched', suffix: '-launched' },
];

const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// Filled in by the server at start with SITE_URL (src/server/site/site-routes.ts): share links need whole addresses.
const SITE_URL = '{{SITE_URL}}';

/** The built index.html of one mode, with its stylesheet inline and its script started after the first paint. */
function pageTemplate(clientDir, { TEXT_SIZE_HEAD_SCRIPT, SHARED_PAGE_STYLES }) {
  // The one small stylesheet goes into each page, so the first paint waits for no second request.
  const stylesheet = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)">/;
  const builtTemplate = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const cssFile = builtTemplate.match(stylesheet)?.[1];
  if (!cssFile) throw new Error('The built index.html links no stylesheet to inline.');
  const css = readFileSync(path.join(clientDir, cssFile), 'utf8').trim();
  if (css.includes('</')) throw new Error(`${cssFile} holds "</", which would end its <style> element early.`);
  // The app's script starts after the first paint (src/client/start.ts), so it never holds the words back.
  const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
  const starter = JSON.parse(readFileSync(manifestFile, 'utf8'))['src/client/start.ts']?.file;
  if (!starter) throw new Error('The build made no starter script (src/client/start.ts).');
  const appScript = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
  if (!appScript.test(builtTemplate)) throw new Error('The built index.html has no module script to start.');
  // The chunks the page's script imports are fetched with it, after the first paint, not before: a
  // modulepreload in the head would compete with the words for the line (start.ts adds them).
  const preload = /\s*<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">/g;
  const chunks = [...builtTemplate.matchAll(preload)].map((match) => match[1]);
  const preloadAttribute = chunks.length > 0 ? ` data-preload="${chunks.join(' ')}"` : '';
  return (
    builtTemplate
      .replace(preload, '')
      // The visitor's text size is applied before the first paint (src/shared/text-size.ts; the CSP names its hash).
      .replace('<meta name="viewport"', () => `<script>${TEXT_SIZE_HEAD_SCRIPT}</script>\n    <meta name="viewport"`)
      .replace(stylesheet, () => `<style>${css}${SHARED_PAGE_STYLES.trim()}</style>`)
      .replace(appScript, (_, src) => `<script src="/${starter}" data-app="${src}"${preloadAttribute} defer></script>`)
  );
}

/** The landing page: its one canonical address, and what a shared link shows (Open Graph, Twitter/X). */
function shareTags({ productName }, { title, description, image, imageAlt }) {
  const tag = (kind, name, content) => `<meta ${kind}="${name}" content="${escapeAttribute(String(content))}" />`;
  return [
    `<link rel="canonical" href="${SITE_URL}/" />`,
    tag('property', 'og:type', 'website'),
    tag('property', 'og:site_name', productName),
    tag('property', 'og:locale', 'en_US'),
    tag('property', 'og:url', `${SITE_URL}/`),
    tag('property', 'og:title', title),
    tag('property', 'og:description', description),
    tag('property', 'og:image', `${SITE_URL}${image.path}`),
    tag('property', 'og:image:type', image.type),
    tag('property', 'og:image:width', image.width),
    tag('property', 'og:image:height', image.height),
    tag('property', 'og:image:alt', imageAlt),
    tag('name', 'twitter:card', 'summary_large_image'),
    tag('name', 'twitter:title', title),
    tag('name', 'twitter:description', description),
    tag('name', 'twitter:image', `${SITE_URL}${image.path}`),
    tag('name', 'twitter:image:alt', imageAlt),
  ].join('\n    ');
}

mkdirSync(path.join(dist, 'pages'), { recursive: true });
const written = [];
for (const { mode, client, ssr, suffix } of MODES) {
  const clientDir = path.join(dist, client);
  const entry = await import(pathToFileURL(path.join(dist, ssr, 'entry-server.js')).href);
  if (entry.launched !== (mode === 'launched')) {
    throw new Error(`dist/${ssr} was built for the wrong mode: build it with VITE_SITE_MODE=${mode}.`);
  }
  // What the page's head says: its title, description and share card, in this mode's words.
  const head = entry.launched
    ? {
        title: entry.launchedSite.title,
        description: entry.launchedSite.description,
        image: entry.launchedSite.shareImage,
        imageAlt: entry.launchedSite.shareImageAlt,
      }
    : {
        title: entry.site.title,
        description: entry.site.description,
        image: entry.shareCard.image,
        imageAlt: entry.shareCard.imageAlt,
      };
  const template = pageTemplate(clientDir, entry);
  const page = (urlPath, title, headTags) => {
    const html = template
      .replace('<!--head-tags-->', headTags)
      .replace(/<title>.*?<\/title>/, `<title>${escapeAttribute(title)}</title>`)
      .replace(
        /<meta name="description" content="[^"]*" \/>/,
        `<meta name="description" content="${escapeAttribute(head.description)}" />`,
      )
      .replace('<!--app-html-->', entry.renderPage(urlPath));
    if (html.includes('<!--app-html-->') || html.includes('<!--head-tags-->') || !html.includes('<div id="root"><'))
      throw new Error(`Prerendering ${urlPath} (${mode}) produced no markup.`);
    return html;
  };
  const write = (name, html) => {
    writeFileSync(path.join(dist, 'pages', `${name}${suffix}.html`), html);
    written.push(`dist/pages/${name}${suffix}.html`);
  };
  write('home', page('/', head.title, shareTags(entry, head)));
  // Not a page to list in search results, whatever address it answers.
  write('not-found', page('/404.html', entry.notFoundTitle(head.title), '<meta name="robots" content="noindex" />'));
}

// One folder of assets for both modes, with the files the prerendered HTML names (the logo, images of the
// static sections, which only the prerender bundles import): names are content hashes, so files two builds
// made are the same file. The prerender bundles' own scripts stay out.
for (const dir of ['client-launched', 'client-link-page', 'ssr', 'ssr-launched']) {
  const assets = path.join(dist, dir, 'assets');
  if (!existsSync(assets)) continue;
  for (const name of readdirSync(assets)) {
    if (dir.startsWith('ssr') && /\.(js|css)$/.test(name)) continue;
    const from = path.join(assets, name);
    const to = path.join(dist, 'client', 'assets', name);
    if (existsSync(to) && !readFileSync(to).equals(readFileSync(from)))
      throw new Error(`Two builds made assets/${name}, with different contents.`);
    cpSync(from, to);
  }
}

// The scripts of the pages the server renders (each its own entry): the owner's dashboard, and the link
// pages' (Text size, and the share panel's Copy). The server names them in those pages.
const manifestOf = (dir) => JSON.parse(readFileSync(path.join(dist, dir, '.vite', 'manifest.json'), 'utf8'));
const serverPageScripts = {};
for (const [name, dir, entry] of [
  ['owner', 'client', 'src/client/owner/live-progress.ts'],
  ['linkPage', 'client-link-page', 'src/client/link-page.ts'],
]) {
  const file = manifestOf(dir)[entry]?.file;
  if (!file) throw new Error(`The build made no script for ${entry}.`);
  serverPageScripts[name] = `/${file}`;
}
writeFileSync(path.join(dist, 'pages', 'scripts.json'), `${JSON.stringify(serverPageScripts)}\n`);

// The pages are served by the server's router, never as files, so /index.html cannot bypass it.
rmSync(path.join(dist, 'client', 'index.html'));
rmSync(path.join(dist, 'client', '.vite'), { recursive: true, force: true });
for (const dir of ['client-launched', 'client-link-page', 'ssr', 'ssr-launched'])
  rmSync(path.join(dist, dir), { recursive: true, force: true });
console.log(`prerendered ${written.join(', ')}`);
