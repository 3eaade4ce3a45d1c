// The pages links in messages open: a GET never changes anything, only a POST behind a button does.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createMessaging } from '../messaging/messaging.js';
import { createAddressHasher, createLinkSigner } from '../messaging/link-tokens.js';
import { Subscriptions } from '../messaging/subscriptions.js';
import { openSignupStore } from '../storage/open-signup-store.js';
import type { SignupStore } from '../storage/signup-store.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import { testConfig } from '../test/test-config.js';
import { maskEmail } from './link-pages.js';

const KEY = 'link-pages-test-key-that-is-long-enough';
const links = createLinkSigner(KEY);
let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function setUp(): Promise<{ app: FastifyInstance; store: SignupStore; id: string }> {
  const store = await openSignupStore({ kind: 'sqlite', file: tempDatabaseFile() }, { confirmSignups: true });
  const messaging = createMessaging(
    { secretKey: KEY, emailConfirmation: false, unconfirmedRetentionDays: 30 },
    store,
    'https://scamsavvy.example',
  );
  app = await createApp({ config: testConfig(), store, messaging, serveSite: false, logger: false });
  await store.add({ name: 'Rosa <b>Díaz</b>', phone: '+15551234567', email: 'rosa@example.com', betaTesting: true });
  const subscriber = await store.messaging.subscriberByEmailKey('rosa@example.com');
  return { app, store, id: subscriber?.id ?? '' };
}

/** What the store holds about this person, to compare before and after. */
async function snapshot(store: SignupStore, id: string) {
  return { subscriber: await store.messaging.subscriber(id), history: await store.messaging.history(id) };
}

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe('GET never changes anything', () => {
  it('the confirm, preferences, delete-question and unsubscribe pages, and their HEADs', async () => {
    const { app, store, id } = await setUp();
    const before = await snapshot(store, id);
    const manage = links.sign('manage', id);
    const urls = [
      `/confirm/${links.sign('confirm', id)}`,
      `/preferences/${manage}`,
      `/preferences/${manage}?done=saved`,
      `/preferences/${manage}?done=deleted`,
      `/unsubscribe/${manage}`,
    ];
    for (const url of urls) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(200);
      }
    }
    // Paths that only take a POST answer a GET with the 404 JSON, never with an action.
    for (const url of [`/preferences/${manage}/leave`, `/preferences/${manage}/delete`]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    expect(await snapshot(store, id)).toEqual(before);
  });

  it('sends no-store, noindex and no-referrer, and shows neither the name nor the whole email', async () => {
    const { app, id } = await setUp();
    const response = await app.inject({ method: 'GET', url: `/preferences/${links.sign('manage', id)}` });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).not.toMatch(/Rosa|Díaz|rosa@example\.com/);
    expect(response.body).toContain(maskEmail('rosa@example.com'));
    expect(response.body).toContain('4567');
    expect(response.body).not.toMatch(/<script/i);
  });
});

describe('POST acts', () => {
  it('confirm: once, recorded, then the page says so', async () => {
    const { app, store, id } = await setUp();
    const url = `/confirm/${links.sign('confirm', id)}`;
    const pressed = await app.inject({ method: 'POST', url, ...form({}) });
    expect(pressed.statusCode).toBe(303);
    expect(pressed.headers.location).toBe(url);
    expect((await store.messaging.subscriber(id))?.confirmedAt).not.toBeNull();
    await app.inject({ method: 'POST', url, ...form({}) });
    expect((await store.messaging.history(id)).filter((event) => event.kind === 'confirmed')).toHaveLength(1);
    expect((await app.inject({ method: 'GET', url })).body).toContain('You are confirmed');
  });

  it('preferences: each box turns its channel on or off, and each change is recorded', async () => {
    const { app, store, id } = await setUp();
    const url = `/preferences/${links.sign('manage', id)}`;
    const saved = await app.inject({ method: 'POST', url, ...form({ email: 'on' }) });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${url}?done=saved`);
    const after = await store.messaging.subscriber(id);
    expect(after).toMatchObject({ emailOptOutAt: null, betaTesting: false });
    expect(after?.smsOptOutAt).not.toBeNull();
    expect((await store.messaging.history(id)).map((event) => [event.kind, event.source])).toEqual([
      ['signed_up', 'signup_form'],
      ['sms_off', 'preferences_page'],
      ['beta_off', 'preferences_page'],
    ]);
    const page = await app.inject({ method: 'GET', url: `${url}?done=saved` });
    expect(page.body).toMatch(/role="status"[^>]*>Saved/);
    await app.inject({ method: 'POST', url, ...form({ email: 'on', sms: 'on' }) });
    expect((await store.messaging.subscriber(id))?.smsOptOutAt).toBeNull();
  });

  it('leave: off the list, both addresses suppressed, and the page says so', async () => {
    const { app, store, id } = await setUp();
    const url = `/preferences/${links.sign('manage', id)}`;
    const left = await app.inject({ method: 'POST', url: `${url}/leave`, ...form({}) });
    expect(left.headers.location).toBe(`${url}?done=left`);
    expect((await store.messaging.subscriber(id))?.leftAt).not.toBeNull();
    const hash = createAddressHasher(KEY).hash('email', 'rosa@example.com');
    expect(await store.messaging.isSuppressed('email', hash, '2000-01-01T00:00:00.000Z')).toBe(true);
    expect((await app.inject({ method: 'GET', url: `${url}?done=left` })).body).toContain('You have left the list');
  });

  it('delete: asks first, then deletes everything but the suppression hashes', async () => {
    const { app, store, id } = await setUp();
    const url = `/preferences/${links.sign('manage', id)}`;
    const asked = await app.inject({ method: 'POST', url: `${url}/delete`, ...form({}) });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('Yes, delete my details');
    expect(await store.messaging.subscriber(id)).toBeDefined();

    const deleted = await app.inject({ method: 'POST', url: `${url}/delete`, ...form({ confirm: 'yes' }) });
    expect(deleted.headers.location).toBe(`${url}?done=deleted`);
    expect(await store.messaging.subscriber(id)).toBeUndefined();
    expect(await store.messaging.history(id)).toEqual([]);
    expect(await store.count()).toBe(0);
    const hash = createAddressHasher(KEY).hash('phone', '+15551234567');
    expect(await store.messaging.isSuppressed('phone', hash, '2000-01-01T00:00:00.000Z')).toBe(true);
    expect((await app.inject({ method: 'GET', url: `${url}?done=deleted` })).body).toContain(
      'We have deleted your details',
    );
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('one-click unsubscribe (RFC 8058): a form or multipart POST with no cookie stops email and answers 200', async () => {
    const { app, store, id } = await setUp();
    const url = `/unsubscribe/${links.sign('manage', id)}`;
    const oneClick = await app.inject({ method: 'POST', url, ...form({ 'List-Unsubscribe': 'One-Click' }) });
    expect(oneClick.statusCode).toBe(200);
    const after = await store.messaging.subscriber(id);
    expect(after?.emailOptOutAt).not.toBeNull();
    expect(after?.smsOptOutAt).toBeNull();
    expect((await store.messaging.history(id)).at(-1)).toMatchObject({
      kind: 'email_off',
      source: 'one_click_unsubscribe',
    });

    await store.messaging.updatePreferences(id, { email: true }, 'preferences_page');
    const boundary = 'XyZ';
    const multipart = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.statusCode).toBe(200);
    expect((await store.messaging.subscriber(id))?.emailOptOutAt).not.toBeNull();
  });
});

describe('after a STOP text', () => {
  it('the preferences page shows texts off and says only START brings them back, even after a new sign-up', async () => {
    const { app, store, id } = await setUp();
    const subscriptions = new Subscriptions(store.messaging, createAddressHasher(KEY));
    const url = `/preferences/${links.sign('manage', id)}`;
    const textBox = /<input type="checkbox" name="sms"( checked="")? value="on"\/>/;
    expect((await app.inject({ method: 'GET', url })).body.match(textBox)?.[1]).toBe(' checked=""');

    await subscriptions.stopTexts('+15551234567');
    // The same email signs up again (new consent on the page), but the number said STOP.
    await store.add({ name: 'Rosa', phone: '5551234567', email: 'rosa@example.com', betaTesting: false });
    const page = (await app.inject({ method: 'GET', url })).body;
    expect(page.match(textBox)?.[1]).toBeUndefined();
    expect(page).toContain('reply START');

    await subscriptions.startTexts('+15551234567');
    const after = (await app.inject({ method: 'GET', url })).body;
    expect(after.match(textBox)?.[1]).toBe(' checked=""');
    expect(after).not.toContain('reply START');
  });
});

describe('a link that is not ours', () => {
  it('is refused with 404 and changes nothing: altered, cut short, or made for another purpose', async () => {
    const { app, store, id } = await setUp();
    const before = await snapshot(store, id);
    const manage = links.sign('manage', id);
    const altered = `${manage.slice(0, 30)}${manage[30] === 'A' ? 'B' : 'A'}${manage.slice(31)}`;
    const other = createLinkSigner(`${KEY}-other`).sign('manage', id);
    for (const token of [altered, manage.slice(0, -1), other, links.sign('confirm', id)]) {
      for (const [method, url] of [
        ['GET', `/preferences/${token}`],
        ['POST', `/preferences/${token}`],
        ['POST', `/preferences/${token}/leave`],
        ['POST', `/preferences/${token}/delete`],
        ['POST', `/unsubscribe/${token}`],
      ] as const) {
        const response = await app.inject({ method, url, ...form({ confirm: 'yes' }) });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    expect((await app.inject({ method: 'POST', url: `/confirm/${manage}`, ...form({}) })).statusCode).toBe(404);
    expect(await snapshot(store, id)).toEqual(before);
  });

  it('the JSON API still refuses form bodies', async () => {
    const { app } = await setUp();
    const response = await app.inject({ method: 'POST', url: '/api/signups', ...form({ name: 'x' }) });
    expect(response.statusCode).toBe(415);
  });
});
