import { describe, expect, it } from 'vitest';
import type { StateCounts } from '../server/db/outbox-rows.js';
import { done, duration, pauseLines, progressLine, statusLines } from './broadcast-progress-line.js';

const counts = (some: Partial<StateCounts>): StateCounts => {
  const all: StateCounts = {
    queued: 0,
    sending: 0,
    sent: 0,
    failed_temporary: 0,
    failed_permanent: 0,
    skipped: 0,
    unknown: 0,
    retrying: 0,
    total: 0,
    ...some,
  };
  return all;
};

describe('the broadcast progress line', () => {
  it('counts as done what has an outcome, not what waits or will be retried', () => {
    expect(done(counts({ total: 100, queued: 40, sending: 5, failed_temporary: 3, retrying: 2, sent: 52 }))).toBe(53);
  });

  it('draws the share done, the counts, the rate and the time left', () => {
    const line = progressLine(
      counts({ total: 100_000, queued: 54_000, sending: 1_000, sent: 44_990, skipped: 10 }),
      1_000,
      10,
    );
    expect(line).toBe('[#####.....] 45% · 45,000 of 100,000 · sent 44,990 · skipped 10 · 1,000/s · about 55 s left');
  });

  it('says done at the end, and names failures, retries and unknowns only when there are some', () => {
    const line = progressLine(
      counts({ total: 10, sent: 6, failed_permanent: 1, failed_temporary: 1, unknown: 2 }),
      0,
      10,
    );
    expect(line).toBe('[##########] 100% · 10 of 10 · sent 6 · failed 2 · unknown 2 · 0/s · done');
    expect(progressLine(counts({ total: 10, queued: 10 }), 0, 10)).toContain('unknown left');
  });

  it('names a paused channel on the line, and its reason and answer in full above it', () => {
    const pause = {
      channel: 'email' as const,
      cause: 'sender' as const,
      reason:
        'The mail server refused our sign-in (535 5.7.8): check the user name and password in SMTP_URL, then resume.',
      answer: 'Invalid login: 535 5.7.8 Authentication credentials invalid',
      pausedAt: '2026-11-23T14:02:09.000Z',
    };
    expect(progressLine(counts({ total: 10, sent: 4, queued: 6 }), 2, 10, [pause])).toBe(
      '[####......] 40% · 4 of 10 · sent 4 · email PAUSED · 2/s · waiting for resume',
    );
    expect(
      pauseLines([pause, { ...pause, channel: 'sms', answer: null, reason: 'Twilio refused our credentials.' }]),
    ).toEqual([
      `Email paused since 14:02 UTC: ${pause.reason}`,
      `  Its answer: "${pause.answer}"`,
      'Text messages paused since 14:02 UTC: Twilio refused our credentials.',
    ]);
  });

  it('adds the email’s bounce and spam-report rates once something came back', () => {
    const line = progressLine(counts({ total: 10, sent: 10 }), 0, 10, [], {
      messages: 10,
      bounceRate: 0.1,
      complaintRate: 0,
    });
    expect(line).toBe('[##########] 100% · 10 of 10 · sent 10 · bounced 10% · spam 0% · 0/s · done');
    expect(
      progressLine(counts({ total: 10, sent: 10 }), 0, 10, [], { messages: 0, bounceRate: 0, complaintRate: 0 }),
    ).not.toContain('bounced');
  });

  it('says durations the way people do', () => {
    expect(duration(0.4)).toBe('under a second');
    expect(duration(45)).toBe('about 45 s');
    expect(duration(600)).toBe('about 10 min');
    expect(duration(3 * 3600)).toBe('about 3.0 h');
  });

  it('lists every state in the status, with what it means', () => {
    const lines = statusLines(counts({ total: 12_000, sent: 11_871, failed_temporary: 4, retrying: 1, unknown: 3 }));
    expect(lines.map((line) => line.trim().split(/\s{2,}/)[0])).toEqual([
      'queued',
      'sending',
      'sent',
      'failed, temporary',
      'failed, permanent',
      'skipped',
      'unknown',
    ]);
    expect(lines[2]).toMatch(/sent +11,871 {2}accepted by the provider/);
    expect(lines[3]).toContain('1 will be tried again, 3 gave up');
    expect(lines[6]).toContain('--resend-unknown');
  });
});
