import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMessageTokens, verpAddress } from '../messaging/message-tokens.js';
import { parseDeliveryReport } from './parse-mail-report.js';
import { forged, report, REPORT_BOUNCE_ADDRESS, REPORTS } from './test-fixtures/reports.js';

const tokens = createMessageTokens('a test secret that is at least 32 characters long');
const read = (raw: Buffer | string) => parseDeliveryReport(raw, { bounceAddress: REPORT_BOUNCE_ADDRESS, tokens });

describe('parseDeliveryReport: delivery status notifications', () => {
  it("reads Gmail's 'address not found' as a hard bounce of the message whose VERP address it came to", async () => {
    const token = tokens.issue();
    const { events, unmatched } = await read(report('gmail-no-such-user', { token }));
    expect(unmatched).toBeUndefined();
    expect(events).toEqual([
      {
        source: 'imap',
        eventId: '6786a8f3.050a0220.1d9e5b.2c4b.GMR@mx.google.com#0',
        kind: 'hard_bounce',
        message: { token, messageId: 'c0a3f1e2-7b4d-4e8a-9f61-3d2b5a7c9e10@mail.example.org' },
        occurredAt: '2025-01-14T18:12:03.000Z',
        code: '5.1.1',
        detail: expect.stringMatching(/^550 5\.1\.1 The email account that you tried to reach does not exist\./),
      },
    ]);
    // The multi-line reply reads as one sentence, its codes said once.
    expect(events[0]?.detail).toContain('Please try double-checking the recipient');
  });

  it("reads Microsoft 365's NDR (550 5.1.10) as a hard bounce, the recipient's address removed from the detail", async () => {
    const token = tokens.issue();
    const { events } = await read(report('microsoft-recipient-not-found', { token }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'hard_bounce',
      code: '5.1.10',
      eventId: '5f8e1c2a-0b7d-4a9e-b3f1-6c2d8e4a0b97@AM6PR04MB5623.eurprd04.prod.outlook.com#0',
      message: { token, messageId: '9d2b7e41-3a6c-4f08-b5e1-7c4a2d9f0e38@mail.example.org' },
      occurredAt: '2025-01-14T18:12:08.000Z',
    });
    expect(events[0]?.detail).toBe(
      '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient [redacted] not found by SMTP address lookup',
    );
  });

  it("reads Postfix's 'Undelivered Mail Returned to Sender' (returned headers only) as a hard bounce", async () => {
    const token = tokens.issue();
    const { events } = await read(report('postfix-user-unknown', { token }));
    expect(events).toEqual([
      expect.objectContaining({
        eventId: '20250114181205.4Yb1xJ2GCdz9sR@mail.example.org#0',
        kind: 'hard_bounce',
        code: '5.1.1',
        message: { token, messageId: '4e7c9a12-8d3f-4b6e-a0c5-1f2e3d4c5b6a@mail.example.org' },
        detail: '550 5.1.1 <[redacted]>: Recipient address rejected: User unknown in virtual mailbox table',
      }),
    ]);
    expect(JSON.stringify(events)).not.toContain('nobody@example.com');
  });

  it("records Postfix's 'Delayed Mail (still being retried)' as delayed, which changes nothing", async () => {
    const token = tokens.issue();
    const { events } = await read(report('postfix-delayed', { token }));
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'delayed',
        code: '4.4.1',
        message: expect.objectContaining({ token }),
        // No Last-Attempt-Date: the report's own date.
        occurredAt: '2025-01-14T22:12:31.000Z',
        detail: 'connect to mx.example.com[192.0.2.25]:25: Connection timed out',
      }),
    ]);
  });

  it('reads a failure that gave up on a 4.x.x answer (a full mailbox) as a soft bounce', async () => {
    const token = tokens.issue();
    const { events } = await read(report('postfix-mailbox-full', { token }));
    expect(events).toEqual([expect.objectContaining({ kind: 'soft_bounce', code: '4.2.2' })]);
  });

  it('reads a 5.x.x failure that is not about the address (blocked as spam) as a soft bounce, not a hard one', async () => {
    const token = tokens.issue();
    const blocked = report('postfix-user-unknown', { token })
      .replace('Status: 5.1.1', 'Status: 5.7.1')
      .replace(
        /Diagnostic-Code: smtp; 550 5\.1\.1 [^\r]*\r\n[^\r]*/,
        'Diagnostic-Code: smtp; 550 5.7.1 Message rejected as spam by Content Filtering.',
      );
    const { events } = await read(blocked);
    expect(events).toEqual([expect.objectContaining({ kind: 'soft_bounce', code: '5.7.1' })]);
  });

  it('reads a report whose MIME type has capitals (Multipart/Report), and an Action of expired as a failure judged by its code', async () => {
    const token = tokens.issue();
    const capitals = report('postfix-user-unknown', { token }).replace(
      'Content-Type: multipart/report; report-type=delivery-status;',
      'Content-Type: Multipart/Report; report-type=Delivery-Status;',
    );
    expect((await read(capitals)).events).toEqual([expect.objectContaining({ kind: 'hard_bounce', code: '5.1.1' })]);
    const expired = report('postfix-mailbox-full', { token }).replace('Action: failed', 'Action: expired');
    expect((await read(expired)).events).toEqual([expect.objectContaining({ kind: 'soft_bounce', code: '4.2.2' })]);
  });

  it('reads a positive DSN (Action: delivered) as delivered, and one that was relayed on as nothing', async () => {
    const token = tokens.issue();
    const delivered = report('postfix-user-unknown', { token })
      .replace('Action: failed', 'Action: delivered')
      .replace('Status: 5.1.1', 'Status: 2.0.0');
    expect((await read(delivered)).events).toEqual([expect.objectContaining({ kind: 'delivered', code: '2.0.0' })]);

    const relayed = delivered.replace('Action: delivered', 'Action: relayed');
    expect(await read(relayed)).toEqual({ events: [] });
  });

  it('gives each recipient of one report its own event id, the same each time the report is read', async () => {
    const token = tokens.issue();
    const twoRecipients = report('postfix-user-unknown', { token }).replace(
      'Final-Recipient: rfc822; nobody@example.com',
      'Final-Recipient: rfc822; first@example.com\r\nAction: delayed\r\nStatus: 4.4.1\r\n\r\nFinal-Recipient: rfc822; nobody@example.com',
    );
    const first = await read(twoRecipients);
    expect(first.events.map((event) => [event.eventId, event.kind])).toEqual([
      ['20250114181205.4Yb1xJ2GCdz9sR@mail.example.org#0', 'delayed'],
      ['20250114181205.4Yb1xJ2GCdz9sR@mail.example.org#1', 'hard_bounce'],
    ]);
    expect((await read(twoRecipients)).events).toEqual(first.events);
  });

  it('names a report that has no Message-ID by a hash of its bytes, the same each time', async () => {
    const token = tokens.issue();
    const withoutId = report('postfix-user-unknown', { token }).replace(/^Message-Id: .*\r\n/m, '');
    const { events } = await read(withoutId);
    expect(events[0]?.eventId).toMatch(/^sha256-[0-9a-f]{64}#0$/);
    expect((await read(Buffer.from(withoutId))).events[0]?.eventId).toBe(events[0]?.eventId);
  });
});

describe('parseDeliveryReport: complaints', () => {
  it("reads Yahoo's ARF report (Feedback-Type: abuse) as a complaint, the token in the returned message", async () => {
    const token = tokens.issue();
    // Feedback loops send to one fixed address, not the VERP one.
    const { events, unmatched } = await read(report('yahoo-complaint', { token, to: REPORT_BOUNCE_ADDRESS }));
    expect(unmatched).toBeUndefined();
    expect(events).toEqual([
      {
        source: 'imap',
        eventId: '1736933411.218554.abuse@arf.mail.yahoo.com',
        kind: 'complaint',
        message: { token, messageId: '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f@mail.example.org' },
        occurredAt: '2025-01-15T09:30:11.000Z',
        code: 'abuse',
      },
    ]);
  });

  it('reads Feedback-Type: fraud as a complaint too', async () => {
    const token = tokens.issue();
    const fraud = report('yahoo-complaint', { token }).replace('Feedback-Type: abuse', 'Feedback-Type: fraud');
    expect((await read(fraud)).events).toEqual([expect.objectContaining({ kind: 'complaint', code: 'fraud' })]);
  });

  it('reads Feedback-Type: opt-out as the person unsubscribing through their provider, never a complaint', async () => {
    const token = tokens.issue();
    const optOut = report('yahoo-complaint', { token }).replace('Feedback-Type: abuse', 'Feedback-Type: opt-out');
    expect((await read(optOut)).events).toEqual([
      expect.objectContaining({ kind: 'unsubscribe', code: 'opt-out', message: expect.objectContaining({ token }) }),
    ]);
  });

  it('reads an authentication failure report (RFC 6591) as ours to fix: the check that failed and our domain', async () => {
    const token = tokens.issue();
    const authFailure = report('yahoo-complaint', { token }).replace(
      'Feedback-Type: abuse',
      'Feedback-Type: auth-failure\nAuth-Failure: dmarc\nReported-Domain: ScamSavvy.example',
    );
    expect((await read(authFailure)).events).toEqual([
      expect.objectContaining({ kind: 'auth_failure', code: 'dmarc', detail: 'scamsavvy.example' }),
    ]);
  });

  it('acts on no other feedback type: kept for a person', async () => {
    const token = tokens.issue();
    const other = report('yahoo-complaint', { token }).replace('Feedback-Type: abuse', 'Feedback-Type: virus');
    expect(await read(other)).toEqual({ events: [], unmatched: 'feedback type "virus" is not acted on' });
  });
});

describe('parseDeliveryReport: which message', () => {
  it('finds the token in the returned message when the report came to the bare bounce address', async () => {
    const token = tokens.issue();
    const { events } = await read(report('gmail-no-such-user', { token, to: REPORT_BOUNCE_ADDRESS }));
    expect(events).toEqual([expect.objectContaining({ message: expect.objectContaining({ token }) })]);
  });

  it('takes the address the report came to before the returned message', async () => {
    const [addressed, returned] = [tokens.issue(), tokens.issue()];
    const raw = report('postfix-user-unknown', { token: returned, to: verpAddress(REPORT_BOUNCE_ADDRESS, addressed) });
    expect((await read(raw)).events[0]?.message.token).toBe(addressed);
  });

  it('accepts a token a mail server uppercased in the address, and names it in lowercase', async () => {
    const token = tokens.issue();
    const raw = report('microsoft-recipient-not-found', { token }).replaceAll(
      `bounces+${token}@`,
      `BOUNCES+${token.toUpperCase()}@`,
    );
    expect((await read(raw)).events[0]?.message.token).toBe(token);
  });

  it.each(REPORTS)('%s: a forged token (the right shape, a wrong MAC) does nothing', async (name) => {
    const fake = forged(tokens.issue());
    expect(tokens.verify(fake)).toBe(false);
    expect(await read(report(name, { token: fake }))).toEqual({
      events: [],
      unmatched: 'a token we did not sign (forged or damaged)',
    });
  });

  it('a forged token where the report came, before a real one in the returned message, does nothing', async () => {
    const raw = report('gmail-no-such-user', {
      token: tokens.issue(),
      to: verpAddress(REPORT_BOUNCE_ADDRESS, forged(tokens.issue())),
    });
    expect(await read(raw)).toEqual({ events: [], unmatched: 'a token we did not sign (forged or damaged)' });
  });

  it.each(REPORTS)('%s: a report about a message we never signed does nothing', async (name) => {
    expect(await read(report(name))).toEqual({ events: [], unmatched: 'no message token' });
  });
});

describe('parseDeliveryReport: anything else that arrives', () => {
  it('keeps an ordinary email (an out-of-office reply to the VERP address) unread: not a report', async () => {
    const token = tokens.issue();
    const reply = [
      `To: ${verpAddress(REPORT_BOUNCE_ADDRESS, token)}`,
      'From: Someone <someone@example.com>',
      'Subject: Automatic reply: Please confirm your sign-up',
      'Message-ID: <auto-reply@example.com>',
      'Content-Type: text/plain',
      '',
      'I am away until Monday.',
      '',
    ].join('\r\n');
    expect(await read(reply)).toEqual({
      events: [],
      unmatched: 'an automatic reply (out of office, away), not a bounce',
    });
    const letter = reply.replace('Automatic reply: Please confirm your sign-up', 'Re: Please confirm your sign-up');
    expect(await read(letter)).toEqual({ events: [], unmatched: 'not a delivery report, a bounce or a complaint' });
  });

  it('reads a report whose delivery-status part is mislabelled, or whose recipient has no Action, from its fields', async () => {
    const token = tokens.issue();
    const raw = report('postfix-user-unknown', { token });
    const mislabelled = await read(raw.replace('Content-Type: message/delivery-status', 'Content-Type: text/plain'));
    expect(mislabelled.events).toEqual([expect.objectContaining({ kind: 'hard_bounce', code: '5.1.1' })]);
    const noAction = await read(raw.replaceAll(/^Action: failed\r\n/gm, ''));
    expect(noAction.events).toEqual([expect.objectContaining({ kind: 'hard_bounce', code: '5.1.1' })]);
  });

  it('never throws on garbage: empty input, binary noise, a truncated report', async () => {
    const token = tokens.issue();
    const full = report('gmail-no-such-user', { token });
    for (const garbage of [
      '',
      '\u0000\u0001\u0002 not mail',
      Buffer.from([0xff, 0xfe, 0x00, 0x9c]),
      full.slice(0, 900),
    ])
      expect(await read(garbage)).toEqual({ events: [], unmatched: expect.any(String) });
  });
});

describe('parseDeliveryReport: the bounces real servers send outside the standard format', () => {
  const sample = (name: string) =>
    readFileSync(join(import.meta.dirname, 'test-fixtures', 'sisimai', `${name}.eml`), 'latin1');

  it("reads Exim's plain-text bounce, sent to the message's VERP address, as the person's hard bounce", async () => {
    const token = tokens.issue();
    const raw = sample('lhost-exim-05').replace(
      'To: shironeko@example.org',
      `To: ${verpAddress(REPORT_BOUNCE_ADDRESS, token)}`,
    );
    const { events, unmatched } = await read(raw);
    expect(unmatched).toBeUndefined();
    expect(events).toEqual([
      expect.objectContaining({ kind: 'hard_bounce', code: '5.1.1', message: expect.objectContaining({ token }) }),
    ]);
  });

  it("finds our token in the copy a qmail bounce returns inline, and reads its 'Unknown user' as hard", async () => {
    const token = tokens.issue();
    const raw = sample('lhost-qmail-01').replace(
      'Message-ID: <000000000.9999999999999.JavaMail.postmaster@mailhub>',
      `Message-ID: <000000000.9999999999999.JavaMail.postmaster@mailhub>\nX-ScamSavvy-Token: ${token}`,
    );
    const { events } = await read(raw);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'hard_bounce', message: expect.objectContaining({ token }) }),
    ]);
  });

  it('reads a report wrapped in multipart/mixed (OpenSMTPD), and never suppresses for a block list', async () => {
    const token = tokens.issue();
    const raw = report('postfix-user-unknown', { token })
      .replace(/report-type=delivery-status;?/i, '')
      .replace(/multipart\/report/i, 'multipart/mixed')
      .replace(
        /Diagnostic-Code: .*\r\n/,
        'Diagnostic-Code: smtp; 553 5.1.3 203.0.113.5 is listed at zen.spamhaus.org\r\n',
      )
      .replace('Status: 5.1.1', 'Status: 5.1.3');
    const { events } = await read(raw);
    expect(events).toEqual([expect.objectContaining({ kind: 'soft_bounce', code: '5.1.3' })]);
  });

  it('keeps an automatic reply and a bounce cut short for the owner, acting on neither', async () => {
    expect((await read(sample('rfc3834-01'))).unmatched).toBe('an automatic reply (out of office, away), not a bounce');
    const headersOnly = sample('lhost-exim-05').split('\n\n')[0]!;
    expect((await read(`${headersOnly}\n\n`)).unmatched).toBe('a bounce with no words to read (empty or cut short)');
  });
});
