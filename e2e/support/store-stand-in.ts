// Stands in for the app stores in the browser, so a visitor sent to them lands somewhere and nothing
// leaves the machine. Playwright's request interception never sees the target of a redirect (our
// /app answers 302), so the browser itself is told that the stores' hosts are a local HTTPS server,
// with a certificate made for the test, which this browser (and no other) accepts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

export interface StoreStandIn {
  /** A Chromium that resolves the stores' hosts to the stand-in. */
  browser: Browser;
  /** Every page the browser asked the stores for (host and path), in order; favicons left out. */
  visits: string[];
  close: () => Promise<void>;
}

export async function startStoreStandIn(hosts: string[]): Promise<StoreStandIn> {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-store-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=store'],
    { stdio: 'ignore' },
  );
  const visits: string[] = [];
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    if (!request.url?.startsWith('/favicon')) visits.push(`https://${request.headers.host}${request.url}`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><title>A store</title><h1>A store</h1></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const options = chromiumLaunchOptions();
  const browser = await chromium.launch({
    ...options,
    args: [
      ...(options.args ?? []),
      `--host-resolver-rules=${hosts.map((host) => `MAP ${host}:443 127.0.0.1:${port}`).join(', ')}`,
      '--ignore-certificate-errors',
    ],
  });
  return {
    browser,
    visits,
    close: async () => {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
