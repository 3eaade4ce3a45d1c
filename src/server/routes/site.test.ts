import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicConfig } from '../../shared/public-config.js';
import { createApp } from '../app.js';
import { SqliteSignupStore } from '../storage/sqlite-signup-store.js';
import { testConfig } from '../test/test-config.js';

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
  writeFileSync(path.join(dist, 'client', 'assets', 'index-abc123.js'), 'console.info(1)');
  writeFileSync(path.join(dist, 'client', 'favicon.svg'), '<svg/>');
  const store = new SqliteSignupStore(path.join(dist, 'signups.db'));
  app = await createApp({ config: testConfig({ distDir: dist }), store, logger: false });
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
    const store = new SqliteSignupStore(path.join(dist, `settings-${Math.random()}.db`));
    return createApp({ config: testConfig({ distDir: dist, publicConfig }), store, logger: false });
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
    expect(plain).toContain("script-src 'self';");
    expect(plain).not.toMatch(/googletagmanager|posthog|facebook/);
  });

  it('refuses pages built before the settings existed, saying what to do', async () => {
    const old = mkdtempSync(path.join(tmpdir(), 'scamsavvy-old-dist-'));
    try {
      mkdirSync(path.join(old, 'client'), { recursive: true });
      mkdirSync(path.join(old, 'pages'));
      writeFileSync(path.join(old, 'pages', 'home.html'), '<h1>home</h1>');
      writeFileSync(path.join(old, 'pages', 'not-found.html'), '<h1>404</h1>');
      const store = new SqliteSignupStore(path.join(old, 'signups.db'));
      await expect(createApp({ config: testConfig({ distDir: old }), store, logger: false })).rejects.toThrow(
        /built by an older version: run "npm run build"/,
      );
      await store.close();
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});
