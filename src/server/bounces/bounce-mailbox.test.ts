// The bounce mailbox against a real IMAP server: Debian's Dovecot on loopback (test/dovecot.ts),
// the reports delivered into its INBOX as a mail server would.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createMessageTokens } from '../messaging/message-tokens.js';
import { dovecotAvailable, startDovecot, type TestDovecot } from '../test/dovecot.js';
import { capturedLog, ERROR } from '../test/captured-log.js';
import { waitForMatch } from '../test/poll.js';
import { createBounceMailbox, parseImapUrl, type BounceMailboxOptions } from './bounce-mailbox.js';
import type { FeedbackEvent } from './report-event.js';
import { forged, report, REPORT_BOUNCE_ADDRESS } from './test-fixtures/reports.js';

const tokens = createMessageTokens('a test secret that is at least 32 characters long');

/** A mailbox over this Dovecot's INBOX, keeping what it hands on in `received`; stopped after the test. */
function mailbox(dovecot: TestDovecot | { url: () => string }, options: Partial<BounceMailboxOptions> = {}) {
  const received: FeedbackEvent[][] = [];
  const { lines, logger } = capturedLog();
  const bounces = createBounceMailbox({
    url: dovecot.url(),
    bounceAddress: REPORT_BOUNCE_ADDRESS,
    tokens,
    onEvents: async (events) => {
      received.push(events);
    },
    logger,
    ...options,
  });
  onTestFinished(() => bounces.stop());
  return { bounces, received, lines };
}

async function dovecot(): Promise<TestDovecot> {
  const started = await startDovecot();
  onTestFinished(() => started.stop());
  return started;
}

describe('parseImapUrl', () => {
  it('reads the user, password, host, port, mailbox and TLS from BOUNCE_IMAP_URL', () => {
    expect(parseImapUrl('imaps://bounces:p%40ss%2Fword@mail.example.org:993/INBOX')).toEqual({
      host: 'mail.example.org',
      port: 993,
      secure: true,
      requireStartTls: false,
      user: 'bounces',
      password: 'p@ss/word',
      mailbox: 'INBOX',
    });
  });

  it('defaults to port 993 for imaps://, 143 for imap://, and to INBOX', () => {
    expect(parseImapUrl('imaps://u:p@mail.example.org')).toMatchObject({ port: 993, mailbox: 'INBOX' });
    expect(parseImapUrl('imap://u:p@127.0.0.1/Bounces%20In')).toMatchObject({ port: 143, mailbox: 'Bounces In' });
  });

  it('never sends the password in the clear to another machine: imap:// there must upgrade with STARTTLS', () => {
    expect(parseImapUrl('imap://u:p@mail.example.org:143/INBOX').requireStartTls).toBe(true);
    expect(parseImapUrl('imap://u:p@localhost:1143/INBOX').requireStartTls).toBe(false);
    expect(parseImapUrl('imap://u:p@[::1]:1143/INBOX').requireStartTls).toBe(false);
  });

  it('refuses another scheme, or a URL without a user name and password, without repeating the URL', () => {
    for (const url of ['https://u:secret@mail.example.org/', 'imaps://mail.example.org/INBOX', 'not a url secret']) {
      expect(() => parseImapUrl(url)).toThrow(/bounce mailbox URL/);
      expect(() => parseImapUrl(url)).not.toThrow(/secret/);
    }
  });
});

// Each test starts its own Dovecot (and may stop and start it): slower than most on a busy machine.
describe.skipIf(!dovecotAvailable)('the bounce mailbox, against Dovecot', { timeout: 30_000 }, () => {
  it('hands on the events of the reports it can match, and deletes those reports', async () => {
    const server = await dovecot();
    const [bounced, complained] = [tokens.issue(), tokens.issue()];
    await server.deliver(report('postfix-user-unknown', { token: bounced }));
    await server.deliver(report('yahoo-complaint', { token: complained, to: REPORT_BOUNCE_ADDRESS }));
    const { bounces, received } = mailbox(server);

    expect(await bounces.checkNow()).toEqual({ matched: 2, unmatched: 0 });
    expect(received).toEqual([
      [
        expect.objectContaining({
          kind: 'hard_bounce',
          source: 'imap',
          message: expect.objectContaining({ token: bounced }),
        }),
      ],
      [expect.objectContaining({ kind: 'complaint', message: expect.objectContaining({ token: complained }) })],
    ]);
    expect(await server.list('INBOX')).toEqual([]);
  });

  it('moves what it cannot match to Unmatched (creating it) and keeps it there; a second check finds nothing new', async () => {
    const server = await dovecot();
    const token = tokens.issue();
    await server.deliver(report('gmail-no-such-user', { token }));
    await server.deliver(report('microsoft-recipient-not-found', { token: forged(tokens.issue()) }));
    await server.deliver(report('postfix-delayed'));
    const { bounces, received, lines } = mailbox(server);

    expect(await bounces.checkNow()).toEqual({ matched: 1, unmatched: 2 });
    expect(received).toEqual([[expect.objectContaining({ kind: 'hard_bounce' })]]);
    expect(await server.list('INBOX')).toEqual([]);
    const kept = await server.list('Unmatched');
    expect(kept).toHaveLength(2);
    expect(kept[0]).toContain('Subject: Undeliverable: Please confirm your sign-up');
    expect(kept[1]).toContain('Subject: Delayed Mail (still being retried)');
    expect(lines.filter((line) => /moved to Unmatched/.test(line.msg))).toEqual([
      expect.objectContaining({ reason: 'a token we did not sign (forged or damaged)' }),
      expect.objectContaining({ reason: 'no message token' }),
    ]);

    expect(await bounces.checkNow()).toEqual({ matched: 0, unmatched: 0 });
    expect(received).toHaveLength(1);
    expect(await server.list('Unmatched')).toHaveLength(2);
  });

  it('leaves what it cannot match in the mailbox when the unmatched folder cannot be made, and goes on', async () => {
    const server = await dovecot();
    await server.deliver(report('postfix-user-unknown'));
    await server.deliver(report('postfix-user-unknown', { token: tokens.issue() }));
    // Maildir++ folders cannot hold a "/" in their names: Dovecot refuses to create this one.
    const { bounces, received, lines } = mailbox(server, { unmatchedFolder: 'Not/Allowed' });

    expect(await bounces.checkNow()).toEqual({ matched: 1, unmatched: 0 });
    expect(await bounces.checkNow()).toEqual({ matched: 0, unmatched: 0 });
    expect(received).toHaveLength(1);
    expect(await server.list('INBOX')).toEqual([expect.not.stringContaining('X-ScamSavvy-Token')]);
    expect(lines.filter((line) => line.level === ERROR)).toEqual([
      expect.objectContaining({
        msg: 'bounce mailbox: messages that are not reports of ours cannot be moved to "Not/Allowed", and stay in the mailbox; it is read again at the next check',
      }),
    ]);
  });

  it('files reports it acted on in processedFolder when one is named, instead of deleting them', async () => {
    const server = await dovecot();
    await server.deliver(report('postfix-mailbox-full', { token: tokens.issue() }));
    const { bounces, received } = mailbox(server, { processedFolder: 'Processed', unmatchedFolder: 'Not ours' });

    expect(await bounces.checkNow()).toEqual({ matched: 1, unmatched: 0 });
    expect(received).toEqual([[expect.objectContaining({ kind: 'soft_bounce' })]]);
    expect(await server.list('INBOX')).toEqual([]);
    expect(await server.list('Processed')).toEqual([expect.stringContaining('Undelivered Mail Returned to Sender')]);
    expect(await server.list('Not ours')).toEqual([]);
  });

  it('leaves a report in INBOX when its events cannot be stored, says so once, and acts on it at the next check', async () => {
    const server = await dovecot();
    const token = tokens.issue();
    await server.deliver(report('postfix-user-unknown', { token }));
    await server.deliver(report('gmail-no-such-user', { token: tokens.issue() }));
    const stored: FeedbackEvent[][] = [];
    let storageUp = false;
    const onEvents = vi.fn(async (events: FeedbackEvent[]) => {
      if (!storageUp) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      stored.push(events);
    });
    const { bounces, lines } = mailbox(server, { onEvents });

    expect(await bounces.checkNow()).toEqual({ matched: 0, unmatched: 0 });
    expect(await bounces.checkNow()).toEqual({ matched: 0, unmatched: 0 });
    // The first report failed each time; the second waited without being tried.
    expect(onEvents).toHaveBeenCalledTimes(2);
    expect(await server.list('INBOX')).toHaveLength(2);
    expect(await server.list('Unmatched')).toEqual([]);
    expect(lines.filter((line) => line.level === ERROR)).toEqual([
      expect.objectContaining({
        msg: 'bounce mailbox: the reports read could not be stored, and wait in the mailbox; it is read again at the next check',
        err: 'connect ECONNREFUSED 127.0.0.1:5432',
      }),
    ]);

    storageUp = true;
    expect(await bounces.checkNow()).toEqual({ matched: 2, unmatched: 0 });
    expect(stored.map((events) => events[0]?.message.token)).toEqual([token, expect.any(String)]);
    expect(await server.list('INBOX')).toEqual([]);
    expect(lines.at(-1)?.msg).toBe('bounce mailbox: reading it again');
  });

  it('moves a report that cannot be stored while the database answers to "Not stored", with why, and reads the rest', async () => {
    const server = await dovecot();
    const [bad, good] = [tokens.issue(), tokens.issue()];
    await server.deliver(report('postfix-user-unknown', { token: bad }));
    await server.deliver(report('gmail-no-such-user', { token: good }));
    const stored: FeedbackEvent[][] = [];
    const onEvents = async (events: FeedbackEvent[]) => {
      // What PostgreSQL says of a date it cannot hold, for this one report only.
      if (events[0]?.message.token === bad) throw new Error('date/time field value out of range: "+012345-01-01"');
      stored.push(events);
    };
    const { bounces, lines } = mailbox(server, { onEvents, storageUp: async () => true });

    expect(await bounces.checkNow()).toEqual({ matched: 1, unmatched: 0, setAside: 1 });
    expect(stored.map((events) => events[0]?.message.token)).toEqual([good]);
    expect(await server.list('INBOX')).toEqual([]);
    expect(await server.list('Not stored')).toEqual([expect.stringContaining('Undelivered Mail Returned to Sender')]);
    expect(lines.filter((line) => /moved to Not stored/.test(line.msg))).toEqual([
      // Long runs of digits are taken out of log lines (they may be phone numbers).
      expect.objectContaining({ reason: 'could not be stored: date/time field value out of range: "[redacted]"' }),
    ]);
    expect(lines.filter((line) => line.level === ERROR)).toEqual([]);
  });

  it('never fetches a message larger than BOUNCE_MAX_BYTES: it goes to "Too large", with its size', async () => {
    const server = await dovecot();
    const token = tokens.issue();
    const big = report('postfix-user-unknown', { token: tokens.issue() }).replace(
      /\r?\n\r?\n/,
      `\r\nX-Padding: ${'x'.repeat(60_000)}\r\n\r\n`,
    );
    await server.deliver(big);
    await server.deliver(report('gmail-no-such-user', { token }));
    const { bounces, received, lines } = mailbox(server, { maxBytes: 50_000 });

    expect(await bounces.checkNow()).toEqual({ matched: 1, unmatched: 0, setAside: 1 });
    expect(received.map((events) => events[0]?.message.token)).toEqual([token]);
    expect(await server.list('Too large')).toHaveLength(1);
    expect(lines.filter((line) => /moved to Too large/.test(line.msg))).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/^\d+ bytes, more than BOUNCE_MAX_BYTES \(50000\)$/) }),
    ]);
  });

  it('says once per failing streak that the mailbox cannot be read, and once when it can again', async () => {
    const server = await dovecot();
    const { bounces, lines } = mailbox(server);
    await server.pause();

    await expect(bounces.checkNow()).rejects.toThrow();
    await expect(bounces.checkNow()).rejects.toThrow();
    expect(lines.filter((line) => line.level === ERROR)).toEqual([
      expect.objectContaining({
        msg: 'bounce mailbox: it cannot be read just now: the mail server did not answer (ECONNREFUSED); it is read again at the next check',
      }),
    ]);

    await server.resume();
    await server.deliver(report('postfix-user-unknown', { token: tokens.issue() }));
    expect(await bounces.checkNow()).toEqual({ matched: 1, unmatched: 0 });
    expect(lines.filter((line) => line.level === ERROR)).toHaveLength(1);
    expect(lines.at(-1)?.msg).toBe('bounce mailbox: reading it again');
  });

  it('says in plain words when the password is refused, or the mailbox does not exist, never the password', async () => {
    const server = await dovecot();
    const wrongPassword = { url: () => server.url().replace(`:${server.password}@`, ':not-the-password@') };
    const refused = mailbox(wrongPassword);
    await expect(refused.bounces.checkNow()).rejects.toThrow();
    expect(refused.lines).toEqual([
      expect.objectContaining({
        level: ERROR,
        msg: 'bounce mailbox: it cannot be read just now: the mail server refused the user name or password in BOUNCE_IMAP_URL; it is read again at the next check',
      }),
    ]);
    expect(JSON.stringify(refused.lines)).not.toContain('not-the-password');

    const missing = mailbox({ url: () => server.url('Bounces') });
    await expect(missing.bounces.checkNow()).rejects.toThrow();
    expect(missing.lines).toEqual([
      expect.objectContaining({
        msg: expect.stringContaining('the mail server has no mailbox "Bounces" for this user'),
      }),
    ]);
    expect(JSON.stringify(missing.lines)).not.toContain(server.password);
  });

  it('stops: a check under way is finished (handed on once, removed), and nothing is read after', async () => {
    const server = await dovecot();
    const { bounces, received } = mailbox(server);
    await server.deliver(report('postfix-user-unknown', { token: tokens.issue() }));
    const checking = bounces.checkNow();
    await waitForMatch(
      () => received,
      (events) => events.length > 0,
      5_000,
      'report',
    );
    await bounces.stop();
    await checking;

    // The report being handled when it stopped was finished: handed on once, and removed.
    expect(received).toHaveLength(1);
    expect(await server.list('INBOX')).toEqual([]);
    // The job "bounce-mailbox" does the checking now (jobs/job-runner.test.ts): a stopped mailbox
    // is checked no more, so a report arriving after stays in the mailbox.
    await server.deliver(report('gmail-no-such-user', { token: tokens.issue() }));
    expect(await server.list('INBOX')).toEqual([expect.stringContaining('Delivery Status Notification')]);
  });
});
