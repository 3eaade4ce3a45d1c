import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { LANGUAGE_SCRIPT_HASH, TEXT_SIZE_SCRIPT_HASH } from '../security-headers.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicConfig } from '../../shared/public-config.js';
import { buildTestApp } from '../test/build-test-app.js';

// A stand-in for dist/ with the same layout the build makes, so routing is tested without building.
const NO_PROVIDERS = '<script type="application/json" id="public-config">{"consentMode":"opt-in"}</script>';
let dist: string;
let app: FastifyInstance;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'scamsavvy-dist-'));
  mkdirSync(path.join(dist, 'client', 'assets'), { recursive: true });
  mkdirSync(path.join(dist, 'pages'));
  writeFileSync(path.join(dist, 'pages', 'home.html'), '<!--public-config--><h1>home</h1>');
  writeFileSync(path.join(dist, 'pages', 'not-found.html'), '<!--public-config--><h1>404</h1>');
  // The Spanish pages (issue 45): /es and everything under it.
  writeFileSync(path.join(dist, 'pages', 'home-es.html'), '<!--public-config--><h1>inicio</h1>');
  writeFileSync(path.join(dist, 'pages', 'not-found-es.html'), '<!--public-config--><h1>404 es</h1>');
  writeFileSync(path.join(dist, 'client', 'assets', 'index-abc123.js'), 'console.info(1)');
  writeFileSync(path.join(dist, 'client', 'favicon.svg'), '<svg/>');
  ({ app } = await buildTestApp({ config: { distDir: dist }, serveSite: true, keepOpen: true }));
});

afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('site routes', () => {
  it.each(['/', '/index.html', '/spring', '/spring/', '/spring/index.html', '/?utm_source=newsletter'])(
    'serves the landing page for %s with 200, revalidated',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(`${NO_PROVIDERS}<h1>home</h1>`);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each(['/missing.html', '/spring/offer', '/a/b/c', '/pages/home.html', '/assets/nope.js'])(
    'serves the not-found page for %s with 404',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe(`${NO_PROVIDERS}<h1>404</h1>`);
    },
  );

  // Issue 45: /es and everything under it is the Spanish page, by the same routing rule.
  it.each(['/es', '/es/', '/es/index.html', '/es/?utm_source=radio'])(
    'serves the Spanish landing page for %s with 200',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(`${NO_PROVIDERS}<h1>inicio</h1>`);
    },
  );

  it.each(['/es/offer', '/es/a/b'])('serves the Spanish not-found page for %s with 404', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe(`${NO_PROVIDERS}<h1>404 es</h1>`);
  });

  it('sends the public pages without Cross-Origin-Opener-Policy, and keeps it on every other answer', async () => {
    for (const url of ['/', '/es/', '/no-such-page', '/es/nada']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['content-type'], url).toContain('text/html');
      expect(response.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(response.headers['content-security-policy'], url).toContain("script-src 'self'");
    }
    for (const url of ['/api/health', '/api/nothing', '/assets/index-abc123.js', '/robots.txt']) {
      expect((await app.inject({ method: 'GET', url })).headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
  });

  it('answers HEAD like GET', async () => {
    expect((await app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/a/b' })).statusCode).toBe(404);
  });

  it('serves hashed assets with immutable caching and other files with a short cache', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers unknown API paths with JSON 404, not the HTML page', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});

describe('the page settings written into every page', () => {
  const everything: PublicConfig = {
    consentMode: 'opt-out',
    ga4: { measurementId: 'G-TEST1234' },
    posthog: { key: 'phc_testtesttesttesttesttest', host: 'https://eu.i.posthog.com' },
    metaPixel: { pixelId: '1234567890' },
  };

  async function appWith(publicConfig: PublicConfig) {
    return (await buildTestApp({ config: { distDir: dist, publicConfig }, serveSite: true, keepOpen: true })).app;
  }

  it('carries only the public IDs and the consent mode, as JSON data', async () => {
    const configured = await appWith(everything);
    try {
      for (const url of ['/', '/missing.html']) {
        const body = (await configured.inject({ method: 'GET', url })).body;
        const json = body.match(/<script type="application\/json" id="public-config">(.*?)<\/script>/)?.[1];
        expect(JSON.parse(json ?? 'null')).toEqual(everything);
      }
    } finally {
      await configured.close();
    }
  });

  it('lets the Content-Security-Policy load exactly the configured providers', async () => {
    const configured = await appWith(everything);
    try {
      const csp = (await configured.inject({ method: 'GET', url: '/' })).headers['content-security-policy'] as string;
      const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src'));
      expect(scriptSrc?.trim().split(/\s+/)).toEqual([
        'script-src',
        "'self'",
        TEXT_SIZE_SCRIPT_HASH,
        LANGUAGE_SCRIPT_HASH,
        'https://*.googletagmanager.com',
        'https://eu.i.posthog.com',
        'https://eu-assets.i.posthog.com',
        'https://connect.facebook.net',
      ]);
      expect(csp).toMatch(/connect-src [^;]*https:\/\/\*\.google-analytics\.com[^;]*https:\/\/www\.facebook\.com/);
    } finally {
      await configured.close();
    }
    const plain = (await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'] as string;
    expect(plain).toContain(`script-src 'self' ${TEXT_SIZE_SCRIPT_HASH} ${LANGUAGE_SCRIPT_HASH};`);
    expect(plain).not.toMatch(/googletagmanager|posthog|facebook/);
  });

  it('refuses pages built before the settings existed, saying what to do', async () => {
    const old = mkdtempSync(path.join(tmpdir(), 'scamsavvy-old-dist-'));
    try {
      mkdirSync(path.join(old, 'client'), { recursive: true });
      mkdirSync(path.join(old, 'pages'));
      for (const name of ['home', 'not-found', 'home-es', 'not-found-es'])
        writeFileSync(path.join(old, 'pages', `${name}.html`), `<h1>${name}</h1>`);
      await expect(buildTestApp({ config: { distDir: old }, serveSite: true })).rejects.toThrow(
        /built by an older version: run "npm run build"/,
      );
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});

describe('what the server sends fast: compression, revalidation, crawlers', () => {
  let big: string;
  let site: FastifyInstance;
  const script = `console.info(${JSON.stringify('x'.repeat(3000))});`;
  const page = `<!--public-config--><link rel="canonical" href="{{SITE_URL}}/" /><p>${'Practice spotting scams. '.repeat(200)}</p>`;

  beforeAll(async () => {
    big = mkdtempSync(path.join(tmpdir(), 'scamsavvy-big-dist-'));
    mkdirSync(path.join(big, 'client', 'assets'), { recursive: true });
    mkdirSync(path.join(big, 'pages'));
    for (const suffix of ['', '-es']) {
      writeFileSync(path.join(big, 'pages', `home${suffix}.html`), page);
      writeFileSync(
        path.join(big, 'pages', `not-found${suffix}.html`),
        `<!--public-config--><h1>404</h1>${'x'.repeat(2000)}`,
      );
    }
    const asset = path.join(big, 'client', 'assets', 'index-def456.js');
    writeFileSync(asset, script);
    writeFileSync(`${asset}.br`, brotliCompressSync(script));
    writeFileSync(`${asset}.gz`, gzipSync(script));
    ({ app: site } = await buildTestApp({
      config: { distDir: big, siteUrl: 'https://family.example' },
      serveSite: true,
      keepOpen: true,
    }));
  });

  afterAll(async () => {
    await site.close();
    rmSync(big, { recursive: true, force: true });
  });

  it('writes the site address into the page', async () => {
    const body = (await site.inject({ method: 'GET', url: '/' })).body;
    expect(body).toContain('<link rel="canonical" href="https://family.example/" />');
    expect(body).not.toContain('{{SITE_URL}}');
  });

  it.each([
    ['br', 'gzip, deflate, br', brotliDecompressSync],
    ['gzip', 'gzip, deflate', gunzipSync],
    ['gzip', 'br;q=0.5, gzip', gunzipSync],
  ] as const)('sends the page as %s when the browser accepts "%s"', async (encoding, accept, decode) => {
    const response = await site.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': accept } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    const decoded = decode(response.rawPayload).toString('utf8');
    expect(decoded).toContain('Practice spotting scams.');
    expect(response.rawPayload.length).toBeLessThan(decoded.length / 5);
  });

  it('sends the page as it is to a client that accepts no compression', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }]) {
      const response = await site.inject({ method: 'GET', url: '/', headers });
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toContain('Practice spotting scams.');
    }
  });

  it('answers a revalidation with 304 and no body while the page is unchanged', async () => {
    const first = await site.inject({ method: 'GET', url: '/' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await site.inject({ method: 'GET', url: '/', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await site.inject({ method: 'GET', url: '/', headers: { 'if-none-match': '"something-else"' } });
    expect(other.statusCode).toBe(200);
  });

  it('sends the not-found page compressed, with its 404 and no ETag', async () => {
    const response = await site.inject({ method: 'GET', url: '/nowhere/at/all', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.etag).toBeUndefined();
    expect(brotliDecompressSync(response.rawPayload).toString('utf8')).toContain('<h1>404</h1>');
  });

  it('sends hashed assets precompressed, immutable, and as they are when compression is not accepted', async () => {
    const br = await site.inject({
      method: 'GET',
      url: '/assets/index-def456.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(script);
    const gzip = await site.inject({
      method: 'GET',
      url: '/assets/index-def456.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(script);
    const plain = await site.inject({ method: 'GET', url: '/assets/index-def456.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers /robots.txt: everything but the API may be crawled, and where the sitemap is', async () => {
    const response = await site.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.trim().split('\n');
    expect(lines).toEqual([
      'User-agent: *',
      'Allow: /',
      'Disallow: /api/',
      '',
      'Sitemap: https://family.example/sitemap.xml',
    ]);
  });

  it('answers /sitemap.xml with the page at the site address and the day it was built', async () => {
    const response = await site.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const built = statSync(path.join(big, 'pages', 'home.html'))
      .mtime.toISOString()
      .slice(0, 10);
    expect(response.body).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    );
    // Each language's page, each naming both (hreflang, issue 45).
    const alternates =
      '<xhtml:link rel="alternate" hreflang="en" href="https://family.example/"/>' +
      '<xhtml:link rel="alternate" hreflang="es" href="https://family.example/es/"/>';
    expect(response.body).toContain(
      `<url><loc>https://family.example/</loc><lastmod>${built}</lastmod>${alternates}</url>`,
    );
    expect(response.body).toContain(
      `<url><loc>https://family.example/es/</loc><lastmod>${built}</lastmod>${alternates}</url>`,
    );
  });
});

describe('SITE_MODE=launched: the launched pages, built beside the coming-soon ones', () => {
  let launchedDist: string;
  let launched: FastifyInstance;

  beforeAll(async () => {
    launchedDist = mkdtempSync(path.join(tmpdir(), 'scamsavvy-launched-dist-'));
    mkdirSync(path.join(launchedDist, 'client', 'assets'), { recursive: true });
    mkdirSync(path.join(launchedDist, 'pages'));
    for (const name of ['home', 'not-found', 'home-launched', 'not-found-launched'].flatMap((one) => [
      one,
      `${one}-es`,
    ]))
      writeFileSync(path.join(launchedDist, 'pages', `${name}.html`), `<!--public-config--><h1>${name}</h1>`);
    // The sitemap's date is the launched page's: built (here, written) on another day than the other.
    utimesSync(path.join(launchedDist, 'pages', 'home.html'), new Date('2026-01-02'), new Date('2026-01-02'));
    utimesSync(path.join(launchedDist, 'pages', 'home-launched.html'), new Date('2026-03-04'), new Date('2026-03-04'));
    ({ app: launched } = await buildTestApp({
      config: { distDir: launchedDist, launch: { mode: 'launched' } },
      serveSite: true,
      keepOpen: true,
    }));
  });

  afterAll(async () => {
    await launched.close();
    rmSync(launchedDist, { recursive: true, force: true });
  });

  it('serves the launched landing page and its own 404 page, with the statuses of the routing rule', async () => {
    for (const url of ['/', '/index.html', '/spring']) {
      const response = await launched.inject({ method: 'GET', url });
      expect([response.statusCode, response.body]).toEqual([200, `${NO_PROVIDERS}<h1>home-launched</h1>`]);
    }
    const missing = await launched.inject({ method: 'GET', url: '/spring/offer' });
    expect([missing.statusCode, missing.body]).toEqual([404, `${NO_PROVIDERS}<h1>not-found-launched</h1>`]);
  });

  it('dates the sitemap by the launched page', async () => {
    expect((await launched.inject({ method: 'GET', url: '/sitemap.xml' })).body).toContain(
      '<lastmod>2026-03-04</lastmod>',
    );
  });

  it('refuses to start from a build without the launched pages, saying what to do', async () => {
    const old = mkdtempSync(path.join(tmpdir(), 'scamsavvy-no-launched-dist-'));
    try {
      mkdirSync(path.join(old, 'client'), { recursive: true });
      mkdirSync(path.join(old, 'pages'));
      writeFileSync(path.join(old, 'pages', 'home.html'), '<!--public-config--><h1>home</h1>');
      writeFileSync(path.join(old, 'pages', 'not-found.html'), '<!--public-config--><h1>404</h1>');
      await expect(
        buildTestApp({ config: { distDir: old, launch: { mode: 'launched' } }, serveSite: true }),
      ).rejects.toThrow(/missing .*home-launched\.html: run "npm run build"/);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});
