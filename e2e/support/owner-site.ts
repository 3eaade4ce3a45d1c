// The owner's dashboard's e2e world, shared by its specs (owner.spec.ts, owner-pages.spec.ts,
// api.spec.ts): a fresh database of either engine, the real built server mailing a real SMTP server
// on loopback, the owner's documented commands against it, and the reflow check the pages must pass.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import pg from 'pg';
import { startSmtpSink, type SmtpSink } from '../../src/server/test/smtp-sink';
import { expect } from '../fixtures';
import { startBuiltServer, type RunningServer } from '../../scripts/built-server.mjs';

const run = promisify(execFile);
export const OWNER = 'owner@example.com';
/** Slow enough to watch the counts move, quick enough for a test. */
export const EMAIL_RATE = '2';
export const OTHERS = 16;

export const databaseUrl = process.env.TEST_DATABASE_URL;

export interface Engine {
  name: 'sqlite' | 'postgres';
  /** A fresh database: its DATABASE_URL, and how to remove it. */
  create: (dir: string) => Promise<{ url: string; drop: () => Promise<void> }>;
}

export const engines: Engine[] = [
  {
    name: 'sqlite',
    create: async (dir) => ({ url: `sqlite:${path.join(dir, 'signups.db')}`, drop: async () => undefined }),
  },
  {
    name: 'postgres',
    create: async () => {
      const schema = `e2e_owner_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client(databaseUrl);
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const url = new URL(databaseUrl ?? '');
      url.searchParams.set('options', `-c search_path=${schema}`);
      return {
        url: url.toString(),
        drop: async () => {
          const cleanup = new pg.Client(databaseUrl);
          await cleanup.connect();
          await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await cleanup.end();
        },
      };
    },
  },
];

/**
 * No sideways scrolling of the page, and nothing wider than the window, except a wide table inside
 * its own scrolling region (a data table may scroll in two directions: WCAG 1.4.10's exception).
 */
export async function expectReflow(page: Page, state: string) {
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    wide: Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((element) => !element.closest('.table-scroll table'))
      .filter((element) => element.getClientRects().length > 0)
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((element) => `${element.tagName}.${String(element.className)}`)
      .slice(0, 5),
  }));
  expect(overflow, state).toEqual({ page: 0, wide: [] });
}

export interface OwnerSite {
  server: RunningServer;
  sink: SmtpSink;
  /** The owner's documented command (`npm run --silent …`), against this server's database. */
  npm: (...args: string[]) => Promise<string>;
  stop: () => Promise<void>;
}

/** The built server on a fresh database of the engine, mailing a real SMTP server on loopback. */
export async function startOwnerSite(engine: Engine, port: number, emailRate: string): Promise<OwnerSite> {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-owner-'));
  const database = await engine.create(dir);
  const sink = await startSmtpSink();
  const env = {
    DATABASE_URL: database.url,
    SITE_URL: `http://127.0.0.1:${port}`,
    SECRET_KEY: 'e2e-owner-secret-key-that-is-long-enough',
    SMTP_URL: sink.url,
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
    APP_STORE_URL: 'https://apps.apple.com/us/app/scamsavvy/id1234567890',
    PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=com.scamsavvy.app',
    BROADCAST_EMAIL_RATE: emailRate,
    // Everyone on the list is in the broadcast; the sink holds only sign-in links and launch news.
    EMAIL_CONFIRMATION: 'off',
    SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
    SIGNUP_RATE_LIMIT_PER_HOUR: '0',
  };
  const server = await startBuiltServer(port, env);
  return {
    server,
    sink,
    npm: async (...args) =>
      (await run('npm', ['run', '--silent', ...args], { env: { ...process.env, ...env } })).stdout,
    stop: async () => {
      await server.stop();
      await sink.stop();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs up people through the public API (as the form does), and returns their email addresses. */
export async function signUpPeople(server: RunningServer, count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let person = 0; person < count; person += 1) {
    const email = `person${person}.${randomUUID()}@example.com`;
    const response = await fetch(`${server.url}/api/signups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Person ${person}`,
        phone: `+1555000${String(person).padStart(4, '0')}`,
        email,
        betaTesting: false,
        openedForMs: 5000,
      }),
    });
    expect(response.status).toBe(201);
    emails.push(email);
  }
  return emails;
}
