// The broadcast email as a mail program reads it: headers, both parts, non-ASCII words, long lines,
// and DKIM over the list headers when the message goes out whole through the SMTP pool.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createEmailSender } from '../messaging/email-sender.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { createLinkSigner } from '../messaging/link-tokens.js';
import { manageUrls } from '../messaging/link-urls.js';
import { broadcastEmailWriter } from './broadcast-email.js';
import { addressOf, messageIdDomain } from '../messaging/mime-message.js';
import { BROADCAST_TEMPLATES, personalise, renderBroadcast } from './broadcast-templates.js';

// Counts the quoted-printable encodings, to see the parts encoded once and not per person.
const encodings = vi.hoisted(() => ({ count: 0 }));
vi.mock('libqp', async (original) => {
  const libqp = await original<typeof import('libqp')>();
  return {
    ...libqp,
    encode: (...args: Parameters<typeof libqp.encode>) => {
      encodings.count += 1;
      return libqp.encode(...args);
    },
  };
});

const write = broadcastEmailWriter({
  from: 'ScamSavvy — Launch <news@scamsavvy.example>',
  subject: 'The ScamSavvy app is here – “get it” now',
  listId: 'launch.scamsavvy.example',
  listName: 'ScamSavvy launch news',
});

const longLine = `${'Practice spotting scams, safely. '.repeat(12)}Ünïcödé and € too.`;

describe('broadcastEmailWriter', () => {
  const raw = write({
    to: 'rosa@example.com',
    messageId: 'broadcast-1.message-42@scamsavvy.example',
    unsubscribeUrl: 'https://scamsavvy.example/unsubscribe/abc',
    text: `Hello.\n${longLine}\nhttps://scamsavvy.example/app\n`,
    html: `<p>${longLine}</p><a href="https://scamsavvy.example/app">Get the app</a>`,
    date: new Date('2026-12-01T09:00:00Z'),
  });

  it('writes a message mail programs read back word for word', async () => {
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('The ScamSavvy app is here – “get it” now');
    expect(parsed.from?.value[0]).toEqual({ name: 'ScamSavvy — Launch', address: 'news@scamsavvy.example' });
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe('rosa@example.com');
    expect(parsed.messageId).toBe('<broadcast-1.message-42@scamsavvy.example>');
    expect(parsed.date?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(parsed.text).toBe(`Hello.\n${longLine}\nhttps://scamsavvy.example/app\n`);
    expect(parsed.html).toBe(`<p>${longLine}</p><a href="https://scamsavvy.example/app">Get the app</a>`);
    expect(raw).toMatch(/^List-Id: ScamSavvy launch news <launch\.scamsavvy\.example>\r$/m);
    expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/scamsavvy\.example\/unsubscribe\/abc>\r$/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
  });

  it('keeps every line within the 78 characters mail asks for, ASCII only, CRLF line ends', () => {
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    expect(raw).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    expect(raw.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('takes the envelope address and the Message-ID domain from MAIL_FROM', () => {
    expect(addressOf('ScamSavvy <news@scamsavvy.example>')).toBe('news@scamsavvy.example');
    expect(addressOf('news@scamsavvy.example')).toBe('news@scamsavvy.example');
    expect(messageIdDomain('ScamSavvy <news@mail.scamsavvy.example>')).toBe('mail.scamsavvy.example');
  });
});

describe('sending a written message through the pool', () => {
  it('goes out as it is, DKIM-signed over the list headers when keys are set', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.stop());
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const sender = createEmailSender(
      {
        smtpUrl: sink.url,
        from: 'ScamSavvy <news@scamsavvy.example>',
        dkim: {
          domainName: 'scamsavvy.example',
          keySelector: 'mail',
          privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      },
      { listId: 'launch.scamsavvy.example', listName: 'ScamSavvy launch news' },
    );
    onTestFinished(() => sender.close());
    const raw = write({
      to: 'rosa@example.com',
      messageId: 'broadcast-1.message-7@scamsavvy.example',
      unsubscribeUrl: 'https://scamsavvy.example/unsubscribe/abc',
      text: 'Hello',
      html: '<p>Hello</p>',
    });
    const sent = await sender.sendRaw({
      to: 'rosa@example.com',
      messageId: 'broadcast-1.message-7@scamsavvy.example',
      raw,
    });
    expect(sent.messageId).toBe('broadcast-1.message-7@scamsavvy.example');
    const mail = await sink.waitFor((each) => each.envelope.to.includes('rosa@example.com'));
    expect(mail.envelope.from).toBe('news@scamsavvy.example');
    const signature = mail.raw.match(/^DKIM-Signature:([\s\S]*?)\r?\n(?=\S)/m)?.[1]?.replace(/\s+/g, '') ?? '';
    expect(signature).toContain('d=scamsavvy.example');
    for (const name of ['list-id', 'list-unsubscribe', 'list-unsubscribe-post'])
      expect(signature.toLowerCase()).toMatch(new RegExp(`h=[^;]*${name}`));
    expect(mail.parsed.messageId).toBe('<broadcast-1.message-7@scamsavvy.example>');
  });
});

describe("a broadcast's parts encoded once, each person's links filled in", () => {
  // Sites of several lengths move the links across the 76-character lines, so soft breaks land in
  // every place of a link.
  const sites = ['https://scamsavvy.example', 'https://www.scamsavvy.example', 'http://localhost:8080', 'https://a.co'];
  const headers = { from: 'ScamSavvy <news@scamsavvy.example>', subject: 'Hello', listId: 'l.example', listName: 'L' };
  const unboundaried = (raw: string) => raw.replace(/----=_Part_[0-9a-f]+/g, 'BOUNDARY');

  it.each(sites.flatMap((siteUrl) => BROADCAST_TEMPLATES.map((template) => ({ siteUrl, template }))))(
    'writes every message byte for byte as encoding it whole would ($template, $siteUrl)',
    ({ siteUrl, template }) => {
      const content = renderBroadcast(template, { siteUrl, postalAddress: '1 Main St, Springfield' });
      const links = createLinkSigner('a-test-secret-key-of-enough-length-0123');
      const once = broadcastEmailWriter(headers, content);
      const whole = broadcastEmailWriter(headers);
      let encodedOnce = 0;
      for (let index = 0; index < 600; index += 1) {
        const urls = manageUrls(links, siteUrl, randomUUID());
        const personal = { preferencesUrl: urls.preferences, unsubscribeUrl: urls.unsubscribe };
        const email = {
          to: `person${index}@example.com`,
          messageId: `m${index}@scamsavvy.example`,
          unsubscribeUrl: urls.unsubscribe,
          date: new Date('2026-12-01T09:00:00Z'),
        };
        const expected = unboundaried(whole({ ...email, ...personalise(content, personal) }));
        const before = encodings.count;
        expect(unboundaried(once({ ...email, links: personal }))).toBe(expected);
        if (encodings.count === before) encodedOnce += 1;
      }
      // Every message but the first (checked against the whole encoding) was written from the parts
      // encoded once: a token is letters and digits, which any line may start with.
      expect(encodedOnce).toBe(599);
    },
  );
});
