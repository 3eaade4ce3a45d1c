import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { createEmailSender, EmailSendError, type EmailSender } from './email-sender.js';

const email = {
  to: 'rosa@example.com',
  subject: 'Please confirm',
  text: 'Plain words.',
  html: '<p>Plain words.</p>',
  unsubscribeUrl: 'https://scamsavvy.example/unsubscribe/token',
};
const list = { listId: 'launch.scamsavvy.example', listName: 'ScamSavvy launch news' };

const open: { sink?: SmtpSink; sender?: EmailSender } = {};
afterEach(async () => {
  open.sender?.close();
  await open.sink?.stop();
});

async function setUp(dkim?: { domainName: string; keySelector: string; privateKey: string }) {
  open.sink = await startSmtpSink();
  open.sender = createEmailSender(
    { smtpUrl: open.sink.url, from: 'ScamSavvy <hello@scamsavvy.example>', ...(dkim ? { dkim } : {}) },
    list,
  );
  return { sink: open.sink, sender: open.sender };
}

/** The message's header block with folded lines unfolded. */
const headersOf = (raw: string) => (raw.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');

describe('createEmailSender', () => {
  it('sends both parts from MAIL_FROM with the one-click unsubscribe and list headers', async () => {
    const { sink, sender } = await setUp();
    const sent = await sender.send(email);
    const [mail] = sink.messages();
    expect(sent.messageId).toMatch(/@/);
    expect(mail?.envelope.to).toEqual(['rosa@example.com']);
    expect(mail?.parsed.text?.trim()).toBe('Plain words.');
    expect(mail?.parsed.html).toContain('<p>Plain words.</p>');
    const headers = headersOf(mail?.raw ?? '');
    expect(headers).toMatch(/^From: ScamSavvy <hello@scamsavvy\.example>\r?$/m);
    expect(headers).toMatch(/^List-Unsubscribe: <https:\/\/scamsavvy\.example\/unsubscribe\/token>\r?$/m);
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(headers).toMatch(/^List-Id: ScamSavvy launch news <launch\.scamsavvy\.example>\r?$/im);
  });

  it('signs with DKIM when keys are set, the list headers among the signed ones', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { sink, sender } = await setUp({ domainName: 'scamsavvy.example', keySelector: 'mail', privateKey: pem });
    await sender.send(email);
    const signature = headersOf(sink.messages()[0]?.raw ?? '').match(/^DKIM-Signature: (.*)$/m)?.[1] ?? '';
    expect(signature).toMatch(/\bd=scamsavvy\.example;/);
    expect(signature).toMatch(/\bs=mail;/);
    const signed = (signature.match(/\bh=([^;]+);/)?.[1] ?? '').replace(/\s/g, '').toLowerCase().split(':');
    expect(signed).toEqual(
      expect.arrayContaining(['from', 'to', 'subject', 'list-unsubscribe', 'list-unsubscribe-post', 'list-id']),
    );
  });

  it('reports a 5xx refusal as permanent and a 4xx one as temporary', async () => {
    const { sink, sender } = await setUp();
    sink.rejectNext(550, 'No such user');
    const refused = await sender.send(email).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmailSendError);
    expect(refused).toMatchObject({ permanent: true, responseCode: 550 });
    sink.rejectNext(451, 'Try again later');
    const deferred = await sender.send(email).catch((error: unknown) => error);
    expect(deferred).toMatchObject({ permanent: false, responseCode: 451 });
  });

  it('reports a mail server that cannot be reached as temporary', async () => {
    const { sink, sender } = await setUp();
    await sink.stop();
    const failed = await sender.send(email).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(EmailSendError);
    expect((failed as EmailSendError).permanent).toBe(false);
  });
});
