import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import type { LaunchConfig } from '../config.js';
import { phonePlatform } from './app-link-routes.js';

const APP_STORE = 'https://apps.apple.com/app/id1234567890';
const PLAY_STORE = 'https://play.google.com/store/apps/details?id=com.scamsavvy.app';
const BETA_IOS = 'https://testflight.apple.com/join/AbCdEf12';
const BETA_ANDROID = 'https://play.google.com/apps/testing/com.scamsavvy.app';

/** Real User-Agent strings, as each phone or computer sends them. */
const AGENTS = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  iPad: 'Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1',
  iPod: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 15_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1',
  gmailOnIPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/283.0.567 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:126.0) Gecko/126.0 Firefox/126.0',
  samsungTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  // An iPad asking for desktop sites (iPadOS's default in Safari) looks like a Mac.
  macOrDesktopIPad:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0',
} as const;

describe('phonePlatform', () => {
  it.each([
    ['iPhone', 'ios'],
    ['iPad', 'ios'],
    ['iPod', 'ios'],
    ['gmailOnIPhone', 'ios'],
    ['androidChrome', 'android'],
    ['androidFirefox', 'android'],
    ['samsungTablet', 'android'],
    ['windows', null],
    ['macOrDesktopIPad', null],
    ['linux', null],
  ] as const)('names the store of %s: %s', (agent, platform) => {
    expect(phonePlatform(AGENTS[agent])).toBe(platform);
  });

  it('names none without a User-Agent', () => {
    expect(phonePlatform(undefined)).toBeNull();
    expect(phonePlatform('')).toBeNull();
  });
});

// A stand-in for dist/ with the launched pages, so the site's own 404 handler is there to swallow paths.
let dist: string;
const apps: FastifyInstance[] = [];

async function appWith(launch: LaunchConfig): Promise<FastifyInstance> {
  const { app } = await buildTestApp({ config: { distDir: dist, launch }, serveSite: true, keepOpen: true });
  apps.push(app);
  return app;
}

beforeAll(() => {
  dist = mkdtempSync(path.join(tmpdir(), 'scamsavvy-links-'));
  mkdirSync(path.join(dist, 'client', 'assets'), { recursive: true });
  mkdirSync(path.join(dist, 'pages'));
  for (const name of ['home', 'not-found', 'home-launched', 'not-found-launched'].flatMap((one) => [one, `${one}-es`]))
    writeFileSync(path.join(dist, 'pages', `${name}.html`), `<!--public-config--><h1>${name}</h1>`);
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  rmSync(dist, { recursive: true, force: true });
});

describe('launched, with every link set', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith({
      mode: 'launched',
      appStoreUrl: APP_STORE,
      playStoreUrl: PLAY_STORE,
      betaIosUrl: BETA_IOS,
      betaAndroidUrl: BETA_ANDROID,
    });
  });

  it.each([
    ['iPhone', APP_STORE],
    ['iPad', APP_STORE],
    ['iPod', APP_STORE],
    ['gmailOnIPhone', APP_STORE],
    ['androidChrome', PLAY_STORE],
    ['androidFirefox', PLAY_STORE],
    ['samsungTablet', PLAY_STORE],
    ['windows', '/'],
    ['macOrDesktopIPad', '/'],
    ['linux', '/'],
  ] as const)('/app sends %s to %s, uncached and varying by User-Agent', async (agent, location) => {
    const response = await app.inject({ method: 'GET', url: '/app', headers: { 'user-agent': AGENTS[agent] } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(location);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.vary).toMatch(/user-agent/i);
    expect(response.body).not.toContain('<h1>');
  });

  it('/app sends a request without a User-Agent to the launched page', async () => {
    const response = await app.inject({ method: 'GET', url: '/app' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
  });

  it.each([
    ['/app/ios', APP_STORE],
    ['/app/android', PLAY_STORE],
    ['/beta/ios', BETA_IOS],
    ['/beta/android', BETA_ANDROID],
  ])('%s sends every visitor to %s, whatever their phone', async (url, location) => {
    for (const agent of [AGENTS.iPhone, AGENTS.androidChrome, AGENTS.windows]) {
      const response = await app.inject({ method: 'GET', url, headers: { 'user-agent': agent } });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(location);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('/beta picks the beta link for the phone, and the home page for anything else', async () => {
    const to = async (agent: string) =>
      (await app.inject({ method: 'GET', url: '/beta', headers: { 'user-agent': agent } })).headers.location;
    expect(await to(AGENTS.iPhone)).toBe(BETA_IOS);
    expect(await to(AGENTS.androidChrome)).toBe(BETA_ANDROID);
    expect(await to(AGENTS.windows)).toBe('/');
  });

  it('answers HEAD as GET, with a trailing slash and with a query string', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/app', headers: { 'user-agent': AGENTS.iPhone } });
    expect([head.statusCode, head.headers.location]).toEqual([302, APP_STORE]);
    expect(head.body).toBe('');
    const headIos = await app.inject({ method: 'HEAD', url: '/app/ios' });
    expect([headIos.statusCode, headIos.headers.location]).toEqual([302, APP_STORE]);
    for (const url of ['/app/', '/app?utm_source=sms&utm_campaign=launch']) {
      const response = await app.inject({ method: 'GET', url, headers: { 'user-agent': AGENTS.androidChrome } });
      expect([response.statusCode, response.headers.location]).toEqual([302, PLAY_STORE]);
    }
    const android = await app.inject({ method: 'GET', url: '/app/android/' });
    expect([android.statusCode, android.headers.location]).toEqual([302, PLAY_STORE]);
  });

  it('leaves every other path to the site: the launched page, or its 404', async () => {
    // By the base-path rule, "/app" alone would be the landing page, and "/app/x" a 404 page.
    const home = await app.inject({ method: 'GET', url: '/' });
    expect([home.statusCode, home.body]).toEqual([200, expect.stringContaining('<h1>home-launched</h1>')]);
    for (const url of ['/app/windows', '/app/ios/extra', '/beta/other']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<h1>not-found-launched</h1>');
    }
    // Only GET and HEAD: anything else is the API's JSON 404.
    const post = await app.inject({ method: 'POST', url: '/app/ios' });
    expect(post.statusCode).toBe(404);
  });
});

describe('without the addresses: never an error, always the home page', () => {
  it.each([
    ['coming soon, nothing set', { mode: 'coming-soon' }],
    ['launched, no beta links', { mode: 'launched', appStoreUrl: APP_STORE, playStoreUrl: PLAY_STORE }],
  ] as const)('%s', async (_name, launch: LaunchConfig) => {
    const app = await appWith(launch);
    const unset = launch.appStoreUrl
      ? ['/beta', '/beta/ios', '/beta/android']
      : ['/app', '/app/ios', '/app/android', '/beta', '/beta/ios', '/beta/android'];
    for (const url of unset) {
      for (const agent of [AGENTS.iPhone, AGENTS.androidChrome, AGENTS.windows]) {
        const response = await app.inject({ method: 'GET', url, headers: { 'user-agent': agent } });
        expect(response.statusCode, `${url} from ${agent}`).toBe(302);
        expect(response.headers.location).toBe('/');
        expect(response.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('before the launch, the home page they land on is the coming-soon page', async () => {
    const app = await appWith({ mode: 'coming-soon', appStoreUrl: APP_STORE, playStoreUrl: PLAY_STORE });
    // Store links set early already lead to the stores; the page is still the coming-soon one.
    const ios = await app.inject({ method: 'GET', url: '/app/ios' });
    expect(ios.headers.location).toBe(APP_STORE);
    const home = await app.inject({ method: 'GET', url: '/' });
    expect(home.body).toContain('<h1>home</h1>');
  });
});
