// `consent:proof` in-process against a temporary SQLite database: the proof as text and JSON for a
// person on the list (signed up on the form, texted YES, then STOP, each with the words), the proof
// kept for a person deleted since, the audit log's line, and the mistakes it refuses.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../server/db/open-database.js';
import { loadConfig } from '../server/config.js';
import { compose } from '../server/compose.js';
import { consentTextsNow } from '../server/consent/consent-texts.js';
import { SIGNUP_CONSENT_VERSION, signupConsentWords } from '../shared/consent-words.js';
import { runCommand } from '../server/test/run-command.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { main } from './consent-proof.js';

const SECRET_KEY = 'test-secret-key-that-is-at-least-32-characters';
let file: string;
const run = (...argv: string[]) => runCommand(main, argv);

beforeEach(async () => {
  file = tempDatabaseFile();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  vi.stubEnv('SECRET_KEY', SECRET_KEY);
  const store = await openDatabase({ kind: 'sqlite', file });
  try {
    // As the server leaves it: the words it showed kept, a sign-up, its YES and its STOP.
    await store.consentTexts.keep(consentTextsNow());
    await store.signups.add({
      name: 'Rosa Díaz',
      phone: '+12125550142',
      email: 'rosa@example.com',
      betaTesting: false,
      consentVersion: SIGNUP_CONSENT_VERSION,
    });
    const { subscriptions } = compose(loadConfig(), store).messaging;
    await subscriptions.confirmTexts('+12125550142', 'YES');
    await subscriptions.stopTexts('+12125550142', 'sms_reply', 'STOP');
  } finally {
    await store.close();
  }
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('consent:proof', () => {
  it('prints the sign-up, the YES and the STOP with their words, as text and as JSON', async () => {
    const text = await run('--phone', '(212) 555-0142');
    expect(text.code).toBe(0);
    expect(text.out).toContain('Proof of consent: Rosa Díaz, rosa@example.com, +12125550142 (on the list;');
    expect(text.out).toContain(`consent version ${SIGNUP_CONSENT_VERSION}`);
    expect(text.out).toContain(
      `Words shown: “${signupConsentWords.en.consentDetails} / ${signupConsentWords.en.consent}”`,
    );
    expect(text.out).toContain('Words received: “YES”');
    expect(text.out).toContain('Words received: “STOP”');
    const json = await run('--email', 'ROSA@example.com', '--format', 'json');
    const [proof] = JSON.parse(json.out) as { lines: { kind: string; wordsReceived: string | null }[] }[];
    expect(proof?.lines.map((line) => [line.kind, line.wordsReceived])).toEqual([
      ['signed_up', null],
      ['sms_confirmed', 'YES'],
      ['sms_off', 'STOP'],
    ]);
    const store = await openDatabase({ kind: 'sqlite', file }, { migrate: false });
    try {
      const [entry] = await store.owners.auditLog(1);
      expect(entry).toMatchObject({ action: 'viewed_person', detail: 'The proof of consent (on the list)' });
    } finally {
      await store.close();
    }
  });

  it('says what a deletion kept, and that nothing is kept for an address never seen', async () => {
    const store = await openDatabase({ kind: 'sqlite', file });
    try {
      const { subscriptions } = compose(loadConfig(), store).messaging;
      expect(await subscriptions.removeByAddress({ email: 'rosa@example.com' }, 'owner')).toHaveLength(1);
    } finally {
      await store.close();
    }
    const kept = await run('--email', 'rosa@example.com');
    expect(kept.out).toContain('deleted since. What their "no" keeps, by a scrambled code of the address:');
    expect(kept.out).toContain('Words received: “STOP”');
    expect(kept.out).toContain('Deleted their details');
    expect(kept.out).not.toContain('Rosa');
    expect((await run('--email', 'nobody@example.com')).out).toBe(
      'Nothing is kept for the email nobody@example.com: no sign-up, and no "no".\n',
    );
    expect((await run()).code).toBe(2);
    expect((await run('--email', 'a@example.com', '--phone', '+12125550142')).code).toBe(2);
    expect((await run('--phone', 'call me')).code).toBe(2);
    expect((await run('--email', 'a@example.com', '--format', 'pdf')).err).toBe(
      '--format is text or json, not "pdf".\n',
    );
  });
});
