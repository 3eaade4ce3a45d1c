// Renders each page to static HTML with the server-side bundle, so the server sends real content.
// Once per page mode and language (scripts/build.mjs builds the browser app and this bundle for each):
// coming soon (dist/pages/home.html, not-found.html) and launched (home-launched.html,
// not-found-launched.html), each again in Spanish (home-es.html … not-found-launched-es.html).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve('dist');

/** Where each mode's and language's browser app and prerender bundle were built, and what its pages are called. */
const MODES = [
  { mode: 'coming-soon', language: 'en', client: 'client', ssr: 'ssr', suffix: '' },
  { mode: 'launched', language: 'en', client: 'client-launched', ssr: 'ssr-launched', suffix: '-launched' },
  { mode: 'coming-soon', language: 'es', client: 'client-es', ssr: 'ssr-es', suffix: '-es' },
  { mode: 'launched', language: 'es', client: 'client-launched-es', ssr: 'ssr-launched-es', suffix: '-launched-es' },
];
/** Every build folder but dist/client, which the others are merged into. */
const OTHER_BUILDS = MODES.flatMap(({ client, ssr }) => [client, ssr]).filter((dir) => dir !== 'client');

const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// Filled in by the server at start with SITE_URL (src/server/site/site-routes.ts): share links need whole addresses.
const SITE_URL = '{{SITE_URL}}';

/** The starter of each mode as written into its pages: the server's Content-Security-Policy names each by its hash. */
const starterScripts = new Set();
/** The starter's built files: once written into the pages, nothing names them. */
const starterFiles = new Set();

/** The built index.html of one mode, with its stylesheet inline and its script started after the first paint. */
function pageTemplate(
  clientDir,
  { TEXT_SIZE_HEAD_SCRIPT, LANGUAGE_HEAD_SCRIPT, SHARED_PAGE_STYLES, language, LANGUAGE_TAGS },
) {
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
  const appScript = /\s*<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
  const src = (html) => html.match(appScript)?.[1];
  if (!src(builtTemplate)) throw new Error('The built index.html has no module script to start.');
  // The chunks the page's script imports are fetched with it, after the first paint, not before: a
  // modulepreload in the head would compete with the words for the line (start.ts adds them).
  const preload = /\s*<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">/g;
  const chunks = [...builtTemplate.matchAll(preload)].map((match) => match[1]);
  const preloadAttribute = chunks.length > 0 ? ` data-preload="${chunks.join(' ')}"` : '';
  // The starter goes into the page itself, at the end of <body>: a request of its own, finished before the
  // words paint, would hold them back on a slow line (docs/performance.md). Wrapped, so its names stay its own.
  const starterCode = readFileSync(path.join(clientDir, starter), 'utf8').trim();
  if (starterCode.includes('</')) throw new Error(`${starter} holds "</", which would end its <script> element early.`);
  const inlineStarter = `(()=>{${starterCode}})()`;
  starterScripts.add(inlineStarter);
  starterFiles.add(path.basename(starter));
  return (
    builtTemplate
      .replace(preload, '')
      // The visitor's text size is applied before the first paint (src/shared/text-size.ts; the CSP names its hash).
      // So is the visitor's language: their kept choice, or the offer of the other page (shared/languages.ts).
      .replace(
        '<meta name="viewport"',
        () =>
          `<script>${TEXT_SIZE_HEAD_SCRIPT}</script>\n    <script>${LANGUAGE_HEAD_SCRIPT}</script>\n    <meta name="viewport"`,
      )
      .replace('<html lang="en">', () => `<html lang="${LANGUAGE_TAGS[language]}">`)
      .replace(stylesheet, () => `<style>${css}${SHARED_PAGE_STYLES.trim()}</style>`)
      .replace(appScript, '')
      .replace(
        '</body>',
        () => `<script data-app="${src(builtTemplate)}"${preloadAttribute}>${inlineStarter}</script>\n  </body>`,
      )
  );
}

/** Each language's page, named to search engines from every one (hreflang, with English the default). */
function languageLinks({ LANGUAGES, LANGUAGE_HOMES, LANGUAGE_TAGS }) {
  return [
    ...LANGUAGES.map(
      (other) =>
        `<link rel="alternate" hreflang="${LANGUAGE_TAGS[other]}" href="${SITE_URL}${LANGUAGE_HOMES[other]}" />`,
    ),
    `<link rel="alternate" hreflang="x-default" href="${SITE_URL}/" />`,
  ];
}

/** The landing page: its one canonical address, and what a shared link shows (Open Graph, Twitter/X). */
function shareTags(entry, { title, description, image, imageAlt }) {
  const { productName, language, LANGUAGES, LANGUAGE_HOMES, OPEN_GRAPH_LOCALES } = entry;
  const tag = (kind, name, content) => `<meta ${kind}="${name}" content="${escapeAttribute(String(content))}" />`;
  const home = `${SITE_URL}${LANGUAGE_HOMES[language]}`;
  return [
    `<link rel="canonical" href="${home}" />`,
    ...languageLinks(entry),
    tag('property', 'og:type', 'website'),
    tag('property', 'og:site_name', productName),
    tag('property', 'og:locale', OPEN_GRAPH_LOCALES[language]),
    ...LANGUAGES.filter((other) => other !== language).map((other) =>
      tag('property', 'og:locale:alternate', OPEN_GRAPH_LOCALES[other]),
    ),
    tag('property', 'og:url', home),
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
for (const { mode, language, client, ssr, suffix } of MODES) {
  const clientDir = path.join(dist, client);
  const entry = await import(pathToFileURL(path.join(dist, ssr, 'entry-server.js')).href);
  if (entry.launched !== (mode === 'launched') || entry.language !== language) {
    throw new Error(
      `dist/${ssr} was built for the wrong mode or language: build it with VITE_SITE_MODE=${mode} VITE_LANGUAGE=${language}.`,
    );
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
  write('home', page(entry.LANGUAGE_HOMES[language], head.title, shareTags(entry, head)));
  // Not a page to list in search results, whatever address it answers.
  write(
    'not-found',
    page(
      language === 'en' ? '/404.html' : `${entry.LANGUAGE_HOMES[language]}404`,
      entry.notFoundTitle(head.title),
      '<meta name="robots" content="noindex" />',
    ),
  );
}

// One folder of assets for both modes, with the files the prerendered HTML names (the logo, images of the
// static sections, which only the prerender bundles import): names are content hashes, so files two builds
// made are the same file. The prerender bundles' own scripts stay out.
for (const dir of [...OTHER_BUILDS, 'client-link-page']) {
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
// The inline starters' hashes, for the Content-Security-Policy (src/server/security-headers.ts).
serverPageScripts.inlineScriptHashes = [...starterScripts].map(
  (code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
);
writeFileSync(path.join(dist, 'pages', 'scripts.json'), `${JSON.stringify(serverPageScripts)}\n`);

// The pages are served by the server's router, never as files, so /index.html cannot bypass it.
rmSync(path.join(dist, 'client', 'index.html'));
for (const name of starterFiles) rmSync(path.join(dist, 'client', 'assets', name), { force: true });
rmSync(path.join(dist, 'client', '.vite'), { recursive: true, force: true });
for (const dir of [...OTHER_BUILDS, 'client-link-page']) rmSync(path.join(dist, dir), { recursive: true, force: true });
console.log(`prerendered ${written.join(', ')}`);
