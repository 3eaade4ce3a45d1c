import { describe, expect, it } from 'vitest';
import type { FailureKind } from './send-failure.js';
import { classifyStoredAnswer } from './stored-answers.js';
import {
  accountStatusVerdict,
  classifyTwilioAnswer,
  classifyTwilioText,
  TWILIO_RULES,
  twilioRuleFor,
  type TwilioAnswer,
} from './twilio-answers.js';

const NUMBER = /\+?\d(?:[\s-]?\d){6,}|@/;

interface Case {
  answer: TwilioAnswer;
  kind: FailureKind;
  rule: string | undefined;
  stop?: true;
}

/** Twilio's answers as its API gives them (status, code, message). */
const ANSWERS: Case[] = [
  { answer: { status: 401, code: 20003, message: 'Authenticate' }, kind: 'sender', rule: 'credentials' },
  { answer: { status: 401, message: 'Unauthorized' }, kind: 'sender', rule: 'credentials' },
  {
    answer: { status: 404, code: 20404, message: 'The requested resource /2010-04-01/Accounts/AC1.json was not found' },
    kind: 'sender',
    rule: 'no-such-account',
  },
  {
    answer: { status: 403, message: 'Forbidden' },
    kind: 'sender',
    rule: 'forbidden',
  },
  {
    answer: {
      status: 400,
      code: 21606,
      message:
        'The From phone number +15550001111 is not a valid, SMS-capable inbound phone number or short code for your account.',
    },
    kind: 'sender',
    rule: 'from-number',
  },
  {
    answer: {
      status: 400,
      code: 21659,
      message: 'Source +15550001111 is not a Twilio phone number or Short Code country mismatch',
    },
    kind: 'sender',
    rule: 'from-number',
  },
  {
    answer: { status: 400, code: 21660, message: "Mismatch between the 'From' number +15550001111 and the account" },
    kind: 'sender',
    rule: 'from-number',
  },
  { answer: { status: 400, code: 30007, message: 'Message filtered' }, kind: 'sender', rule: 'carrier-filtering' },
  {
    answer: { status: 400, code: 30034, message: 'US A2P 10DLC - Message from an Unregistered Number' },
    kind: 'sender',
    rule: 'unregistered-number',
  },
  {
    answer: { status: 400, code: 21211, message: "The 'To' number +1555 is not a valid phone number." },
    kind: 'recipient',
    rule: 'invalid-number',
  },
  {
    answer: { status: 400, code: 21614, message: "'To' number +15551234567 is not a valid mobile number" },
    kind: 'recipient',
    rule: 'not-mobile',
  },
  {
    answer: { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' },
    kind: 'recipient',
    rule: 'replied-stop',
    stop: true,
  },
  {
    answer: { status: 400, code: 21612, message: "The 'To' phone number: +15551234567, is not currently reachable" },
    kind: 'recipient',
    rule: 'cannot-route',
  },
  { answer: { status: 429, code: 20429, message: 'Too Many Requests' }, kind: 'message', rule: 'slow-down' },
  { answer: { status: 500, message: 'Internal Server Error' }, kind: 'message', rule: 'twilio-trouble' },
  { answer: { status: 503, code: 20500, message: 'Service unavailable' }, kind: 'message', rule: 'twilio-trouble' },
  {
    answer: {
      status: 400,
      code: 21617,
      message: 'The concatenated message body exceeds the 1600 character limit',
    },
    kind: 'unknown',
    rule: undefined,
  },
  // What a status callback reports after the send (undelivered or failed, with Twilio's error code).
  { answer: { code: 30001, message: 'Queue overflow' }, kind: 'sender', rule: 'queue-overflow' },
  { answer: { code: 30002, message: 'Account suspended' }, kind: 'sender', rule: 'account-suspended' },
  { answer: { code: 30010, message: 'Message price exceeds max price' }, kind: 'sender', rule: 'max-price' },
  {
    answer: { code: 30032, message: 'Toll-Free Number Has Not Been Verified' },
    kind: 'sender',
    rule: 'toll-free-unverified',
  },
  { answer: { code: 30003, message: 'Unreachable destination handset' }, kind: 'message', rule: 'unreachable-handset' },
  {
    answer: {
      status: 400,
      code: 21408,
      message:
        "Permission to send an SMS has not been enabled for the region indicated by the 'To' number: +44770090xxxx.",
    },
    kind: 'message',
    rule: 'not-from-our-account',
  },
  {
    answer: {
      status: 400,
      code: 21608,
      message:
        'The number +1555010xxxx is unverified. Trial accounts cannot send messages to unverified numbers; verify +1555010xxxx at twilio.com/user/account/phone-numbers/verified, or purchase a Twilio number to send messages to unverified numbers.',
    },
    kind: 'message',
    rule: 'not-from-our-account',
  },
  { answer: { code: 30005, message: 'Unknown destination handset' }, kind: 'recipient', rule: 'unknown-handset' },
  { answer: { code: 30006, message: 'Landline or unreachable carrier' }, kind: 'recipient', rule: 'landline' },
  { answer: { status: 400, message: 'Bad Request' }, kind: 'unknown', rule: undefined },
  { answer: { status: 410, code: 99999, message: 'Gone' }, kind: 'unknown', rule: undefined },
];

describe('classifyTwilioAnswer', () => {
  it.each(ANSWERS)('$answer.status, error $answer.code: $kind', ({ answer, kind, rule, stop }) => {
    const verdict = classifyTwilioAnswer(answer);
    expect(verdict.kind).toBe(kind);
    expect(twilioRuleFor(answer)?.id).toBe(rule);
    expect(verdict.stop).toBe(stop);
    expect(verdict.reason).not.toMatch(NUMBER);
  });

  it('skips a person our account cannot text (21408, 21608) for this send: never theirs for good, never a pause', () => {
    for (const code of [21408, 21608]) {
      const verdict = classifyTwilioAnswer({ status: 400, code, message: 'Permission' });
      expect(verdict).toMatchObject({ kind: 'message', skip: true });
      expect(verdict.reason).toMatch(/Skipped for this send/);
    }
  });

  it('covers every rule with one of Twilio’s answers', () => {
    const covered = new Set(ANSWERS.map((answer) => answer.rule));
    expect(TWILIO_RULES.map((rule) => rule.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it('says what to do in plain words', () => {
    expect(classifyTwilioAnswer({ status: 401, code: 20003 }).reason).toBe(
      'Twilio refused our credentials: check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, then resume.',
    );
    expect(classifyTwilioAnswer({ status: 400, code: 30007 }).reason).toMatch(
      /^Carriers are filtering our texts \(Twilio 30007\): register the number .*Twilio console.*then resume\.$/,
    );
    // Each of our account's problems says its own fix, never another code's.
    for (const code of [30001, 30002, 30010, 30032, 30034]) {
      const { reason } = classifyTwilioAnswer({ code });
      expect(reason).toContain(`Twilio ${code}`);
      expect(reason).toMatch(/then resume\.$/);
    }
    const unknown = classifyTwilioAnswer({ status: 400, code: 21617, message: 'Too long for +4915123456789' });
    expect(unknown.reason).toContain('400, error 21617: "Too long for [redacted]"');
  });

  it('calls Twilio out of reach the message’s trouble, for now', () => {
    expect(classifyTwilioAnswer({ networkError: 'connection refused' })).toEqual({
      kind: 'message',
      reason: 'Twilio could not be reached (connection refused): we will keep trying.',
    });
  });
});

describe('classifyTwilioText: stored error texts', () => {
  it.each([
    ['Twilio answered 401 (error 20003): Authenticate. Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.', 'sender'],
    ["Twilio answered 400 (error 21211): The 'To' number [redacted] is not a valid phone number.", 'recipient'],
    ['Twilio answered 400 (error 21610): Attempt to send to unsubscribed recipient', 'recipient'],
    ['Twilio answered 429 (error 20429): Too Many Requests', 'message'],
    ['Twilio answered 503: no details', 'message'],
    ['Twilio could not be reached: fetch failed', 'message'],
    ['gave up after 5 attempts: Twilio could not be reached: timed out', 'message'],
    ['Twilio answered 400 (error 21617): The concatenated message body exceeds the 1600 character limit', 'unknown'],
    ['Twilio answered 400 (error 21408): Permission to send an SMS has not been enabled', 'message'],
    ['Message delivery failed: error 30007', 'sender'],
    ['something else entirely', 'unknown'],
  ] as const)('"%s" is %s', (text, kind) => {
    expect(classifyTwilioText(text).kind).toBe(kind);
  });

  it('keeps the STOP of a stored 21610', () => {
    expect(
      classifyTwilioText('Twilio answered 400 (error 21610): Attempt to send to unsubscribed recipient').stop,
    ).toBe(true);
  });
});

describe('classifyStoredAnswer', () => {
  it('reads email rows as SMTP answers and text rows as Twilio answers', () => {
    expect(classifyStoredAnswer('email', 'Invalid login: 535 Authentication failed').kind).toBe('sender');
    expect(
      classifyStoredAnswer('email', "Can't send mail - all recipients were rejected: 550 5.1.1 User unknown"),
    ).toEqual({ kind: 'recipient', reason: 'The mail server says this address does not exist (550 5.1.1).' });
    expect(classifyStoredAnswer('sms', 'Twilio answered 400 (error 21614): not a mobile number').kind).toBe(
      'recipient',
    );
    expect(classifyStoredAnswer('sms', 'Invalid login: 535 Authentication failed').kind).toBe('unknown');
  });
});

describe('accountStatusVerdict', () => {
  it('lets an active account send, and makes a suspended or closed one our trouble', () => {
    expect(accountStatusVerdict('active')).toBeUndefined();
    expect(accountStatusVerdict('suspended')).toMatchObject({
      kind: 'sender',
      reason: expect.stringMatching(/suspended/),
    });
    expect(accountStatusVerdict('closed')).toMatchObject({ kind: 'sender', reason: expect.stringMatching(/closed/) });
  });
});
