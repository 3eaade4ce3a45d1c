// The real server process: its security headers, and how it answers while its database is locked.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures';
import { startBuiltServer } from '../scripts/built-server.mjs';

test('every kind of response carries the security headers', async ({ request }) => {
  const home = await request.get('/');
  const html = await home.text();
  const asset = html.match(/\/assets\/index-[\w-]+\.js/)?.[0];
  expect(asset).toBeTruthy();
  for (const response of [
    home,
    await request.get(asset ?? ''),
    await request.get('/api/health'),
    await request.get('/a/b/c'),
  ]) {
    const headers = response.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    // Our own scripts, and the page's three inline scripts (text size and language in the head, the
    // starter at the end of the body), each by its hash: nothing else.
    const inline = [...html.matchAll(/<script(?: data-app="[^"]*"(?: data-preload="[^"]*")?)?>([^<]+)<\/script>/g)];
    expect(inline).toHaveLength(3);
    const hashes = inline.map(
      (match) =>
        `'sha256-${createHash('sha256')
          .update(match[1] ?? '')
          .digest('base64')}'`,
    );
    expect(csp).toContain(`script-src 'self' ${hashes.join(' ')};`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['strict-transport-security']).toBeUndefined(); // plain HTTP, no trusted proxy
  }
});

test('a locked database: 503 with a retry hint, logged once, and sign-ups work again once it is released', async () => {
  // Two sign-ups each wait out SQLite's 5 s busy timeout: the default limit, sized for a busy machine.
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-outage-'));
  const file = path.join(dir, 'signups.db');
  const server = await startBuiltServer(4344, {
    DATABASE_URL: `sqlite:${file}`,
    LOG_LEVEL: 'info',
    SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
  });
  let count = 0;
  const signUp = () =>
    fetch(`${server.url}/api/signups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Rosa Díaz',
        phone: '+15551234567',
        email: `rosa${++count}@example.com`,
        openedForMs: 5000,
      }),
    });
  try {
    expect((await signUp()).status).toBe(201);
    const other = new Database(file);
    other.exec('BEGIN EXCLUSIVE'); // another process holds the write lock
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await signUp();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('10');
    }
    // The log reaches us through the child's stdout a moment after the answer: wait for it.
    await expect.poll(() => server.output().match(/the sign-up database is unavailable/g)?.length).toBe(1);
    other.exec('COMMIT');
    other.close();
    expect((await signUp()).status).toBe(201);
    await expect.poll(() => server.output()).toContain('the sign-up database is back');
    expect(server.output().match(/the sign-up database is unavailable/g)).toHaveLength(1);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
