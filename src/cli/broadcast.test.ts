// The owner's broadcast command, run in-process against a temporary SQLite database and a real
// SMTP server on loopback: what it says, what it sends, and how it refuses.
import { createMessagingCore } from '../server/compose-messaging.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../server/db/open-database.js';
import { openSqlite } from '../server/db/sqlite-shared.js';
import { startSmtpSink, type SmtpSink } from '../server/test/smtp-sink.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { main } from './broadcast.js';
import { runCommand } from '../server/test/run-command.js';
import { machineClock } from '../server/test/clock.js';

let file: string;
let sink: SmtpSink;

const run = (...argv: string[]) => runCommand(main, argv);

async function addPeople(count: number): Promise<string[]> {
  const store = await openDatabase({ kind: 'sqlite', file: file });
  const emails = Array.from({ length: count }, (_, index) => `person${index}@example.com`);
  for (const [index, email] of emails.entries())
    await store.signups.add({
      name: `Person ${index}`,
      email,
      phone: `+1555010${String(index).padStart(4, '0')}`,
      betaTesting: false,
    });
  await store.close();
  return emails;
}

beforeEach(async () => {
  file = tempDatabaseFile();
  sink = await startSmtpSink();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  vi.stubEnv('SECRET_KEY', 'test-secret-key-that-is-at-least-32-characters');
  vi.stubEnv('SITE_URL', 'https://scamsavvy.example');
  vi.stubEnv('SMTP_URL', sink.url);
  vi.stubEnv('MAIL_FROM', 'ScamSavvy <news@scamsavvy.example>');
  vi.stubEnv('MAIL_POSTAL_ADDRESS', '100 Example Street, Springfield, IL 62701');
  vi.stubEnv('EMAIL_CONFIRMATION', 'off');
  vi.stubEnv('APP_STORE_URL', 'https://apps.apple.com/app/id000000');
  vi.stubEnv('PLAY_STORE_URL', 'https://play.google.com/store/apps/details?id=example.app');
  vi.stubEnv('BROADCAST_EMAIL_RATE', '1000');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await sink.stop();
});

describe('sudo scamsavvy broadcast', () => {
  it('creates, previews, tests, sends once and reports, as the runbook says', async () => {
    const emails = await addPeople(5);
    const created = await run('create', '--name', 'launch', '--template', 'launch');
    expect(created.code).toBe(0);
    expect(created.out).toContain('5 people will get the email.');
    expect(created.out).toContain('  by language: English 5');

    const out = path.join(path.dirname(file), 'preview.html');
    const preview = await run('preview', 'launch', '--out', out);
    expect(preview.code).toBe(0);
    // Both languages, English first (issue 45): each person gets the one of the page they signed up on.
    expect(preview.out).toMatch(/^== In English: [^\n]*==\n\nSubject: ScamSavvy is here/);
    expect(preview.out).toContain(
      '\n== In Spanish: for people who signed up on the Spanish page ==\n\nSubject: Ya está aquí ScamSavvy',
    );
    expect(preview.out).toContain('https://scamsavvy.example/app/ios');
    expect(preview.out.match(/Text message \(\d+ characters, 1 SMS segment, GSM-7\)/g)).toHaveLength(2);
    expect(existsSync(out) && readFileSync(out, 'utf8')).toMatch(/^<!doctype html>\n<html lang="en"/);
    const spanishFile = path.join(path.dirname(file), 'preview-es.html');
    expect(existsSync(spanishFile) && readFileSync(spanishFile, 'utf8')).toMatch(/^<!doctype html>\n<html lang="es"/);

    const test = await run('test', 'launch', '--to', 'owner@example.com');
    expect(test.code).toBe(0);
    const testMail = await sink.waitFor((mail) => mail.envelope.to.includes('owner@example.com'));
    expect(testMail.parsed.subject).toMatch(/^\[Test\] ScamSavvy is here/);
    // In the audit log, masked, as the dashboard's test is (the launch checks read it).
    const audit = await openDatabase({ kind: 'sqlite', file: file });
    expect((await audit.owners.auditLog(1))[0]).toMatchObject({
      action: 'broadcast',
      subject: 'launch',
      detail: expect.stringMatching(/^Sent a test to o\S*@example\.com$/),
    });
    await audit.close();

    const sent = await run('send', 'launch', '--not-ready');
    expect(sent.code).toBe(0);
    expect(sent.out).toContain('Finished: nothing is left to send.');
    for (const email of emails) await sink.waitFor((mail) => mail.envelope.to.includes(email));
    const toPeople = sink.messages().filter((mail) => !mail.envelope.to.includes('owner@example.com'));
    expect(toPeople.map((mail) => mail.envelope.to[0]).sort()).toEqual([...emails].sort());

    const status = await run('status', 'launch');
    expect(status.out).toMatch(/Broadcast "launch": launch, finished/);
    expect(status.out).toMatch(/^ {2}sent +5 {2}accepted by the provider$/m);
    expect((await run('list')).out).toMatch(/^launch +launch +finished +5 sent of 5/m);

    // Again: nothing more goes out.
    const again = await run('send', 'launch', '--not-ready');
    expect(again.out).toContain('has finished: nothing is left to send.');
    expect(sink.messages()).toHaveLength(6);
  });

  it('rehearses launch day with no account: every email and text written to its folder, and nothing sent', async () => {
    const emails = await addPeople(3);
    const folders = path.join(path.dirname(file), 'rehearsal');
    vi.stubEnv('SMTP_URL', '');
    vi.stubEnv('MAIL_FROM', '');
    vi.stubEnv('SITE_URL', '');
    vi.stubEnv('MAIL_TRANSPORT', `folder:${folders}/email`);
    vi.stubEnv('SMS_TRANSPORT', `folder:${folders}/texts`);
    vi.stubEnv('SMS_CONFIRMATION', 'notice');
    // Each number was sent its joining text (the server's job does it): with notice, that is its yes.
    const store = await openDatabase({ kind: 'sqlite', file: file });
    for (const email of emails) {
      const person = (await store.subscribers.subscriberByEmailKey(email.toLowerCase()))!;
      await store.joiningTexts.texted(person.id, person.phone);
    }
    await store.close();
    const created = await run('create', '--name', 'launch', '--template', 'launch');
    expect(created.code).toBe(0);
    expect(created.out).toContain('3 people will get the email.');

    // Never into the checkout: a temporary folder, named as a file:// address any system opens.
    const preview = await run('preview', 'launch');
    expect(preview.code).toBe(0);
    const shown = /open (file:\/\/\S+) in a browser/.exec(preview.out)?.[1];
    expect(shown).toBeDefined();
    const previewFile = fileURLToPath(shown!);
    expect(previewFile.startsWith(tmpdir())).toBe(true);
    expect(readFileSync(previewFile, 'utf8')).toMatch(/^<!doctype html>/);

    expect((await run('test', 'launch', '--to', 'owner@example.com')).code).toBe(0);
    const sent = await run('send', 'launch', '--not-ready');
    expect(sent.code).toBe(0);
    expect(sent.out).toContain('Finished: nothing is left to send.');
    expect(sink.messages()).toHaveLength(0);

    const written = readdirSync(path.join(folders, 'email')).sort();
    expect(written).toHaveLength(4);
    const parsed = await Promise.all(
      written.map((name) => simpleParser(readFileSync(path.join(folders, 'email', name)))),
    );
    const to = parsed.map((mail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.text);
    expect(to.sort()).toEqual(['owner@example.com', ...emails].sort());
    const person = parsed.find((mail) => !/^\[Test\]/.test(mail.subject ?? ''))!;
    expect(person.subject).toMatch(/^ScamSavvy is here/);
    expect(person.headerLines.map((header) => header.line)).toContain(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    expect(person.html).toMatch(/>localhost(:\d+)?\/app\/ios</);

    const texts = readdirSync(path.join(folders, 'texts')).map(
      (name) => JSON.parse(readFileSync(path.join(folders, 'texts', name), 'utf8')) as { to: string; body: string },
    );
    const launchTexts = texts.filter((text) => /our app is ready/.test(text.body));
    expect(launchTexts.map((text) => text.to).sort()).toEqual(['+15550100000', '+15550100001', '+15550100002']);
    expect((await run('status', 'launch')).out).toMatch(/^ {2}sent +3 {2}accepted by the provider$/m);
  });

  it('refuses a first send while a launch check is red, naming each; --not-ready goes, and the audit log says so', async () => {
    await addPeople(2);
    await run('create', '--name', 'launch', '--template', 'launch');
    // No one's domain: no SPF or DMARC record, no owner, no backups (sudo scamsavvy ready lists the same).
    const refused = await run('send', 'launch');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^Not ready for launch: .*SPF for scamsavvy\.example \(no SPF record/m);
    expect(refused.err).toContain('An owner can sign in to the dashboard (no owner yet)');
    expect(refused.err).toContain('sudo scamsavvy broadcast send launch --not-ready (recorded in the audit log)');
    expect(sink.messages()).toHaveLength(0);
    const sent = await run('send', 'launch', '--not-ready');
    expect(sent.code).toBe(0);
    expect(sent.out).toMatch(
      /^Sending although these launch checks are red \(--not-ready, recorded in the audit log\): .*SPF/m,
    );
    await sink.waitFor((mail) => mail.envelope.to.includes('person1@example.com'));
    const store = await openDatabase({ kind: 'sqlite', file });
    const [entry] = await store.owners.auditLog(5);
    await store.close();
    expect(entry).toMatchObject({
      ownerEmail: 'the command line (sudo scamsavvy broadcast)',
      action: 'broadcast',
      subject: 'launch',
      detail: expect.stringMatching(/^Sent although not ready: .*SPF for scamsavvy\.example/),
    });
  });

  it('pauses, refuses to send a paused broadcast, and resumes it', async () => {
    await addPeople(3);
    await run('create', '--name', 'launch', '--template', 'launch');
    expect((await run('pause', 'launch')).out).toContain('Paused "launch"');
    const refused = await run('send', 'launch', '--not-ready');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('"launch" is paused. Go on with: sudo scamsavvy broadcast resume launch');
    expect(sink.messages()).toHaveLength(0);
    const resumed = await run('resume', 'launch');
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain('Finished');
    expect(sink.messages()).toHaveLength(3);
  });

  it('tops up with people who signed up after it was created', async () => {
    await addPeople(2);
    await run('create', '--name', 'launch', '--template', 'launch');
    await run('send', 'launch', '--not-ready');
    const store = await openDatabase({ kind: 'sqlite', file: file });
    await store.signups.add({
      name: 'Late Comer',
      email: 'late@example.com',
      phone: '+15550109999',
      betaTesting: false,
    });
    await store.close();
    const topUp = await run('top-up', 'launch');
    expect(topUp.out).toContain('1 more person will get the email (3 in all).');
    await run('send', 'launch', '--not-ready');
    expect(sink.messages().map((mail) => mail.envelope.to[0])).toEqual(
      expect.arrayContaining(['person0@example.com', 'person1@example.com', 'late@example.com']),
    );
    expect(sink.messages()).toHaveLength(3);
  });

  it('refuses bad commands with the usage and exit code 2, and impossible ones with a reason and 1', async () => {
    await addPeople(1);
    expect((await run()).code).toBe(2);
    const unknown = await run('blast');
    expect([unknown.code, unknown.err]).toEqual([2, expect.stringContaining('There is no command "blast"')]);
    const noName = await run('status');
    expect([noName.code, noName.err]).toEqual([2, expect.stringContaining('status needs the broadcast')]);
    const noTemplate = await run('create', '--name', 'launch');
    expect([noTemplate.code, noTemplate.err]).toEqual([2, expect.stringContaining('--template launch|beta')]);
    const badFlag = await run('send', 'launch', '--not-ready', '--wrokers', '2');
    expect(badFlag.code).toBe(2);
    await run('create', '--name', 'launch', '--template', 'launch');
    const badRate = await run('send', 'launch', '--not-ready', '--rate', 'fast');
    expect([badRate.code, badRate.err]).toEqual([2, expect.stringContaining('--rate must be a number above 0')]);
    const twoOnSqlite = await run('send', 'launch', '--not-ready', '--workers', '2');
    expect([twoOnSqlite.code, twoOnSqlite.err]).toEqual([1, expect.stringContaining('SQLite allows one sender')]);
    const missing = await run('status', 'lunch');
    expect([missing.code, missing.err]).toEqual([1, expect.stringContaining('no broadcast called "lunch"')]);
    expect(sink.messages()).toHaveLength(0);
  });

  it('says why a test message was refused, in the words a paused broadcast uses', async () => {
    await addPeople(1);
    await run('create', '--name', 'launch', '--template', 'launch');
    sink.rejectNext(554, '5.7.1 Sending paused for this account');
    const refused = await run('test', 'launch', '--to', 'owner@example.com');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^The test email was not sent\. .+\n {2}Its answer: ".*554.*"\n$/);
    expect(refused.err).not.toContain('owner@example.com');
    expect(sink.messages()).toHaveLength(0);
    // A "try again later" answer: one try only, so the command never promises to keep trying.
    sink.rejectNext(451, '4.3.0 Try again later');
    const later = await run('test', 'launch', '--to', 'owner@example.com');
    expect(later.code).toBe(1);
    expect(later.err).toMatch(
      /^The test email was not sent\. The mail server asked us to try again later.*: nothing more will be tried; run the test again in a few minutes\.\n/,
    );
    expect(later.err).not.toContain('keep trying');
  });

  it('shows a pause of ours in status and list, and retry queues what failed by no fault of the person', async () => {
    await addPeople(4);
    await run('create', '--name', 'launch', '--template', 'launch');
    const store = await openDatabase({ kind: 'sqlite', file });
    const broadcast = (await store.broadcasts.get('launch'))!;
    const claimed = await store.outbox.claim({ broadcastId: broadcast.id, channel: 'email' }, 'a-sender', 4);
    const [gaveUp, dead, ours, sent] = claimed;
    await store.outbox.record('a-sender', [
      { id: gaveUp!.id, result: 'temporary', kind: 'message', error: '421 4.7.0 Try again later', retryAt: null },
      { id: dead!.id, result: 'permanent', kind: 'recipient', error: '550 5.1.1 No such user' },
      { id: ours!.id, result: 'permanent', kind: 'recipient', error: 'Invalid login: 535 Authentication failed' },
      { id: sent!.id, result: 'sent', providerId: 'id-1' },
    ]);
    // As the sender does beside it: the address is marked undeliverable (a lift would let retry reach it).
    const { subscriptions } = createMessagingCore(
      { secretKey: 'test-secret-key-that-is-at-least-32-characters' },
      store,
    );
    await subscriptions.markUndeliverable((await store.subscribers.subscriber(dead!.signupId))!, 'email');
    await store.broadcastPauses.pauseChannel(broadcast.id, 'email', {
      cause: 'sender',
      reason: 'The mail server refused our sign-in: check SMTP_URL, then resume.',
      answer: '535 Authentication failed',
    });
    await store.broadcasts.setState(broadcast.id, 'paused', ['ready']);
    await store.close();
    // The third as an earlier release left it: failed for good by a 535, no kind recorded.
    const raw = openSqlite(file);
    raw.prepare('UPDATE outbox SET failure_kind = NULL WHERE id = ?').run(ours!.id);
    raw.close();

    const status = await run('status', 'launch');
    expect(status.out).toMatch(/^Email paused since \d\d:\d\d UTC: The mail server refused our sign-in/m);
    expect(status.out).toContain('  Its answer: "535 Authentication failed"');
    expect(status.out).toContain('When it is put right: sudo scamsavvy broadcast resume launch');
    expect(status.out).toContain(
      "2 failed by no fault of the person's and can go again: sudo scamsavvy broadcast retry launch",
    );
    const list = await run('list');
    expect(list.out).toMatch(/\n {21}email paused: The mail server refused our sign-in/);

    const retried = await run('retry', 'launch');
    expect(retried.code).toBe(0);
    expect(retried.out).toContain('Queued again: 2 messages.');
    expect(retried.out).toMatch(/ {2}Email, 1: .*sign-in/);
    expect(retried.out).toContain('Not queued: 1 message whose address or number the provider said cannot be reached.');
    expect(retried.out).toContain('Send them with: sudo scamsavvy broadcast resume launch');
    // Without anyone at the keyboard, the undeliverable ones need saying twice.
    const unasked = await run('retry', 'launch', '--include-undeliverable');
    expect(unasked.code).toBe(1);
    expect(unasked.err).toContain('say it once more with --yes');
    const asked = await run('retry', 'launch', '--include-undeliverable', '--yes');
    expect(asked.out).toContain('Queued again: 1 message.');

    const resumed = await run('resume', 'launch');
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toContain('Email goes on (it was paused: The mail server refused our sign-in');
    expect(resumed.out).toContain('Finished');
    expect(sink.messages()).toHaveLength(3);
    // Each went out with its token and Feedback-ID, and status says what came back.
    for (const mail of sink.messages()) {
      expect(mail.parsed.headers.get('x-scamsavvy-token')).toMatch(/^[a-z2-7]{32}$/);
      expect(mail.parsed.headers.get('feedback-id')).toBe('launch:launch:scamsavvy');
    }
    const after = await run('status', 'launch');
    expect(after.out).toContain(
      '  came back: delivered 0, bounced 0 (0%) and 0 for now, reported as spam 0 (0%); unsubscribed during the send 0',
    );
  });

  it('status lists held messages masked with their answer and the domains refusing our sending; only retry --held queues the held', async () => {
    await addPeople(3);
    await run('create', '--name', 'launch', '--template', 'launch');
    const store = await openDatabase({ kind: 'sqlite', file });
    const broadcast = (await store.broadcasts.get('launch'))!;
    const [held, refused] = await store.outbox.claim({ broadcastId: broadcast.id, channel: 'email' }, 'a-sender', 2);
    await store.outbox.record('a-sender', [
      {
        id: held!.id,
        result: 'temporary',
        kind: 'sender',
        error: '554 5.7.1 Relay access denied',
        retryAt: null,
        mark: 'held',
      },
      {
        id: refused!.id,
        result: 'temporary',
        kind: 'message',
        error: '554 5.7.1 blocked using zen.spamhaus.org',
        retryAt: new Date(machineClock.ms() + 60_000),
        refused: true,
      },
    ]);
    await store.close();

    const status = await run('status', 'launch');
    expect(status.out).toContain(
      'Refused for our sending (a block list, our reputation or volume; nobody suppressed, tried again): example.com 1',
    );
    expect(status.out).toMatch(
      /^Held: 1 \(each paused the channel twice; everyone else went on\):\n {2}Email to pe•••@example\.com: 554 5\.7\.1 Relay access denied$/m,
    );
    expect(status.out).toContain('Once what held them is fixed: sudo scamsavvy broadcast retry launch --held');
    expect(status.out).not.toMatch(/person\d@example\.com/);

    const plain = await run('retry', 'launch');
    expect(plain.out).toContain('Not queued: 1 held message');
    const withHeld = await run('retry', 'launch', '--held');
    expect(withHeld.out).toContain('Queued again: 1 message.');
    expect((await run('status', 'launch')).out).not.toContain('Held:');
  });

  it('with BOUNCE_ADDRESS each message bounces to its own signed address, and a refusal at RCPT is a bounce at once', async () => {
    vi.stubEnv('BOUNCE_ADDRESS', 'bounces@mail.example.org');
    const emails = await addPeople(3);
    sink.answerFor((to, stage) =>
      to === emails[1] && stage === 'rcpt' ? { code: 550, message: '5.1.1 No such user here' } : undefined,
    );
    await run('create', '--name', 'launch', '--template', 'launch');
    const sent = await run('send', 'launch', '--not-ready');
    expect(sent.code, sent.err).toBe(0);
    expect(sink.messages()).toHaveLength(2);
    for (const mail of sink.messages()) {
      const token = String(mail.parsed.headers.get('x-scamsavvy-token'));
      expect(mail.envelope.from).toBe(`bounces+${token}@mail.example.org`);
    }
    const store = await openDatabase({ kind: 'sqlite', file });
    try {
      const broadcast = (await store.broadcasts.get('launch'))!;
      expect(await store.messageHealth.health(broadcast.id, 'email', broadcast.startedAt)).toMatchObject({
        messages: 3,
        hardBounced: 1,
      });
    } finally {
      await store.close();
    }
  });
});
