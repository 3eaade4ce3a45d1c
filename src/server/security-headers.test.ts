import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { LANGUAGE_HEAD_SCRIPT } from '../shared/languages.js';
import { TEXT_SIZE_HEAD_SCRIPT } from '../shared/text-size.js';
import Fastify from 'fastify';
import {
  HSTS,
  LANGUAGE_SCRIPT_HASH,
  PERMISSIONS_POLICY,
  securityHeaders,
  TEXT_SIZE_SCRIPT_HASH,
} from './security-headers.js';
import { buildTestApp } from './test/build-test-app.js';

async function setup(trustProxy: boolean = false) {
  const { app } = await buildTestApp({ config: { trustProxy } });
  return app;
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

describe('security headers', () => {
  it('send a Content-Security-Policy with no eval and no inline script but the text size line (by its hash), no framing, and nothing but our own origin', async () => {
    const response = await (await setup()).inject({ method: 'GET', url: '/api/health' });
    const csp = directives(String(response.headers['content-security-policy']));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    const textSizeHash = `'sha256-${createHash('sha256').update(TEXT_SIZE_HEAD_SCRIPT).digest('base64')}'`;
    // And the landing pages' language line (issue 45), by its hash.
    const languageHash = `'sha256-${createHash('sha256').update(LANGUAGE_HEAD_SCRIPT).digest('base64')}'`;
    expect(csp.get('script-src')).toEqual(["'self'", textSizeHash, languageHash]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    for (const [name, values] of csp) {
      if (name.startsWith('script')) expect(values).not.toContain("'unsafe-inline'");
      expect(values, name).not.toContain("'unsafe-eval'");
      expect(values, name).not.toContain('*');
    }
  });

  it("name the built pages' inline starter by the hash the build wrote, beside the head's two lines", async () => {
    const app = Fastify();
    const starterHash = `'sha256-${createHash('sha256').update('(()=>{})()').digest('base64')}'`;
    await securityHeaders(app, { scriptHashes: [starterHash] });
    app.get('/', async () => 'ok');
    const csp = directives(String((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']));
    expect(csp.get('script-src')).toEqual(["'self'", TEXT_SIZE_SCRIPT_HASH, LANGUAGE_SCRIPT_HASH, starterHash]);
    await app.close();
  });

  it('send nosniff, a strict referrer policy, no framing, and a permissions policy that turns features off', async () => {
    const response = await (await setup()).inject({ method: 'POST', url: '/api/signups', payload: {} });
    expect(response.statusCode).toBe(400); // on error answers too
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    expect(PERMISSIONS_POLICY).toContain('camera=()');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('send HSTS only over HTTPS: never on plain HTTP, and behind a proxy only when the proxy is trusted', async () => {
    const app = await setup();
    const plain = await app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const spoofed = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();

    const behindProxy = await (
      await setup(true)
    ).inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(behindProxy.headers['strict-transport-security']).toBe(HSTS);
  });
});

describe('health and readiness', () => {
  it('/api/health answers while the process is up; /api/ready while the database answers', async () => {
    const { app, db: store } = await buildTestApp();
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });

    await store.close(); // the database goes away
    const notReady = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.headers['retry-after']).toBe('5');
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
