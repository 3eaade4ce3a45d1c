// Serves the built site: hashed assets (precompressed at build), the prerendered pages with the
// status the router implies (compressed once, at start), and robots.txt and the sitemap. The pages
// are the coming-soon ones or, with SITE_MODE=launched, the launched ones (each with its own script).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import {
  BACKUP_DAYS_PLACEHOLDER,
  POSTAL_ADDRESS_PLACEHOLDER,
  PRIVACY_EMAIL_PLACEHOLDER,
  RETENTION_DAYS_PLACEHOLDER,
} from '../../shared/page-placeholders.js';
import {
  DEFAULT_RETENTION_DAYS,
  PUBLIC_CONFIG_ELEMENT_ID,
  senderLine,
  serialisePublicConfig,
  type PublicConfig,
} from '../../shared/public-config.js';
import { LANGUAGE_HOMES, LANGUAGES, LANGUAGE_TAGS, languageOfPath, type Language } from '../../shared/languages.js';
import { resolveRoute } from '../../shared/routes.js';
import type { SiteMode } from '../environment.js';
import { prepareDocument, sendDocument, type PreparedDocument } from './prepared-document.js';
import {
  applySiteFacts,
  EXAMPLE_PRIVACY_EMAIL,
  statisticsOnPage,
  UnconfirmedStatisticsError,
  type SiteFacts,
} from '../site-facts.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const AN_HOUR = 'public, max-age=3600';

export interface SitePaths {
  /** dist/client: what Vite built, minus the HTML, each file beside its .br and .gz. */
  assetsDir: string;
  /** dist/pages: the prerendered home.html and not-found.html, and their -launched twins. */
  pagesDir: string;
}

export interface SiteOptions extends SitePaths {
  /** Written into every page as a JSON data block: the page reads it before loading any analytics. */
  publicConfig: PublicConfig;
  /** The address visitors use, without a trailing slash: the canonical link, share tags and sitemap. */
  siteUrl: string;
  /** SITE_MODE: which of the prerendered pages to serve (scripts/prerender.mjs makes both). */
  mode: SiteMode;
  /** How long backups may keep a deleted person, in days (config.ts backupDays): the privacy notice says it. */
  backupDays: number;
  /** The owner's privacy contact and statistics (PRIVACY_EMAIL, STATISTIC_…), written over the built words. */
  siteFacts?: SiteFacts;
}

/** The prerendered pages of a mode and language: each was built with that mode's and language's own script. */
function pageFiles(mode: SiteMode, language: Language): { home: string; notFound: string } {
  const suffix = `${mode === 'launched' ? '-launched' : ''}${language === 'en' ? '' : `-${language}`}`;
  return { home: `home${suffix}.html`, notFound: `not-found${suffix}.html` };
}

const CONFIG_PLACEHOLDER = '<!--public-config-->';
/** Where the prerendered pages need the site's address (scripts/prerender.mjs writes it). */
export const SITE_URL_PLACEHOLDER = '{{SITE_URL}}';

export function sitePaths(distDir: string): SitePaths {
  return { assetsDir: path.join(distDir, 'client'), pagesDir: path.join(distDir, 'pages') };
}

/** What scripts/prerender.mjs wrote of the pages' scripts (dist/pages/scripts.json). */
export interface PageScripts {
  /** The pages the server renders, as the build named their scripts: the owner's and the link pages'. */
  owner?: string;
  linkPage?: string;
  /** The prerendered pages' inline starter (src/client/start.ts), by hash, for the Content-Security-Policy. */
  inlineScriptHashes?: string[];
}

export function serverPageScripts(pagesDir: string): PageScripts {
  const file = path.join(pagesDir, 'scripts.json');
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as PageScripts;
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A built page with the settings written in: what the server sends, and what the Ready page reads. */
export function readPage(
  pagesDir: string,
  name: string,
  { publicConfig, siteUrl, backupDays, siteFacts }: Omit<SiteOptions, 'assetsDir' | 'pagesDir' | 'mode'>,
  language: Language,
): string {
  const file = path.join(pagesDir, name);
  if (!existsSync(file)) {
    throw new Error(`The built site is missing ${file}: run "npm run build" (npm start does it for you).`);
  }
  const html = readFileSync(file, 'utf8');
  if (!html.includes(CONFIG_PLACEHOLDER)) {
    throw new Error(`${file} was built by an older version: run "npm run build" (npm start does it for you).`);
  }
  // A data block, not a script: the Content-Security-Policy (no inline scripts) has no say over it.
  return applySiteFacts(
    html
      .replace(
        CONFIG_PLACEHOLDER,
        `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">${serialisePublicConfig(publicConfig)}</script>`,
      )
      .replaceAll(SITE_URL_PLACEHOLDER, escapeAttribute(siteUrl))
      // The settings the page's words name (the page renders the same from the settings it reads).
      .replaceAll(RETENTION_DAYS_PLACEHOLDER, String(publicConfig.unconfirmedRetentionDays ?? DEFAULT_RETENTION_DAYS))
      .replaceAll(BACKUP_DAYS_PLACEHOLDER, String(backupDays))
      .replaceAll(POSTAL_ADDRESS_PLACEHOLDER, escapeAttribute(senderLine(publicConfig.postalAddress)))
      .replaceAll(PRIVACY_EMAIL_PLACEHOLDER, escapeAttribute(siteFacts?.privacyEmail ?? EXAMPLE_PRIVACY_EMAIL)),
    siteFacts ?? { statistics: {}, showUnconfirmed: false },
    language,
  );
}

/** Everything may be crawled but the API; the sitemap lists the landing page in each language. */
export function robotsTxt(siteUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', '', `Sitemap: ${siteUrl}/sitemap.xml`, ''].join('\n');
}

export function sitemapXml(siteUrl: string, lastModified: Date): string {
  const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const day = lastModified.toISOString().slice(0, 10);
  // Each page names every language's page, itself included (Google's hreflang in sitemaps).
  const alternates = LANGUAGES.map(
    (other) =>
      `<xhtml:link rel="alternate" hreflang="${LANGUAGE_TAGS[other]}" href="${escapeXml(siteUrl + LANGUAGE_HOMES[other])}"/>`,
  ).join('');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...LANGUAGES.map(
      (language) =>
        `  <url><loc>${escapeXml(siteUrl + LANGUAGE_HOMES[language])}</loc><lastmod>${day}</lastmod>${alternates}</url>`,
    ),
    '</urlset>',
    '',
  ].join('\n');
}

export const siteRoutes: FastifyPluginAsync<SiteOptions> = async (app, options) => {
  const { assetsDir, pagesDir, siteUrl, mode } = options;
  const unconfirmed = new Set<string>();
  const html = (name: string, language: Language) => {
    const page = readPage(pagesDir, name, options, language);
    for (const one of statisticsOnPage(page)) if (!one.confirmed) unconfirmed.add(one.figure);
    return prepareDocument(page, 'text/html; charset=utf-8');
  };
  const files = pageFiles(mode, 'en');
  // Each language's pages: /es and everything under it is Spanish (shared/languages.ts).
  const pagesIn = Object.fromEntries(
    LANGUAGES.map((language) => {
      const named = pageFiles(mode, language);
      return [language, { home: html(named.home, language), notFound: html(named.notFound, language) }];
    }),
  ) as Record<Language, { home: PreparedDocument; notFound: PreparedDocument }>;
  // "We are still confirming the original study" goes on the real site only by the owner's choice.
  if (siteUrl.startsWith('https://') && unconfirmed.size > 0 && !options.siteFacts?.showUnconfirmed)
    throw new UnconfirmedStatisticsError([...unconfirmed]);
  const crawlers: Record<string, PreparedDocument> = {
    '/robots.txt': prepareDocument(robotsTxt(siteUrl), 'text/plain; charset=utf-8'),
    '/sitemap.xml': prepareDocument(
      sitemapXml(siteUrl, statSync(path.join(pagesDir, files.home)).mtime),
      'application/xml; charset=utf-8',
    ),
  };

  for (const [url, document] of Object.entries(crawlers)) {
    app.get(url, (request, reply) => sendDocument(request, reply, document, { cacheControl: AN_HOUR }));
  }

  await app.register(fastifyStatic, {
    root: assetsDir,
    prefix: '/',
    index: false,
    wildcard: false, // one route per built file, found at start; everything else falls to the pages below
    preCompressed: true, // the build wrote file.br and file.gz beside each file worth compressing
    cacheControl: false,
    setHeaders(res, filePath) {
      const hashed = filePath.startsWith(path.join(assetsDir, 'assets') + path.sep);
      res.setHeader('cache-control', hashed ? IMMUTABLE : AN_HOUR);
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (
      pathname.startsWith('/api/') ||
      pathname === '/api' ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      return reply.code(404).send({ error: { code: 'not_found', message: 'There is nothing here.' } });
    }
    const found = resolveRoute(pathname).kind !== 'not-found';
    const pages = pagesIn[languageOfPath(pathname)];
    // The public pages open in the visitor's browsing context group: with Cross-Origin-Opener-Policy a
    // phone must start a new page process for them, before anything paints (decisions/061). They hold
    // nothing of anyone's; every other answer (the owner's pages, the link pages, the API) keeps it.
    reply.removeHeader('cross-origin-opener-policy');
    return sendDocument(request, reply, found ? pages.home : pages.notFound, {
      status: found ? 200 : 404,
      cacheControl: REVALIDATE,
    });
  });
};
