import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { SqliteSignupStore } from '../storage/sqlite-signup-store.js';
import { testConfig } from '../test/test-config.js';

// A stand-in for dist/ with the same layout the build makes, so routing is tested without building.
let dist: string;
let app: FastifyInstance;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'scamsavvy-dist-'));
  mkdirSync(path.join(dist, 'client', 'assets'), { recursive: true });
  mkdirSync(path.join(dist, 'pages'));
  writeFileSync(path.join(dist, 'pages', 'home.html'), '<h1>home</h1>');
  writeFileSync(path.join(dist, 'pages', 'not-found.html'), '<h1>404</h1>');
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
      expect(response.body).toBe('<h1>home</h1>');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each(['/missing.html', '/spring/offer', '/a/b/c', '/pages/home.html', '/assets/nope.js'])(
    'serves the not-found page for %s with 404',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe('<h1>404</h1>');
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
