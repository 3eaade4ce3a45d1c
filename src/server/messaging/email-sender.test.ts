import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { createEmailSender, EmailSendError, providerIdFrom, refusalIn, type EmailSender } from './email-sender.js';
import { SendFailure } from './send-failure.js';
import { wireAddress } from './mime-message.js';

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

const from = 'ScamSavvy <hello@scamsavvy.example>';
const credentials = { user: 'launch', pass: 'right password' };

async function setUp(dkim?: { domainName: string; keySelector: string; privateKey: string }) {
  open.sink = await startSmtpSink();
  open.sender = createEmailSender({ smtpUrl: open.sink.url, from, ...(dkim ? { dkim } : {}) }, list);
  return { sink: open.sink, sender: open.sender };
}

/** A sink that asks for a sign-in, and a sender signing in with `pass` (the right one unless given). */
async function setUpSignIn(pass = credentials.pass) {
  open.sink = await startSmtpSink({ auth: credentials });
  const url = new URL(open.sink.url);
  url.password = encodeURIComponent(pass);
  open.sender = createEmailSender({ smtpUrl: url.toString(), from }, list);
  return { sink: open.sink, sender: open.sender };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the send succeeded');
    },
    (error: unknown) => error as EmailSendError,
  );

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

  it('writes a domain in another script in ASCII on the wire, as every mail server takes it', async () => {
    const { sink, sender } = await setUp();
    await sender.send({ ...email, to: 'rosa@jõgeva.ee' });
    const [mail] = sink.messages();
    // (The test server reads the envelope's domain back in its own script.)
    expect(mail?.envelope.to).toEqual(['rosa@jõgeva.ee']);
    expect(headersOf(mail?.raw ?? '')).toMatch(/^To: rosa@xn--jgeva-dua\.ee\r?$/m);
    expect(wireAddress('rosa@jõgeva.ee')).toBe('rosa@xn--jgeva-dua.ee');
    // A local part in another script needs SMTPUTF8 whatever the domain: left as typed.
    expect(wireAddress('用户@例子.广告')).toBe('用户@例子.广告');
    expect(wireAddress('rosa@example.com')).toBe('rosa@example.com');
  });

  it("sends the providers' tags raw, as the broadcast's writer does: JSON never encoded or folded", async () => {
    const { sink, sender } = await setUp();
    const token = 'f'.repeat(40);
    const tags = {
      'X-SMTPAPI': JSON.stringify({ unique_args: { token } }),
      'X-Mailgun-Variables': JSON.stringify({ token }),
      'X-SES-MESSAGE-TAGS': `token=${token}`,
    };
    await sender.send({ ...email, headers: tags });
    const raw = (sink.messages()[0]?.raw ?? '').split(/\r?\n\r?\n/)[0] ?? '';
    for (const value of Object.values(tags)) expect(raw).toContain(`: ${value}\r\n`);
    expect(raw).not.toMatch(/=\?UTF-8\?/i);
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

  it('calls an address refused for good the recipient’s, and a 4xx the message’s, for now', async () => {
    const { sink, sender } = await setUp();
    sink.rejectNext(550, '5.1.1 No such user');
    const refused = await failureOf(sender.send(email));
    expect(refused).toBeInstanceOf(EmailSendError);
    expect(refused).toBeInstanceOf(SendFailure);
    expect(refused).toMatchObject({ kind: 'recipient', permanent: true, responseCode: 550 });
    sink.rejectNext(451, 'Try again later');
    const deferred = await failureOf(sender.send(email));
    expect(deferred).toMatchObject({ kind: 'message', permanent: false, responseCode: 451 });
  });

  it('calls 550 5.1.1 at RCPT for one address the recipient’s, and still sends to the others', async () => {
    const { sink, sender } = await setUp();
    sink.answerFor((to, stage) =>
      to === 'gone@example.com' && stage === 'rcpt'
        ? { code: 550, message: '5.1.1 <gone@example.com>: User unknown' }
        : undefined,
    );
    const refused = await failureOf(sender.send({ ...email, to: 'gone@example.com' }));
    expect(refused.verdict).toEqual({
      kind: 'recipient',
      reason: 'The mail server says this address does not exist (550 5.1.1).',
    });
    await sender.send(email);
    await failureOf(
      sender.sendRaw({ to: 'gone@example.com', messageId: 'x@scamsavvy.example', raw: 'Subject: x\r\n\r\nx' }),
    );
    expect(sink.messages().map((mail) => mail.envelope.to)).toEqual([['rosa@example.com']]);
  });

  it('calls a 421 at the end of DATA the message’s trouble, for now', async () => {
    const { sink, sender } = await setUp();
    let messages = 0;
    sink.answerFor((_to, stage) => {
      if (stage !== 'data') return undefined;
      messages += 1;
      return messages % 2 === 1 ? { code: 421, message: '4.7.0 Try again later, closing connection' } : undefined;
    });
    const busy = await failureOf(sender.send(email));
    expect(busy).toMatchObject({ kind: 'message', responseCode: 421 });
    expect(busy.verdict.reason).toBe(
      'The mail server is busy or closing connections (421 4.7.0): we will keep trying.',
    );
    await sender.send(email);
    expect(sink.messages()).toHaveLength(1);
  });

  it('reports a mail server that cannot be reached as the message’s trouble, for now', async () => {
    const { sink, sender } = await setUp();
    await sink.stop();
    const failed = await failureOf(sender.send(email));
    expect(failed).toBeInstanceOf(EmailSendError);
    expect(failed.verdict).toEqual({
      kind: 'message',
      reason: 'The mail server did not answer (connection refused): we will keep trying.',
    });
    expect(failed.permanent).toBe(false);
  });

  it('signs in with the user and password in SMTP_URL', async () => {
    const { sink, sender } = await setUpSignIn();
    await sender.send(email);
    expect(sink.messages()).toHaveLength(1);
  });

  it('calls a refused sign-in ours, never the person’s, and sends again once it is accepted', async () => {
    const { sink, sender } = await setUpSignIn();
    sink.refuseAuth(true);
    const refused = await failureOf(sender.send(email));
    expect(refused).toMatchObject({ kind: 'sender', permanent: false, responseCode: 535 });
    expect(refused.verdict.reason).toBe(
      'The mail server refused our sign-in (535 5.7.8): check the user name and password in SMTP_URL, then resume.',
    );
    expect((await failureOf(sender.sendRaw({ to: 'rosa@example.com', messageId: 'x@y.example', raw: 'x' }))).kind).toBe(
      'sender',
    );
    sink.refuseAuth(false);
    await sender.send(email);
    expect(sink.messages()).toHaveLength(1);
  });

  it('verify() passes with the right password and fails as ours with a wrong one, sending nothing', async () => {
    const { sink, sender } = await setUpSignIn();
    await expect(sender.verify()).resolves.toBeUndefined();
    sender.close();
    open.sender = createEmailSender({ smtpUrl: sink.url.replace('right%20password', 'wrong'), from }, list);
    const refused = await failureOf(open.sender.verify());
    expect(refused).toBeInstanceOf(EmailSendError);
    expect(refused).toMatchObject({ kind: 'sender', responseCode: 535 });
    expect(sink.messages()).toHaveLength(0);
  });

  it('verify() calls a mail server that cannot be reached the message’s trouble', async () => {
    const { sink, sender } = await setUp();
    await sink.stop();
    expect((await failureOf(sender.verify())).kind).toBe('message');
  });
});

describe('refusalIn', () => {
  it('fails a send whose recipient was refused at RCPT without an error, by the server’s answer', () => {
    const answer = Object.assign(new Error('Recipient command failed: 550 5.1.1 <gone@example.com>: User unknown'), {
      code: 'EENVELOPE',
      response: '550 5.1.1 <gone@example.com>: User unknown',
      responseCode: 550,
      command: 'RCPT TO',
    });
    const refused = refusalIn({ rejected: ['gone@example.com'], rejectedErrors: [answer] });
    expect(refused).toMatchObject({ kind: 'recipient', responseCode: 550 });
    expect(refusalIn({ rejected: ['gone@example.com'] })?.kind).toBe('recipient');
    expect(refusalIn({ rejected: [], response: '250 Ok' })).toBeUndefined();
    expect(refusalIn({ response: '250 Ok' })).toBeUndefined();
  });
});

describe('providerIdFrom', () => {
  it("reads the provider's id for the message from the 250 answers of SES, Postfix, SendGrid and Exim", () => {
    expect(providerIdFrom('250 Ok 0100018c5f2a3b4c-7e8f9a0b-1c2d-3e4f-5a6b-7c8d9e0f1a2b-000000')).toBe(
      '0100018c5f2a3b4c-7e8f9a0b-1c2d-3e4f-5a6b-7c8d9e0f1a2b-000000',
    );
    expect(providerIdFrom('250 2.0.0 Ok: queued as 4F3C21E0A7')).toBe('4F3C21E0A7');
    expect(providerIdFrom('250 Ok: queued as bmwlH4bWSXiNXpPsTcZ2Ew')).toBe('bmwlH4bWSXiNXpPsTcZ2Ew');
    expect(providerIdFrom('250 OK id=1r2S3t-0004uV-9x')).toBe('1r2S3t-0004uV-9x');
    // Nothing that looks like an id: kept whole (it matches a report only where it names one message).
    expect(providerIdFrom('250 Great success')).toBe('Great success');
    expect(providerIdFrom('250 OK')).toBe('OK');
    expect(providerIdFrom(undefined)).toBeUndefined();
  });
});
