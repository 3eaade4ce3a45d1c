import { describe, expect, it } from 'vitest';
import type { FailureKind } from './send-failure.js';
import {
  classifySmtpError,
  classifySmtpText,
  readSmtpError,
  readSmtpText,
  SMTP_RULES,
  smtpRuleFor,
} from './smtp-answers.js';

/** A reason may name a host, never a person's address or number. */
const ADDRESS = /@|\+?\d(?:[\s-]?\d){6,}/;

interface Case {
  from: string;
  /** As nodemailer's error.message has it, and as an outbox row's `error` stores it. */
  text: string;
  kind: FailureKind;
  /** The rule that decides it; undefined: no rule knows it. */
  rule: string | undefined;
}

/** Answers as real servers give them, in nodemailer's words (its prefix, then the server's reply). */
const ANSWERS: Case[] = [
  // Gmail and Google Workspace
  {
    from: 'Gmail',
    text: 'Invalid login: 535-5.7.8 Username and Password not accepted. For more information, go to\n535 5.7.8  https://support.google.com/mail/?p=BadCredentials a1-20020a05600c000100b0040e3b7d2b14sm1 - gsmtp',
    kind: 'sender',
    rule: 'sign-in',
  },
  {
    from: 'Gmail',
    text: 'Invalid login: 534-5.7.9 Application-specific password required. Learn more at\n534 5.7.9  https://support.google.com/mail/?p=InvalidSecondFactor',
    kind: 'sender',
    rule: 'sign-in',
  },
  {
    from: 'Gmail',
    text: 'Invalid login: 534-5.7.14 Please log in via your web browser and\n534-5.7.14 then try again.',
    kind: 'sender',
    rule: 'sign-in',
  },
  {
    from: 'Gmail',
    text: 'Invalid login: 454-4.7.0 Too many login attempts, please try again later.',
    kind: 'message',
    rule: 'try-later',
  },
  {
    from: 'Gmail',
    text: "Can't send mail - all recipients were rejected: 550-5.1.1 The email account that you tried to reach does not exist. Please try\n550-5.1.1 double-checking the recipient's email address for typos or\n550 5.1.1 unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser",
    kind: 'recipient',
    rule: 'no-such-address',
  },
  {
    from: 'Gmail',
    text: "Can't send mail - all recipients were rejected: 550-5.2.1 The email account that you tried to reach is disabled.",
    kind: 'message',
    rule: 'mailbox-disabled',
  },
  {
    from: 'Gmail',
    text: "Can't send mail - all recipients were rejected: 452-4.2.2 The email account that you tried to reach is over quota.",
    kind: 'message',
    rule: 'mailbox-full',
  },
  {
    from: 'Gmail',
    text: 'Message failed: 550-5.7.1 [203.0.113.5] Our system has detected that this message is likely unsolicited mail. To reduce the amount of spam sent to Gmail, this message has been blocked.',
    kind: 'message',
    rule: 'refused-for-our-sending',
  },
  {
    from: 'Gmail',
    text: 'Message failed: 550-5.7.26 This mail is unauthenticated, which poses a security risk to the sender and Gmail users, and has been blocked.',
    kind: 'sender',
    rule: 'our-authentication',
  },
  {
    from: 'Gmail',
    text: 'Message failed: 421-4.7.0 [203.0.113.5] Our system has detected an unusual rate of unsolicited mail originating from your IP address.',
    kind: 'message',
    rule: 'try-later',
  },
  {
    from: 'Google Workspace',
    text: 'Message failed: 550 5.4.5 Daily user sending quota exceeded.',
    kind: 'sender',
    rule: 'quota-used',
  },
  // Microsoft 365 and Exchange
  {
    from: 'Microsoft 365',
    text: 'Invalid login: 535 5.7.139 Authentication unsuccessful, SmtpClientAuthentication is disabled for the Tenant.',
    kind: 'sender',
    rule: 'sign-in',
  },
  {
    from: 'Microsoft 365',
    text: 'Mail command failed: 530 5.7.57 Client not authenticated to send mail. [BN8NAM12FT051.eop-nam12.prod.protection.outlook.com]',
    kind: 'sender',
    rule: 'sign-in',
  },
  {
    from: 'Microsoft 365',
    text: "Can't send mail - all recipients were rejected: 550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup",
    kind: 'recipient',
    rule: 'no-such-address',
  },
  {
    from: 'Microsoft 365',
    text: 'Message failed: 554 5.2.252 SendAsDenied; hello@scamsavvy.example not allowed to send as hello@scamsavvy.example',
    kind: 'sender',
    rule: 'not-for-us',
  },
  {
    from: 'Exchange',
    text: "Can't send mail - all recipients were rejected: 550 5.7.1 Unable to relay",
    kind: 'sender',
    rule: 'not-for-us',
  },
  {
    from: 'Microsoft 365',
    text: 'Message failed: 421 4.3.2 Service not available, closing transmission channel',
    kind: 'message',
    rule: 'try-later',
  },
  // Amazon SES
  {
    from: 'Amazon SES',
    text: 'Invalid login: 535 Authentication Credentials Invalid',
    kind: 'sender',
    rule: 'sign-in',
  },
  {
    from: 'Amazon SES',
    text: 'Message failed: 554 Message rejected: Sending paused for this account. For more information, please check the AWS SES Console.',
    kind: 'sender',
    rule: 'account-stopped',
  },
  {
    from: 'Amazon SES',
    text: 'Message failed: 454 Throttling failure: Daily message quota exceeded.',
    kind: 'sender',
    rule: 'quota-used',
  },
  {
    from: 'Amazon SES',
    text: 'Message failed: 454 Throttling failure: Maximum sending rate exceeded.',
    kind: 'message',
    rule: 'try-later',
  },
  {
    from: 'Amazon SES',
    text: 'Message failed: 554 Message rejected: Email address is not verified. The following identities failed the check in region US-EAST-1: hello@scamsavvy.example',
    kind: 'sender',
    rule: 'not-for-us',
  },
  // Postfix
  {
    from: 'Postfix',
    text: "Can't send mail - all recipients were rejected: 550 5.1.1 <rosa@example.com>: Recipient address rejected: User unknown in local recipient table",
    kind: 'recipient',
    rule: 'no-such-address',
  },
  {
    from: 'Postfix',
    text: "Can't send mail - all recipients were rejected: 550 5.1.2 <rosa@nowhere.example>: Recipient address rejected: Domain not found",
    kind: 'recipient',
    rule: 'no-such-address',
  },
  {
    from: 'Postfix',
    text: "Can't send mail - all recipients were rejected: 554 5.7.1 <rosa@example.com>: Relay access denied",
    kind: 'sender',
    rule: 'not-for-us',
  },
  {
    from: 'Postfix',
    text: 'Mail command failed: 553 5.7.1 <hello@scamsavvy.example>: Sender address rejected: not owned by user smtpuser',
    kind: 'sender',
    rule: 'from-refused',
  },
  {
    from: 'Postfix',
    text: 'Mail command failed: 530 5.7.0 Must issue a STARTTLS command first',
    kind: 'sender',
    rule: 'sign-in',
  },
  {
    from: 'Postfix',
    text: "Can't send mail - all recipients were rejected: 450 4.1.1 <rosa@example.com>: Recipient address rejected: unverified address",
    kind: 'message',
    rule: 'try-later',
  },
  {
    from: 'Postfix',
    text: "Can't send mail - all recipients were rejected: 451 4.3.0 <rosa@example.com>: Temporary lookup failure",
    kind: 'message',
    rule: 'try-later',
  },
  {
    from: 'Postfix',
    text: "Can't send mail - all recipients were rejected: 452 4.5.3 Error: too many recipients",
    kind: 'message',
    rule: 'try-later',
  },
  {
    from: 'Postfix',
    text: "Can't send mail - all recipients were rejected: 554 5.7.1 Service unavailable; Client host [203.0.113.5] blocked using zen.spamhaus.org",
    kind: 'message',
    rule: 'refused-for-our-sending',
  },
  // Answers issue 30 names: the person's, ours, and the person's own server's policy
  {
    from: 'Office 365',
    text: "Can't send mail - all recipients were rejected: 550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient rosa@example.com not found by SMTP address lookup",
    kind: 'recipient',
    rule: 'no-such-address',
  },
  {
    from: 'Yahoo',
    text: "Can't send mail - all recipients were rejected: 554 delivery error: dd This user doesn't have a yahoo.com account (rosa@yahoo.com) [0] - mta1061.mail.ne1.yahoo.com",
    kind: 'recipient',
    rule: 'no-such-address-in-words',
  },
  {
    from: 'Outlook.com',
    text: "Can't send mail - all recipients were rejected: 550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302)",
    kind: 'recipient',
    rule: 'no-such-address-in-words',
  },
  {
    from: 'Microsoft 365',
    text: "Can't send mail - all recipients were rejected: 550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [BN8NAM12FT051.eop-nam12.prod.protection.outlook.com]",
    kind: 'recipient',
    rule: 'recipient-access-denied',
  },
  {
    from: 'a receiving server checking SPF',
    text: "Can't send mail - all recipients were rejected: 550 5.1.0 SPF check failed for scamsavvy.example",
    kind: 'sender',
    rule: 'our-authentication',
  },
  {
    from: 'Gmail',
    text: 'Message failed: 550-5.7.25 The IP address sending this message does not have a PTR record setup, or the corresponding forward DNS entry does not point to the sending IP.',
    kind: 'sender',
    rule: 'our-authentication',
  },
  {
    from: 'GoDaddy',
    text: "Can't send mail - all recipients were rejected: 553 5.1.3 203.0.113.5 is listed at spamhaus.org http://www.spamhaus.org/query/bl?ip=203.0.113.5",
    kind: 'message',
    rule: 'refused-for-our-sending',
  },
  {
    from: 'GoDaddy',
    text: "Can't send mail - all recipients were rejected: 550 5.1.1 <rosa@example.com> - 203.0.113.5 has sent to too many recipients this hour. IB607",
    kind: 'message',
    rule: 'refused-for-our-sending',
  },
  {
    from: 'Cox',
    text: "Can't send mail - all recipients were rejected: 550 5.1.0 <hello@scamsavvy.example> sender rejected. Refer to Error Codes section at https://www.cox.com/residential/support/email-error-codes.html",
    kind: 'sender',
    rule: 'not-for-us',
  },
  {
    from: 'Office 365',
    text: "Can't send mail - all recipients were rejected: 550 5.7.133 RESOLVER.RST.SenderNotAuthenticatedForGroup; authentication required; Delivery restriction check failed as sender not authenticated",
    kind: 'message',
    rule: 'persons-policy',
  },
  {
    from: 'Exchange',
    text: "Can't send mail - all recipients were rejected: 550 5.7.1 Client does not have permissions to send as this sender / not authorized to send to this recipient",
    kind: 'message',
    rule: 'persons-policy',
  },
  {
    from: 'a provider',
    text: "Can't send mail - all recipients were rejected: 550 5.1.1 <rosa@example.com> Recipient account is suspended",
    kind: 'message',
    rule: 'mailbox-disabled',
  },
  // Mailgun
  { from: 'Mailgun', text: 'Invalid login: 535 Authentication failed', kind: 'sender', rule: 'sign-in' },
  {
    from: 'Mailgun',
    text: 'Message failed: 554 Domain scamsavvy.example is not allowed to send: Free accounts are for test purposes only.',
    kind: 'sender',
    rule: 'not-for-us',
  },
  {
    from: 'Mailgun',
    text: "Can't send mail - all recipients were rejected: 550 5.7.1 Relaying denied",
    kind: 'sender',
    rule: 'not-for-us',
  },
  // SendGrid
  {
    from: 'SendGrid',
    text: 'Invalid login: 535 Authentication failed: Bad username / password',
    kind: 'sender',
    rule: 'sign-in',
  },
  {
    from: 'SendGrid',
    text: 'Invalid login: 451 Authentication failed: Maximum credits exceeded',
    kind: 'sender',
    rule: 'quota-used',
  },
  {
    from: 'SendGrid',
    text: 'Mail command failed: 550 Unauthenticated senders not allowed',
    kind: 'sender',
    rule: 'from-refused',
  },
  {
    from: 'SendGrid',
    text: 'Message failed: 550 The from address does not match a verified Sender Identity. Mail cannot be sent until this error is resolved.',
    kind: 'sender',
    rule: 'not-for-us',
  },
  // Servers that give no enhanced status code
  {
    from: 'an older server',
    text: "Can't send mail - all recipients were rejected: 550 <rosa@example.com>: No such user here",
    kind: 'recipient',
    rule: 'no-such-address-in-words',
  },
  {
    from: 'an older server',
    text: 'Message failed: 552 Requested mail action aborted: mailbox full',
    kind: 'message',
    rule: 'mailbox-full',
  },
  { from: 'an older server', text: 'Message failed: 554 Transaction failed', kind: 'unknown', rule: undefined },
  {
    from: 'an older server',
    text: 'Message failed: 552 5.3.4 Message size exceeds fixed maximum message size',
    kind: 'unknown',
    rule: undefined,
  },
  // No answer at all, as nodemailer words it
  {
    from: 'the network',
    text: 'connect ECONNREFUSED 127.0.0.1:465',
    kind: 'message',
    rule: 'unreachable',
  },
  { from: 'the network', text: 'Connection timeout', kind: 'message', rule: 'unreachable' },
  { from: 'the network', text: 'Greeting never received', kind: 'message', rule: 'unreachable' },
  { from: 'the network', text: 'Connection closed unexpectedly', kind: 'message', rule: 'unreachable' },
  { from: 'the network', text: 'read ECONNRESET', kind: 'message', rule: 'unreachable' },
  { from: 'DNS', text: 'getaddrinfo ENOTFOUND smtp.example.org', kind: 'sender', rule: 'dns' },
  { from: 'DNS', text: 'getaddrinfo EAI_AGAIN smtp.example.org', kind: 'message', rule: 'dns-for-now' },
  { from: 'TLS', text: 'self-signed certificate', kind: 'sender', rule: 'tls' },
  { from: 'TLS', text: 'certificate has expired', kind: 'sender', rule: 'tls' },
  {
    from: 'TLS',
    text: "Hostname/IP does not match certificate's altnames: Host: smtp.example.org. is not in the cert's altnames: DNS:mail.other.example",
    kind: 'sender',
    rule: 'tls',
  },
  {
    from: 'TLS',
    text: 'Error initiating TLS - 802C6239B97F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number',
    kind: 'sender',
    rule: 'tls',
  },
  {
    from: 'nodemailer',
    text: 'Invalid recipient "rosa@@example.com"',
    kind: 'recipient',
    rule: 'invalid-address',
  },
  {
    from: 'nodemailer',
    text: 'Missing credentials for "PLAIN"',
    kind: 'sender',
    rule: 'sign-in',
  },
];

describe('classifySmtpText: the answers of real mail servers, as stored', () => {
  it.each(ANSWERS)('$from: "$text" is $kind', ({ text, kind, rule }) => {
    const verdict = classifySmtpText(text);
    expect(verdict.kind).toBe(kind);
    expect(smtpRuleFor(readSmtpText(text))?.id).toBe(rule);
    expect(verdict.reason).not.toMatch(ADDRESS);
    expect(verdict.stop).toBeUndefined();
  });

  it('covers every rule with at least one real answer', () => {
    const covered = new Set(ANSWERS.map((answer) => answer.rule));
    expect(SMTP_RULES.map((rule) => rule.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it('recognises the rows an older release failed for good: a refused sign-in was ours, not the person’s', () => {
    expect(classifySmtpText('Invalid login: 535 Authentication failed').kind).toBe('sender');
    expect(classifySmtpText("Can't send mail - all recipients were rejected: 550 5.1.1 User unknown").kind).toBe(
      'recipient',
    );
    // Our own prefix in front, and a port that looks like a reply code.
    expect(classifySmtpText('gave up after 3 attempts: Invalid login: 535 5.7.8 Error: authentication failed')).toEqual(
      {
        kind: 'sender',
        reason:
          'The mail server refused our sign-in (535 5.7.8): check the user name and password in SMTP_URL, then resume.',
      },
    );
    expect(readSmtpText('connect ECONNREFUSED 10.5.1.1:465')).toMatchObject({ systemCode: 'ECONNREFUSED' });
    expect(readSmtpText('connect ECONNREFUSED 10.5.1.1:465').reply).toBeUndefined();
    expect(readSmtpText('connect ECONNREFUSED 10.5.1.1:465').status).toBeUndefined();
  });

  it('says what happened and what to do, in plain words', () => {
    expect(classifySmtpText('getaddrinfo ENOTFOUND smtp.example.org').reason).toBe(
      "The mail server's name (smtp.example.org) could not be found: check SMTP_URL, then resume.",
    );
    expect(classifySmtpText('connect ECONNREFUSED 127.0.0.1:587').reason).toBe(
      'The mail server did not answer (connection refused): we will keep trying.',
    );
    expect(classifySmtpText('Connection timeout').reason).toBe(
      'The mail server did not answer (timed out): we will keep trying.',
    );
    expect(
      classifySmtpText("Can't send mail - all recipients were rejected: 550 5.1.1 <rosa@example.com>: User unknown")
        .reason,
    ).toBe('The mail server says this address does not exist (550 5.1.1).');
    expect(classifySmtpText('certificate has expired').reason).toMatch(/certificate has expired.*SMTP_URL.*resume/);
    const unknown = classifySmtpText('Message failed: 554 5.7.1 <rosa@example.com>: transaction declined, code 42');
    expect(unknown.reason).toContain('"Message failed: 554 5.7.1 <[redacted]>: transaction declined, code 42"');
    expect(unknown.reason).not.toMatch(ADDRESS);
  });
});

describe("classifySmtpError: nodemailer's errors, field by field", () => {
  /** An error shaped as nodemailer 10 makes it (smtp-connection's _formatError). */
  const nodemailerError = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message)), fields);

  it('reads a refused sign-in from its code, reply and command', () => {
    const error = nodemailerError({
      message: 'Invalid login: 535 5.7.8 Authentication credentials invalid',
      code: 'EAUTH',
      response: '535 5.7.8 Authentication credentials invalid',
      responseCode: 535,
      command: 'AUTH PLAIN',
    });
    expect(readSmtpError(error)).toMatchObject({ code: 'EAUTH', reply: 535, status: '5.7.8', command: 'AUTH PLAIN' });
    expect(classifySmtpError(error)).toEqual({
      kind: 'sender',
      reason:
        'The mail server refused our sign-in (535 5.7.8): check the user name and password in SMTP_URL, then resume.',
    });
  });

  it('takes a 5.7.0 to AUTH for a sign-in answer, and the same code to RCPT for a policy one', () => {
    const toAuth = nodemailerError({
      message: 'Invalid login: 550 5.7.0 Access denied',
      code: 'EAUTH',
      response: '550 5.7.0 Access denied',
      responseCode: 550,
      command: 'AUTH LOGIN',
    });
    expect(classifySmtpError(toAuth).kind).toBe('sender');
    const toRcpt = nodemailerError({
      message: "Can't send mail - all recipients were rejected: 550 5.7.0 Message refused",
      code: 'EENVELOPE',
      response: '550 5.7.0 Message refused',
      responseCode: 550,
      command: 'RCPT TO',
    });
    expect(classifySmtpError(toRcpt).kind).toBe('unknown');
  });

  it('names the host that could not be found, and only a host', () => {
    const error = nodemailerError({
      message: 'getaddrinfo ENOTFOUND smtp.example.org',
      code: 'EDNS',
      originalCode: 'ENOTFOUND',
      hostname: 'smtp.example.org',
      command: 'CONN',
    });
    expect(classifySmtpError(error).reason).toContain('(smtp.example.org)');
    const odd = nodemailerError({ message: 'getaddrinfo ENOTFOUND', code: 'EDNS', hostname: 'user:secret@host' });
    expect(classifySmtpError(odd)).toEqual({
      kind: 'sender',
      reason: "The mail server's name could not be found: check SMTP_URL, then resume.",
    });
  });

  it('reads certificate trouble from the system code beneath ESOCKET', () => {
    for (const [originalCode, words] of [
      ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed'],
      ['CERT_HAS_EXPIRED', 'expired'],
      ['ERR_TLS_CERT_ALTNAME_INVALID', 'another name'],
      ['ERR_SSL_WRONG_VERSION_NUMBER', 'does not speak TLS on this port'],
    ] as const) {
      const verdict = classifySmtpError(
        nodemailerError({ message: 'the TLS handshake failed', code: 'ESOCKET', originalCode, command: 'CONN' }),
      );
      expect(verdict.kind).toBe('sender');
      expect(verdict.reason).toContain(words);
    }
  });

  it('calls refused, reset and timed-out connections the message’s trouble, for now', () => {
    for (const fields of [
      { message: 'connect ECONNREFUSED 127.0.0.1:587', code: 'ESOCKET', originalCode: 'ECONNREFUSED' },
      { message: 'read ECONNRESET', code: 'ESOCKET', originalCode: 'ECONNRESET' },
      { message: 'Connection timeout', code: 'ETIMEDOUT', timeoutType: 'CONNECT_TIMEOUT' },
      { message: 'Connection closed unexpectedly', code: 'ECONNECTION' },
      { message: 'connect EHOSTUNREACH 10.0.0.9:587', code: 'ESOCKET', originalCode: 'EHOSTUNREACH' },
    ])
      expect(classifySmtpError(nodemailerError({ ...fields, command: 'CONN' })).kind).toBe('message');
  });

  it('judges a thrown thing that is not an error as unknown, quoting it', () => {
    expect(classifySmtpError('something odd')).toEqual({
      kind: 'unknown',
      reason:
        'We do not recognise the mail server\'s answer ("something odd"): we will try a few more times, then wait for you to read it and resume.',
    });
  });
});
