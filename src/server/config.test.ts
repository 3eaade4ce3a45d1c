import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { backupDays, ConfigError, loadConfig, parseDatabaseUrl, parseTrustProxy } from './config.js';
import { ENVIRONMENT_VARIABLES } from './environment.js';

describe('DATABASE_URL', () => {
  it('defaults to data/signups.db', () => {
    expect(parseDatabaseUrl(undefined, '/srv/app')).toEqual({ kind: 'sqlite', file: '/srv/app/data/signups.db' });
    expect(parseDatabaseUrl('', '/srv/app')).toMatchObject({ file: '/srv/app/data/signups.db' });
  });
  it('takes sqlite:<path>, relative to the working folder or absolute', () => {
    expect(parseDatabaseUrl('sqlite:other.db', '/srv/app')).toMatchObject({ file: '/srv/app/other.db' });
    expect(parseDatabaseUrl('sqlite:/var/lib/scamsavvy/signups.db', '/srv/app')).toMatchObject({
      file: '/var/lib/scamsavvy/signups.db',
    });
    expect(parseDatabaseUrl('sqlite:///var/lib/s.db', '/srv/app')).toMatchObject({
      file: path.resolve('/var/lib/s.db'),
    });
  });
  it('takes postgres:// and postgresql:// URLs as they are', () => {
    expect(parseDatabaseUrl('postgres://u:p@db:5432/app', '/', 7)).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/app',
      poolSize: 7,
    });
    expect(parseDatabaseUrl('postgresql://db/app', '/')).toMatchObject({
      kind: 'postgres',
      url: 'postgresql://db/app',
    });
  });
  it('explains what it cannot use', () => {
    expect(() => parseDatabaseUrl('mysql://x', '/')).toThrow(/must be unset, sqlite:<path>/);
    expect(() => parseDatabaseUrl('sqlite:', '/')).toThrow(/needs a file path/);
  });
});

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 3000,
      host: 'localhost',
      logLevel: 'info',
      distDir: '/srv/app/dist',
      rateLimit: { perMinute: 5, perHour: 20, redisUrl: undefined, eventsPerMinute: 60 },
      publicConfig: { consentMode: 'opt-in' },
      trustProxy: false,
    });
  });
  it('lists every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' }, '/');
      expect.unreachable('loadConfig should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/LOG_LEVEL/);
      expect(problems).toMatch(/DATABASE_URL/);
    }
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8')).toEqual(['127.0.0.1', '10.0.0.0/8']);
  });
  it('rejects a REDIS_URL that is not redis://', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://cache' }, '/')).toThrow(/REDIS_URL/);
  });

  it('reads SMS_COUNTRIES (default: SMS_DEFAULT_COUNTRY) and names each code the numbering plan does not know', () => {
    expect(loadConfig({}, '/').messaging.textHours?.textCountries).toEqual(['US']);
    expect(loadConfig({ SMS_DEFAULT_COUNTRY: 'CA' }, '/').messaging.textHours?.textCountries).toEqual(['CA']);
    expect(loadConfig({ SMS_COUNTRIES: 'us, CA' }, '/').messaging.textHours?.textCountries).toEqual(['US', 'CA']);
    expect(() => loadConfig({ SMS_COUNTRIES: 'US,XX,QQ' }, '/')).toThrow(/SMS_COUNTRIES: XX, QQ are not countries/);
    expect(() => loadConfig({ SMS_COUNTRIES: 'United States' }, '/')).toThrow(/SMS_COUNTRIES: must be two-letter/);
  });
});

describe('analytics providers and consent', () => {
  it('switches on only the providers whose IDs are set, and tells the page nothing else', () => {
    const config = loadConfig(
      {
        GA_MEASUREMENT_ID: 'G-ABC123DEF4',
        POSTHOG_KEY: 'phc_abcdefghijklmnopqrstuvwxyz012345',
        META_PIXEL_ID: '',
        CONSENT_MODE: 'opt-out',
      },
      '/',
    );
    expect(config.publicConfig).toEqual({
      consentMode: 'opt-out',
      ga4: { measurementId: 'G-ABC123DEF4' },
      posthog: { key: 'phc_abcdefghijklmnopqrstuvwxyz012345', host: 'https://us.i.posthog.com' },
    });
  });
  it('takes another PostHog host, without a trailing slash', () => {
    const config = loadConfig(
      { POSTHOG_KEY: 'phc_abcdefghijklmnopqrstuvwxyz012345', POSTHOG_HOST: 'https://eu.i.posthog.com/' },
      '/',
    );
    expect(config.publicConfig.posthog?.host).toBe('https://eu.i.posthog.com');
  });
  it('lists every malformed ID at once', () => {
    try {
      loadConfig(
        {
          GA_MEASUREMENT_ID: 'UA-1234-1',
          POSTHOG_KEY: 'secret',
          POSTHOG_HOST: 'us.i.posthog.com',
          META_PIXEL_ID: 'pixel',
          CONSENT_MODE: 'maybe',
        },
        '/',
      );
      expect.unreachable('loadConfig should have thrown');
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['GA_MEASUREMENT_ID', 'POSTHOG_KEY', 'POSTHOG_HOST', 'META_PIXEL_ID', 'CONSENT_MODE']) {
        expect(problems).toContain(name);
      }
    }
  });
});

describe('SITE_URL', () => {
  it("is this server's local address until set, and says so", () => {
    expect(loadConfig({ PORT: '8080' }, '/srv/app')).toMatchObject({
      siteUrl: 'http://localhost:8080',
      siteUrlIsDefault: true,
    });
  });

  it('takes the origin visitors use, without a trailing slash', () => {
    for (const value of ['https://scamsavvy.example', 'https://scamsavvy.example/', ' http://10.0.0.5:8080 ']) {
      const config = loadConfig({ SITE_URL: value }, '/srv/app');
      expect(config.siteUrl).toBe(value.trim().replace(/\/$/, ''));
      expect(config.siteUrlIsDefault).toBe(false);
    }
  });

  it.each([
    'scamsavvy.example',
    'https://scamsavvy.example/signup',
    'ftp://scamsavvy.example',
    'https://a.example/"><script>',
  ])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ SITE_URL: value }, '/srv/app')).toThrow(/SITE_URL: must be the address visitors use/);
  });
});

describe('documentation', () => {
  it('README.md and .env.example document every variable the server reads', () => {
    const readme = readFileSync('README.md', 'utf8');
    const example = readFileSync('.env.example', 'utf8');
    expect(ENVIRONMENT_VARIABLES.length).toBeGreaterThan(10);
    for (const name of ENVIRONMENT_VARIABLES) {
      expect(readme, `README.md documents ${name}`).toContain(`\`${name}\``);
      expect(example, `.env.example documents ${name}`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
  });
});

describe('messaging', () => {
  const email = {
    SITE_URL: 'https://scamsavvy.example',
    SECRET_KEY: 'k'.repeat(32),
    SMTP_URL: 'smtp://user:pass@smtp.example.net:587',
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
  };
  const twilio = {
    SITE_URL: 'https://scamsavvy.example',
    SECRET_KEY: 'k'.repeat(32),
    TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: 'b'.repeat(32),
    TWILIO_FROM: '+15551234567',
  };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env, '/');
    } catch (error) {
      return (error as ConfigError).problems.join('\n');
    }
    return '';
  };

  it('is off, with confirmation off, while nothing is set', () => {
    expect(loadConfig({ TEST_TEXT_CLOCK: '' }, '/').messaging).toEqual({
      smsConfirmation: 'reply',
      textHours: { sendHours: [9 * 60, 20 * 60], defaultCountry: 'US', textCountries: ['US'], clockShiftMs: 0 },
      emailConfirmation: false,
      unconfirmedRetentionDays: 30,
      confirmationReminderDays: 7,
      feedback: {},
    });
  });
  it('reads what comes back after a send: each provider off until set, shares as 2% or 0.02, and SECRET_KEY required', () => {
    const secret = { SECRET_KEY: 'k'.repeat(40) };
    expect(
      loadConfig(
        {
          ...secret,
          BOUNCE_ADDRESS: 'bounces@mail.example.org',
          BOUNCE_IMAP_URL: 'imaps://bounces:pw@mail.example.org:993/INBOX',
          MAILGUN_WEBHOOK_SIGNING_KEY: 'key-0123456789abcdef',
          BROADCAST_MAX_BOUNCE_RATE: '3%',
          BROADCAST_MAX_COMPLAINT_RATE: '0.002',
        },
        '/',
      ),
    ).toMatchObject({
      messaging: {
        feedback: {
          bounceAddress: 'bounces@mail.example.org',
          bounceImapUrl: 'imaps://bounces:pw@mail.example.org:993/INBOX',
          mailgun: { signingKey: 'key-0123456789abcdef' },
        },
      },
      broadcast: { maxBounceRate: 0.03, maxComplaintRate: 0.002 },
    });
    expect(loadConfig({}, '/').broadcast).toMatchObject({ maxBounceRate: 0.02, maxComplaintRate: 0.001 });
    expect(() => loadConfig({ BROADCAST_MAX_BOUNCE_RATE: '150%' }, '/')).toThrow(/BROADCAST_MAX_BOUNCE_RATE/);
    expect(() => loadConfig({ MAILGUN_WEBHOOK_SIGNING_KEY: 'key-0123456789abcdef' }, '/')).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ ...secret, BOUNCE_IMAP_URL: 'imaps://a:b@c/INBOX' }, '/')).toThrow(/BOUNCE_ADDRESS/);
  });
  it('reads the SES, Postmark, SendGrid and Resend webhooks, each off until set, and refuses half a setting', () => {
    const secret = { SECRET_KEY: 'k'.repeat(40) };
    const topic = 'arn:aws:sns:us-east-1:123456789012:ses-feedback';
    expect(
      loadConfig(
        {
          ...secret,
          SES_SNS_TOPIC_ARNS: `${topic} , arn:aws:sns:eu-west-1:123456789012:other`,
          POSTMARK_WEBHOOK_USER: 'postmark-hook',
          POSTMARK_WEBHOOK_PASSWORD: 'p'.repeat(20),
          SENDGRID_WEBHOOK_PUBLIC_KEY: `MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE${'A'.repeat(60)}==`,
          RESEND_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        },
        '/',
      ).messaging.feedback,
    ).toEqual({
      ses: { topicArns: [topic, 'arn:aws:sns:eu-west-1:123456789012:other'] },
      postmark: { user: 'postmark-hook', password: 'p'.repeat(20) },
      sendgrid: { publicKey: `MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE${'A'.repeat(60)}==` },
      resend: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    });
    expect(loadConfig(secret, '/').messaging.feedback).toEqual({});
    expect(() => loadConfig({ ...secret, SES_SNS_TOPIC_ARNS: 'ses-feedback' }, '/')).toThrow(/SES_SNS_TOPIC_ARNS/);
    expect(() => loadConfig({ ...secret, POSTMARK_WEBHOOK_USER: 'postmark-hook' }, '/')).toThrow(
      /POSTMARK_WEBHOOK_PASSWORD/,
    );
    expect(() => loadConfig({ ...secret, SES_SNS_BASE_URL: 'http://127.0.0.1:1' }, '/')).toThrow(/SES_SNS_BASE_URL/);
    expect(() => loadConfig({ RESEND_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, '/')).toThrow(
      /SECRET_KEY/,
    );
  });
  it('reads CONFIRMATION_REMINDER_DAYS (7 by default, 0 for none) and refuses one that would come after the deletion', () => {
    expect(loadConfig({}, '/').messaging.confirmationReminderDays).toBe(7);
    // Unset with a short retention: the day before the deletion.
    expect(loadConfig({ UNCONFIRMED_RETENTION_DAYS: '5' }, '/').messaging.confirmationReminderDays).toBe(4);
    expect(loadConfig({ CONFIRMATION_REMINDER_DAYS: '0' }, '/').messaging.confirmationReminderDays).toBe(0);
    expect(() => loadConfig({ CONFIRMATION_REMINDER_DAYS: '30' }, '/')).toThrow(/CONFIRMATION_REMINDER_DAYS/);
    expect(() => loadConfig({ CONFIRMATION_REMINDER_DAYS: '5', UNCONFIRMED_RETENTION_DAYS: '5' }, '/')).toThrow(
      /fewer than UNCONFIRMED_RETENTION_DAYS \(5\)/,
    );
  });
  it('turns email on with confirmation by default, and off when asked', () => {
    const { messaging } = loadConfig(email, '/');
    expect(messaging.email).toEqual({ smtpUrl: email.SMTP_URL, from: email.MAIL_FROM });
    expect(messaging.emailConfirmation).toBe(true);
    expect(loadConfig({ ...email, EMAIL_CONFIRMATION: 'off' }, '/').messaging.emailConfirmation).toBe(false);
    expect(loadConfig({ ...email, UNCONFIRMED_RETENTION_DAYS: '7' }, '/').messaging.unconfirmedRetentionDays).toBe(7);
    // The page is told of the one reminder only when one will come: the success view says so.
    expect(loadConfig(email, '/').publicConfig).toMatchObject({
      emailConfirmation: true,
      unconfirmedRetentionDays: 30,
      confirmationReminderDays: 7,
    });
    expect(loadConfig({ ...email, CONFIRMATION_REMINDER_DAYS: '0' }, '/').publicConfig).not.toHaveProperty(
      'confirmationReminderDays',
    );
  });
  it('turns texts on with a number or a Messaging Service, and the real API unless told', () => {
    expect(loadConfig(twilio, '/').messaging.sms).toEqual({
      provider: 'twilio',
      accountSid: twilio.TWILIO_ACCOUNT_SID,
      authToken: twilio.TWILIO_AUTH_TOKEN,
      from: '+15551234567',
      apiBaseUrl: 'https://api.twilio.com',
    });
    const service = { ...twilio, TWILIO_FROM: '', TWILIO_MESSAGING_SERVICE_SID: `MG${'c'.repeat(32)}` };
    expect(loadConfig(service, '/').messaging.sms).toMatchObject({ messagingServiceSid: `MG${'c'.repeat(32)}` });
    expect(loadConfig(twilio, '/').messaging.emailConfirmation).toBe(false);
  });
  it('reads a DKIM key written on one line', () => {
    const key = '-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----';
    const { messaging } = loadConfig(
      { ...email, DKIM_DOMAIN: 'scamsavvy.example', DKIM_SELECTOR: 'mail', DKIM_PRIVATE_KEY: key },
      '/',
    );
    expect(messaging.email?.dkim).toEqual({
      domainName: 'scamsavvy.example',
      keySelector: 'mail',
      privateKey: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----',
    });
  });
  it('names every variable of a half-configured or bad setting', () => {
    expect(problemsOf({ ...email, SECRET_KEY: '' })).toMatch(/SECRET_KEY: required/);
    expect(problemsOf({ ...email, SECRET_KEY: 'short' })).toMatch(/SECRET_KEY: must be at least 32/);
    expect(problemsOf({ ...email, SITE_URL: '' })).toMatch(/SITE_URL: required/);
    expect(problemsOf({ ...email, MAIL_FROM: '' })).toMatch(/MAIL_FROM: needed with SMTP_URL/);
    expect(problemsOf({ ...email, MAIL_FROM: 'not an address' })).toMatch(/MAIL_FROM: must be an address/);
    expect(problemsOf({ ...email, SMTP_URL: 'http://smtp.example.net' })).toMatch(/SMTP_URL: must look like/);
    expect(problemsOf({ ...email, DKIM_DOMAIN: 'scamsavvy.example' })).toMatch(/set all three to sign, or none/);
    expect(problemsOf({ ...twilio, TWILIO_AUTH_TOKEN: '' })).toMatch(/TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN: set both/);
    expect(problemsOf({ ...twilio, TWILIO_FROM: '' })).toMatch(/TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID/);
    expect(problemsOf({ ...twilio, TWILIO_FROM: '555-1234' })).toMatch(/TWILIO_FROM: must be your Twilio number/);
    expect(problemsOf({ ...twilio, TWILIO_ACCOUNT_SID: 'AC123' })).toMatch(/TWILIO_ACCOUNT_SID: must be/);
    expect(problemsOf({ EMAIL_CONFIRMATION: 'on' })).toMatch(/EMAIL_CONFIRMATION: "on" needs email/);
    expect(problemsOf({ EMAIL_CONFIRMATION: 'maybe' })).toMatch(/EMAIL_CONFIRMATION/);
    expect(problemsOf({ UNCONFIRMED_RETENTION_DAYS: '0' })).toMatch(/UNCONFIRMED_RETENTION_DAYS/);
  });

  it('refuses an http:// SITE_URL while email is on, but for this computer, and texts alone do not need https', () => {
    expect(problemsOf({ ...email, SITE_URL: 'http://scamsavvy.example' })).toMatch(
      /SITE_URL: must start with https:\/\/ while email is on/,
    );
    for (const loopback of ['http://localhost:3000', 'http://127.0.0.1:3000'])
      expect(problemsOf({ ...email, SITE_URL: loopback }), loopback).toBe('');
    expect(problemsOf({ ...email })).toBe('');
    expect(problemsOf({ ...twilio, SITE_URL: 'http://scamsavvy.example' })).toBe('');
  });

  it('rehearses with no account: MAIL_TRANSPORT and SMS_TRANSPORT folder:PATH need neither SMTP_URL, Twilio nor SITE_URL', () => {
    const config = loadConfig(
      { SECRET_KEY: 'k'.repeat(32), MAIL_TRANSPORT: 'folder:rehearsal/email', SMS_TRANSPORT: 'folder:rehearsal/texts' },
      '/',
    );
    expect(config.messaging.email).toEqual({ folder: 'rehearsal/email', from: 'ScamSavvy <hello@localhost>' });
    expect(config.messaging.sms).toEqual({ provider: 'folder', folder: 'rehearsal/texts' });
    expect(problemsOf({ ...email, MAIL_TRANSPORT: 'folder:x' })).toMatch(/MAIL_TRANSPORT: folder:… writes every email/);
    expect(problemsOf({ ...twilio, SMS_TRANSPORT: 'folder:x' })).toMatch(/SMS_TRANSPORT: folder:… writes every text/);
    expect(problemsOf({ MAIL_TRANSPORT: 'files' })).toMatch(/MAIL_TRANSPORT: must be smtp .* or folder:PATH/);
    expect(problemsOf({ SMS_TRANSPORT: 'folder:' })).toMatch(/SMS_TRANSPORT: must be twilio .* or folder:PATH/);
    expect(problemsOf({ MAIL_TRANSPORT: 'folder:x' })).toMatch(/SECRET_KEY: required/);
  });

  it('reads the seed mailbox of the launch checks only whole: the address and its IMAP URL together', () => {
    expect(
      loadConfig(
        {
          ...email,
          READY_SEED_ADDRESS: 'seed@inbox.example',
          READY_SEED_IMAP_URL: 'imaps://u:p@imap.inbox.example/INBOX',
        },
        '/',
      ).readySeed,
    ).toEqual({
      address: 'seed@inbox.example',
      imapUrl: 'imaps://u:p@imap.inbox.example/INBOX',
      waitMs: 60_000,
    });
    expect(problemsOf({ ...email, READY_SEED_ADDRESS: 'seed@inbox.example' })).toMatch(
      /READY_SEED_ADDRESS, READY_SEED_IMAP_URL: set both/,
    );
    expect(problemsOf({ ...email, DNS_RESOLVER: 'not a server!' })).toMatch(/DNS_RESOLVER: must be a DNS server/);
  });

  it('refuses a postal address with characters that would make the answer to HELP a UCS-2 text, while texts are on', () => {
    expect(problemsOf({ ...twilio, MAIL_POSTAL_ADDRESS: '1 O’Brien Street, Springfield' })).toMatch(
      /MAIL_POSTAL_ADDRESS: "’" cannot go in a plain text message/,
    );
    expect(problemsOf({ ...twilio, MAIL_POSTAL_ADDRESS: "1 O'Brien Street, Springfield" })).toBe('');
    expect(problemsOf({ ...email, MAIL_POSTAL_ADDRESS: '1 O’Brien Street, Springfield' })).toBe('');
  });
});

describe('how long backups keep a deleted person (the privacy notice says it)', () => {
  it('is the oldest kept backup’s age in whole days, rounded up; the defaults without automatic backups', () => {
    expect(backupDays(loadConfig({ BACKUP_DIR: '/backups' }, '/').backup)).toBe(14);
    expect(
      backupDays(loadConfig({ BACKUP_DIR: '/backups', BACKUP_EVERY_HOURS: '6', BACKUP_KEEP: '10' }, '/').backup),
    ).toBe(3);
    expect(backupDays(loadConfig({ BACKUP_DIR: '/backups', BACKUP_KEEP: '30' }, '/').backup)).toBe(30);
    expect(backupDays(loadConfig({}, '/').backup)).toBe(14);
  });
});
