// The overview's "our email failed a receiving server's checks": shown, with each check and domain
// and what to do, only when such reports came back (issue 42); never otherwise.
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { ownerWords } from './owner-words.js';
import { machineClock } from '../test/clock.js';

const words = ownerWords.overview;

async function overview(reports: { mechanism: string; domain: string }[]) {
  const { app, db } = await buildTestApp();
  for (const [index, { mechanism, domain }] of reports.entries()) {
    const token = `authfailure${String(index).padStart(19, '0')}`;
    await db.sentMessages.sending([
      { token, channel: 'email', purpose: 'broadcast', signupId: null, addressHash: `h${index}` },
    ]);
    await db.feedbackEvents.store({
      source: 'imap',
      eventId: `auth-${index}`,
      kind: 'auth_failure',
      token,
      code: mechanism,
      detail: domain,
      occurredAt: machineClock.now().toISOString(),
    });
  }
  const page = await app.inject({ url: '/owner', headers: { cookie: await signInAsOwner(app, db) } });
  const block = /<div[^>]*data-figure="auth-failures"[^>]*>([\s\S]*?)<\/div>/.exec(page.body)?.[1];
  return block
    ?.replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#x2019;', '’')
    .trim();
}

describe("the overview's authentication failures", () => {
  it('names each failing check and domain with its count, says what to do, and blames nobody', async () => {
    const text = await overview([
      { mechanism: 'dkim', domain: 'scamsavvy.example' },
      { mechanism: 'dkim', domain: 'scamsavvy.example' },
      { mechanism: 'spf', domain: 'mail.scamsavvy.example' },
    ]);
    expect(text).toBe(
      [
        words.authFailuresHeading,
        words.authFailure('dkim', 'scamsavvy.example', 2),
        words.authFailure('spf', 'mail.scamsavvy.example', 1),
        words.authFailuresFix,
      ].join(' '),
    );
    expect(text).toMatch(/Nobody on the list is held to blame/);
  });

  it('is not there when no such report came back', async () => {
    expect(await overview([])).toBeUndefined();
  });
});
