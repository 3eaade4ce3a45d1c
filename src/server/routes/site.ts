// Serves the built site: hashed assets, and the prerendered pages with the status the router implies.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { PUBLIC_CONFIG_ELEMENT_ID, serialisePublicConfig, type PublicConfig } from '../../shared/public-config.js';
import { resolveRoute } from '../../shared/routes.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

export interface SitePaths {
  /** dist/client: what Vite built, minus the HTML. */
  assetsDir: string;
  /** dist/pages: the prerendered home.html and not-found.html. */
  pagesDir: string;
}

export interface SiteOptions extends SitePaths {
  /** Written into every page as a JSON data block: the page reads it before loading any analytics. */
  publicConfig: PublicConfig;
}

const CONFIG_PLACEHOLDER = '<!--public-config-->';

export function sitePaths(distDir: string): SitePaths {
  return { assetsDir: path.join(distDir, 'client'), pagesDir: path.join(distDir, 'pages') };
}

function readPage(pagesDir: string, name: string, publicConfig: PublicConfig): string {
  const file = path.join(pagesDir, name);
  if (!existsSync(file)) {
    throw new Error(`The built site is missing ${file}: run "npm run build" (npm start does it for you).`);
  }
  const html = readFileSync(file, 'utf8');
  if (!html.includes(CONFIG_PLACEHOLDER)) {
    throw new Error(`${file} was built by an older version: run "npm run build" (npm start does it for you).`);
  }
  // A data block, not a script: the Content-Security-Policy (no inline scripts) has no say over it.
  return html.replace(
    CONFIG_PLACEHOLDER,
    `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">${serialisePublicConfig(publicConfig)}</script>`,
  );
}

export const siteRoutes: FastifyPluginAsync<SiteOptions> = async (app, { assetsDir, pagesDir, publicConfig }) => {
  const pages = {
    home: readPage(pagesDir, 'home.html', publicConfig),
    notFound: readPage(pagesDir, 'not-found.html', publicConfig),
  };

  await app.register(fastifyStatic, {
    root: assetsDir,
    prefix: '/',
    index: false,
    wildcard: false, // one route per built file, found at start; everything else falls to the pages below
    cacheControl: false,
    setHeaders(res, filePath) {
      const hashed = filePath.startsWith(path.join(assetsDir, 'assets') + path.sep);
      res.setHeader('cache-control', hashed ? IMMUTABLE : 'public, max-age=3600');
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
    const route = resolveRoute(pathname);
    const found = route.kind !== 'not-found';
    return reply
      .code(found ? 200 : 404)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', REVALIDATE)
      .send(found ? pages.home : pages.notFound);
  });
};
