// One rate per channel (issue 54): the product's own messages keep to the provider's rate, and to
// OWN_SHARE of it while a broadcast is sent on that channel; each send takes its turn first.
import { describe, expect, it } from 'vitest';
import type { Channel } from '../db/message-channels.js';
import { ChannelRates, OWN_SHARE, ratedEmail, ratedTexts } from './channel-rates.js';
import type { EmailSender } from './email-sender.js';

describe('the channels’ rates', () => {
  it('keep to the whole rate, to OWN_SHARE of it while a broadcast takes the channel, and back once it stops', async () => {
    let now = 1_000_000;
    let sending = new Set<Channel>(['email']);
    const looks: Date[] = [];
    const rates = new ChannelRates(
      { email: 2_000, sms: 200 },
      async (heardSince) => {
        looks.push(heardSince);
        return sending;
      },
      () => now,
    );
    expect(rates.perSecond('email')).toBe(2_000);
    await rates.take('email');
    expect(rates.perSecond('email')).toBeCloseTo(2_000 * OWN_SHARE);
    expect(rates.perSecond('sms')).toBe(200);
    // A sender not heard from for 15 s no longer counts as sending.
    expect(looks[0]?.getTime()).toBe(now - 15_000);
    // Looked up again only after a while: one small query, not one per message.
    sending = new Set();
    now += 1_000;
    await rates.take('sms');
    expect(looks).toHaveLength(1);
    expect(rates.perSecond('email')).toBeCloseTo(2_000 * OWN_SHARE);
    now += 5_000;
    await rates.take('sms');
    expect(looks).toHaveLength(2);
    expect(rates.perSecond('email')).toBe(2_000);
  });

  it('keep the rates they had when the lookup fails', async () => {
    let now = 0;
    let fail = false;
    const rates = new ChannelRates(
      { email: 1_000, sms: 100 },
      async () => {
        if (fail) throw new Error('database away');
        return new Set<Channel>(['sms']);
      },
      () => now,
    );
    await rates.take('email');
    expect(rates.perSecond('sms')).toBeCloseTo(100 * OWN_SHARE);
    fail = true;
    now += 10_000;
    await rates.take('email');
    expect(rates.perSecond('sms')).toBeCloseTo(100 * OWN_SHARE);
    expect(rates.perSecond('email')).toBe(1_000);
  });

  it('make each email and text take its turn before it goes', async () => {
    const calls: string[] = [];
    const turns = { take: async (channel: Channel) => void calls.push(`turn:${channel}`) };
    const sent = { messageId: '<a@b>', response: '250 OK' };
    const email = ratedEmail(
      {
        send: async () => (calls.push('send'), sent),
        sendRaw: async () => (calls.push('sendRaw'), sent),
        verify: async () => void calls.push('verify'),
        close: () => void calls.push('close'),
      } as EmailSender,
      turns,
    );
    await email.send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' } as Parameters<EmailSender['send']>[0]);
    await email.sendRaw({ to: 'a@example.com', messageId: '<m@x>', raw: 'raw' });
    await email.verify();
    email.close();
    const texts = ratedTexts({ send: async () => (calls.push('text'), { id: 'SM1' }) as never }, turns);
    await texts.send({ to: '+15551234567', body: 'hi' });
    // A check of the server and closing take no turn: they send nobody anything.
    expect(calls).toEqual(['turn:email', 'send', 'turn:email', 'sendRaw', 'verify', 'close', 'turn:sms', 'text']);
  });
});
