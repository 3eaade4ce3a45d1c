// Launch day's recovery in the dashboard, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: a
// channel a failure of ours paused, shown with its reason on the list, the broadcast's page and the
// progress its script polls; and "Try the failed ones again", which queues exactly the failed
// messages (the unreachable ones only when ticked), writes the audit log, and needs an owner. The
// failures are written through the outbox as a sender records them: nothing is sent here.
import { createMessagingCore } from '../compose-messaging.js';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startSmtpSink } from '../test/smtp-sink.js';
import type { ReadyCheck } from '../ready/ready-check.js';
import { createBroadcastControl } from '../compose.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/open-database.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import { buildTestApp } from '../test/build-test-app.js';
import { createFolderSmsProvider } from '../messaging/folder-sms-provider.js';
import { ann, rosa } from '../test/people.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { storeEngines, suiteName, type StoreEngine } from '../test/store-engines.js';

import { SITE } from '../test/site.js';
const SAME_ORIGIN = { origin: SITE };
const REASON = 'The mail server refused our sign-in: check the password in SMTP_URL, then resume.';
const ANSWER = '535 5.7.8 Authentication credentials invalid';

/** The page's markup for a text (React escapes quotes and the like). */
const escaped = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

async function setUp(engine: StoreEngine, { control = true } = {}) {
  // With SECRET_KEY the product has its launch-day control; without, the dashboard says so.
  const { app, db } = await buildTestApp({
    engine,
    config: { siteUrl: SITE, ...(control ? { messaging: { secretKey: 'k'.repeat(40) } } : {}) },
  });
  const cookie = { cookie: await signInAsOwner(app, db) };
  return { app, db, cookie };
}

/**
 * "launch" (email and texts) to three people, sending: on email one sent, one failed "for now" and
 * given up, one the provider said cannot be reached; the texts wait. Returns the email rows' ids.
 */
async function launchWithFailures(
  db: Db,
): Promise<{ broadcast: Broadcast; sent: number; gaveUp: number; unreachable: number }> {
  const people: string[] = [];
  for (const person of [rosa, ann, { ...ann, email: 'sam@example.com', phone: '+15550001111', name: 'Sam' }]) {
    await db.signups.add(person);
    const subscriber = await db.subscribers.subscriberByEmailKey(person.email);
    if (!subscriber) throw new Error(`${person.email} was not stored`);
    people.push(subscriber.id);
  }
  const broadcast = await db.broadcasts.create({
    name: 'launch',
    template: 'launch',
    segment: 'all',
    channels: ['email', 'sms'],
    confirmation: 'everyone',
    content: { subject: 'It is here', text: 'Text', html: '<p>HTML</p>', sms: 'SMS' },
  });
  if (!broadcast) throw new Error('launch was not created');
  await db.outbox.enqueue(
    broadcast.id,
    people.flatMap((signupId) => [
      { signupId, channel: 'email' as const },
      { signupId, channel: 'sms' as const },
    ]),
  );
  await db.broadcasts.setState(broadcast.id, 'sending', ['ready']);
  const sender = randomUUID();
  // A sender alive in this process (as a dashboard send runs one), so the broadcast is sending, not stopped.
  await db.broadcastSenders.registerSender(
    { id: sender, broadcastId: broadcast.id, host: hostname(), pid: process.pid },
    () => false,
  );
  const [sent, gaveUp, unreachable] = await db.outbox.claim({ broadcastId: broadcast.id, channel: 'email' }, sender, 3);
  if (!sent || !gaveUp || !unreachable) throw new Error('the email rows were not claimed');
  await db.outbox.record(sender, [
    { id: sent.id, result: 'sent', providerId: '<1@scamsavvy.example>' },
    { id: gaveUp.id, result: 'temporary', retryAt: null, kind: 'message', error: '421 busy' },
    { id: unreachable.id, result: 'permanent', kind: 'recipient', error: '550 5.1.1 no such user' },
  ]);
  // As the sender does beside it: the address is marked undeliverable (a lift would let retry reach it).
  const { subscriptions } = createMessagingCore({ secretKey: 'k'.repeat(40) }, db);
  await subscriptions.markUndeliverable((await db.subscribers.subscriber(unreachable.signupId))!, 'email');
  return { broadcast, sent: sent.id, gaveUp: gaveUp.id, unreachable: unreachable.id };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(suiteName('The launch-day pages', engine), () => {
    it('show a paused channel and its reason on the list, on the broadcast’s page with Resume, and in the progress', async () => {
      const { app, db, cookie } = await setUp(engine);
      const { broadcast } = await launchWithFailures(db);
      await db.broadcastPauses.pauseChannel(broadcast.id, 'email', { cause: 'sender', reason: REASON, answer: ANSWER });

      const list = await app.inject({ url: '/owner/broadcasts', headers: cookie });
      expect(list.body).toContain(`<strong>Email paused:</strong> ${escaped(REASON)}`);
      expect(list.body).not.toContain('Text messages paused');

      const page = await app.inject({ url: '/owner/broadcasts/launch', headers: cookie });
      expect(page.statusCode).toBe(200);
      // In words, not colour alone: which channel, since when (UTC), why, and the provider's answer quoted.
      const [pausedAt] = (await db.broadcastPauses.channelPauses(broadcast.id)).map((pause) => pause.pausedAt);
      expect(page.body).toContain(
        `<div class="notice notice--error notice--pause" data-pause-channel="email"><h2>Email paused since <time data-pause-field="since" dateTime="${pausedAt}">${pausedAt?.slice(0, 16).replace('T', ' ')}</time> UTC</h2>`,
      );
      expect(page.body).toContain(`<p data-pause-field="reason">${escaped(REASON)}</p>`);
      expect(page.body).toContain(`<q data-pause-field="answer">${ANSWER}</q>`);
      // The texts' notice is there for the script to show, hidden; both sit in a polite live region.
      expect(page.body).toMatch(/<div class="pauses" aria-live="polite" data-pauses="">/);
      expect(page.body).toContain('data-pause-channel="sms" hidden=""');
      // Resume stays within reach while sending goes on for the texts (Pause too).
      expect(page.body).toMatch(
        /<a class="button button--primary" href="\/owner\/broadcasts\/launch\/resume">Resume sending…<\/a>/,
      );
      expect(page.body).toContain('href="/owner/broadcasts/launch/pause"');
      // Its question says the paused channel goes on too, after the providers are asked.
      const question = await app.inject({ url: '/owner/broadcasts/launch/resume', headers: cookie });
      expect(question.body).toContain('The paused channels go on too.');

      const progress = await app.inject({ url: '/owner/broadcasts/launch/progress', headers: cookie });
      expect(progress.json()).toMatchObject({
        state: 'sending',
        pauses: [{ channel: 'email', reason: REASON, answer: ANSWER, pausedAt }],
        fields: { eta: 'waiting for resume' },
      });

      // Lifted (as a resume from the terminal does): the progress says so, and the page shows no notice.
      await db.broadcastPauses.clearPauses(broadcast.id);
      expect((await app.inject({ url: '/owner/broadcasts/launch/progress', headers: cookie })).json()).toMatchObject({
        pauses: [],
      });
      const after = await app.inject({ url: '/owner/broadcasts/launch', headers: cookie });
      expect(after.body).toContain('data-pause-channel="email" hidden=""');
      expect(after.body).toContain('data-pause-next="" hidden=""');
      expect((await app.inject({ url: '/owner/broadcasts', headers: cookie })).body).not.toContain('Email paused');
    });

    it('ask first, listing what “Try the failed ones again” would queue per channel and reason', async () => {
      const { app, db, cookie } = await setUp(engine);
      const { broadcast } = await launchWithFailures(db);
      const page = await app.inject({ url: '/owner/broadcasts/launch', headers: cookie });
      expect(page.body).toContain('href="/owner/broadcasts/launch/retry">Try the failed ones again…</a>');
      expect(page.body).toContain(
        '1 message failed by no fault of the person’s and can go again. 1 message failed because the provider said the address or number cannot be reached.',
      );

      const question = await app.inject({ url: '/owner/broadcasts/launch/retry', headers: cookie });
      expect(question.statusCode).toBe(200);
      expect(question.body).toContain('<h1>Try the failed messages of “launch” again?</h1>');
      // Each group as the control plans it: the channel, the reason in words, the count.
      const plan = await createBroadcastControl(
        loadConfig({ SITE_URL: SITE, SECRET_KEY: 'k'.repeat(40) }),
        db,
      ).failed.plan(broadcast);
      expect(plan).toMatchObject({ retryable: 1, undeliverable: 1 });
      for (const group of plan.groups)
        expect(question.body).toContain(
          `<tr><td class="word">Emails</td><td>${escaped(group.reason)}</td><td class="number">${group.count}</td></tr>`,
        );
      // Inside the POST's form: a checkbox, unticked, whose label says how many and when to tick it.
      const formAt = question.body.indexOf('<form action="/owner/broadcasts/launch/retry" method="post">');
      expect(formAt).toBeGreaterThan(0);
      const form = question.body.slice(formAt);
      expect(form).toMatch(/<label class="choice"><input type="checkbox"[^>]* name="undeliverable" value="yes"\/>/);
      expect(form).not.toContain('checked');
      expect(form).toContain(
        '<span>Also send again to the 1 address or number the provider said cannot be reached (only if you believe that answer was wrong)</span></label>',
      );
      // Asking changes nothing.
      expect((await db.outbox.failedMessages(broadcast.id)).length).toBe(2);
    });

    it('queue exactly the failed messages again, the unreachable one only when ticked, and write each in the audit log', async () => {
      const { app, db, cookie } = await setUp(engine);
      const { broadcast, gaveUp, unreachable } = await launchWithFailures(db);
      const retry = (fields: Record<string, string> = {}) =>
        app.inject({
          method: 'POST',
          url: '/owner/broadcasts/launch/retry',
          headers: { ...cookie, ...SAME_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        });

      const first = await retry();
      expect(first.statusCode).toBe(303);
      expect(first.headers.location).toBe('/owner/broadcasts/launch?done=retry&queued=1&left=1');
      // The one that gave up is queued again as if never tried; the unreachable one and the sent one stay.
      expect((await db.outbox.failedMessages(broadcast.id)).map((message) => message.id)).toEqual([unreachable]);
      expect(await db.outbox.counts(broadcast.id, 'email')).toMatchObject({
        sent: 1,
        queued: 1,
        failed_temporary: 0,
        failed_permanent: 1,
      });
      expect(
        (await db.outbox.claim({ broadcastId: broadcast.id, channel: 'email' }, randomUUID(), 5)).map(
          (message) => message.id,
        ),
      ).toEqual([gaveUp]);
      // The texts, never tried, are untouched.
      expect(await db.outbox.counts(broadcast.id, 'sms')).toMatchObject({ queued: 3, total: 3 });
      const shown = await app.inject({ url: first.headers.location ?? '', headers: cookie });
      expect(shown.body).toContain('Queued again: 1 message. The sender running now sends them.');
      expect(shown.body).toContain(
        'Not queued: 1 message whose address or number the provider said cannot be reached.',
      );

      const second = await retry({ undeliverable: 'yes' });
      expect(second.headers.location).toBe('/owner/broadcasts/launch?done=retry&queued=1&left=0');
      expect(await db.outbox.failedMessages(broadcast.id)).toEqual([]);
      expect(await db.outbox.counts(broadcast.id, 'email')).toMatchObject({ sent: 1, failed_permanent: 0 });

      expect((await db.owners.auditLog(2)).map((entry) => [entry.action, entry.subject, entry.detail])).toEqual([
        [
          'broadcast',
          'launch',
          'Tried the failed ones again: queued 1 message; 1 the provider said cannot be reached included',
        ],
        [
          'broadcast',
          'launch',
          'Tried the failed ones again: queued 1 message; 1 the provider said cannot be reached left out',
        ],
      ]);

      // Nothing failed is left: no button, and the question says there is nothing to try again.
      expect((await app.inject({ url: '/owner/broadcasts/launch', headers: cookie })).body).not.toContain(
        'Try the failed ones again',
      );
      const nothing = await app.inject({ url: '/owner/broadcasts/launch/retry', headers: cookie });
      expect(nothing.body).toContain('Nothing failed by a fault of ours: there is nothing to try again.');
      const third = await retry();
      expect(third.headers.location).toBe('/owner/broadcasts/launch?done=retry&queued=0&left=0');
      expect((await app.inject({ url: third.headers.location ?? '', headers: cookie })).body).toContain(
        'Nothing to queue again: no message failed by a fault of ours.',
      );
    });

    it('refuse to try again without an owner session, or from another site, and change nothing', async () => {
      const { app, db, cookie } = await setUp(engine);
      const { broadcast } = await launchWithFailures(db);
      const before = await db.outbox.failedMessages(broadcast.id);
      const post = (headers: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: '/owner/broadcasts/launch/retry',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          payload: 'undeliverable=yes',
        });
      for (const headers of [SAME_ORIGIN, { ...SAME_ORIGIN, cookie: 'scamsavvy_owner=not-a-session' }]) {
        const refused = await post(headers);
        expect(refused.statusCode).toBe(303);
        expect(refused.headers.location).toBe('/owner/sign-in');
      }
      const anonymousQuestion = await app.inject({ url: '/owner/broadcasts/launch/retry' });
      expect(anonymousQuestion.headers.location).toBe('/owner/sign-in');
      expect((await post({ ...cookie, origin: 'https://evil.example' })).statusCode).toBe(403);
      expect(await db.outbox.failedMessages(broadcast.id)).toEqual(before);
      expect((await db.owners.auditLog(5)).map((entry) => entry.action)).toEqual(['signed_in']);
    });

    it('list held messages masked with their answer; the question ticks held ones apart', async () => {
      const { app, db, cookie } = await setUp(engine);
      const { broadcast } = await launchWithFailures(db);
      const [held, refused] = await db.outbox.claim({ broadcastId: broadcast.id, channel: 'sms' }, 'a-sender', 2);
      await db.outbox.record('a-sender', [
        {
          id: held!.id,
          result: 'temporary',
          kind: 'sender',
          error: 'Twilio answered 400: refused',
          retryAt: null,
          mark: 'held',
        },
      ]);
      if (refused) await db.outbox.record('a-sender', [{ id: refused.id, result: 'sent', providerId: 'SM2' }]);
      const page = (await app.inject({ url: '/owner/broadcasts/launch', headers: cookie })).body;
      expect(page).toContain('<h2 id="held-heading">Held messages</h2>');
      expect(page).toMatch(/a phone ending \d{4}/);
      expect(page).toContain('Twilio answered 400: refused');
      const question = (await app.inject({ url: '/owner/broadcasts/launch/retry', headers: cookie })).body;
      expect(question).toContain('Also send the 1 held message again (I have fixed what held them)');
    });

    it('say only counts the server put in the address, and offer no retry where nothing can be sent', async () => {
      const { app, db, cookie } = await setUp(engine, { control: false });
      await launchWithFailures(db);
      const crafted = await app.inject({
        url: '/owner/broadcasts/launch?done=retry&queued=1%20Call%20555-0100&left=2',
        headers: cookie,
      });
      expect(crafted.statusCode).toBe(200);
      expect(crafted.body).not.toContain('555-0100');
      expect(crafted.body).not.toContain('Queued again');
      // Without SECRET_KEY the page says why nothing can be sent, and the question leads back to it.
      const page = await app.inject({ url: '/owner/broadcasts/launch', headers: cookie });
      expect(page.body).toContain('SECRET_KEY is not set');
      expect(page.body).not.toContain('Try the failed ones again');
      const question = await app.inject({ url: '/owner/broadcasts/launch/retry', headers: cookie });
      expect(question.statusCode).toBe(303);
      expect(question.headers.location).toBe('/owner/broadcasts/launch');
    });
  });
}

describe('a rehearsal on the launch day page', () => {
  it('lists what the folder transports wrote instead of sending, newest first, and says nothing leaves', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'rehearsal-'));
    const { app, db } = await buildTestApp({
      engine: storeEngines[0]!,
      config: {
        siteUrl: SITE,
        messaging: {
          secretKey: 'k'.repeat(40),
          email: { folder: path.join(folder, 'email'), from: 'ScamSavvy <hello@scamsavvy.example>' },
          sms: { provider: 'folder', folder: path.join(folder, 'texts') },
        },
      },
    });
    const cookie = { cookie: await signInAsOwner(app, db) };
    const texts = createFolderSmsProvider(path.join(folder, 'texts'));
    await texts.send({ to: '+15550001111', body: 'one' });
    await texts.send({ to: '+15550001112', body: 'two' });
    const page = (await app.inject({ url: '/owner/broadcasts', headers: cookie })).body;
    expect(page).toContain('A rehearsal: nothing leaves this computer');
    expect(page).toContain(escaped(`Emails: 0 messages in ${path.join(folder, 'email')}`));
    expect(page).toContain(escaped(`Text messages: 2 messages in ${path.join(folder, 'texts')}`));
    const listed = [...page.matchAll(/<td>([\d-]+T[\d-]+Z-\d{7}-[0-9a-f]{6}\.json)<\/td>/g)].map((match) => match[1]);
    expect(listed).toEqual([...(await readdir(path.join(folder, 'texts')))].sort().reverse());
    expect(listed).toHaveLength(2);
    // Without the folder transports, no such section.
    const plain = await setUp(storeEngines[0]!);
    expect((await plain.app.inject({ url: '/owner/broadcasts', headers: plain.cookie })).body).not.toContain(
      'A rehearsal',
    );
  });
});

describe('the Send question while a launch check is red', () => {
  it('names the red checks, refuses without the box ticked, and sends with it, saying so in the audit log', async () => {
    const smtp = await startSmtpSink();
    onTestFinished(() => smtp.stop());
    const red: ReadyCheck = {
      id: 'mail-dmarc',
      area: 'mail',
      level: 'red',
      title: 'DMARC for scamsavvy.example',
      found: 'no DMARC record at _dmarc.scamsavvy.example',
      fix: 'Publish a TXT record at _dmarc.scamsavvy.example',
    };
    const { app, db } = await buildTestApp({
      engine: storeEngines[0]!,
      config: {
        siteUrl: SITE,
        messaging: {
          secretKey: 'k'.repeat(40),
          email: { smtpUrl: smtp.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
        },
      },
      overrides: {
        readiness: async () => [red, { ...red, id: 'texts-on', level: 'amber', title: 'Texts are set up' }],
      },
    });
    const cookie = { cookie: await signInAsOwner(app, db) };
    await db.broadcasts.create({
      name: 'launch',
      template: 'launch',
      segment: 'all',
      channels: ['email'],
      confirmation: 'everyone',
      content: { subject: 'It is here', text: 'Text', html: '<p>HTML</p>', sms: 'SMS' },
    });
    const question = (await app.inject({ url: '/owner/broadcasts/launch/send', headers: cookie })).body;
    expect(question).toContain('Not ready for launch: these checks are red.');
    expect(question).toContain(escaped('DMARC for scamsavvy.example: no DMARC record at _dmarc.scamsavvy.example'));
    expect(question).not.toContain('Texts are set up');
    expect(question).toMatch(/<input type="checkbox" required="" name="not-ready" value="yes"\/>/);
    const send = (payload: string) =>
      app.inject({
        method: 'POST',
        url: '/owner/broadcasts/launch/send',
        headers: { ...cookie, ...SAME_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    const refused = await send('');
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Not ready for launch: DMARC for scamsavvy.example');
    expect(await db.broadcasts.state((await db.broadcasts.get('launch'))!.id)).toBe('ready');
    const sent = await send('not-ready=yes');
    expect(sent.statusCode).toBe(303);
    const [entry] = await db.owners.auditLog(1);
    expect(entry).toMatchObject({
      action: 'broadcast',
      subject: 'launch',
      detail: expect.stringContaining('sent although not ready: DMARC for scamsavvy.example'),
    });
  });
});
