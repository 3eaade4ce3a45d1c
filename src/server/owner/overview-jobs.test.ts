// The overview's "Background work": every job of the list, with its last run, next run and last
// failure as the runner recorded them, in the words `sudo scamsavvy jobs` uses (issue 43).
import { describe, expect, it } from 'vitest';
import { JOB_LIST, JOB_NAMES } from '../jobs/job-list.js';
import { buildTestApp } from '../test/build-test-app.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { ownerWords } from './owner-words.js';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replaceAll('&#x27;', "'")
    .trim();

describe("the overview's background work", () => {
  it('lists every job with what it did last, a failure in red with its reason', async () => {
    const { app, db } = await buildTestApp();
    const cookie = await signInAsOwner(app, db);
    // A run that failed, as the runner records one (this app has no SMTP: the job itself is not on here).
    await db.backgroundJobs.ensure(['unconfirmed-sign-ups']);
    await db.backgroundJobs.finished(
      'unconfirmed-sign-ups',
      {
        outcome: 'failed',
        said: 'the database is away',
        failuresInRow: 2,
        nextRunAt: new Date('2026-11-27T10:01:00Z'),
      },
      new Date('2026-11-27T10:00:00Z'),
    );
    const page = await app.inject({ url: '/owner', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    const section = /<section aria-labelledby="jobs-heading">([\s\S]*?)<\/section>/.exec(page.body)?.[1] ?? '';
    expect(text(section)).toContain(ownerWords.overview.jobsHeading);
    for (const name of JOB_NAMES) expect(section).toContain(`data-job="${name}"`);
    const row = new RegExp(`<li data-job="unconfirmed-sign-ups" data-last="failed">([\\s\\S]*?)</li>`).exec(
      section,
    )?.[1];
    expect(text(row ?? '')).toBe(
      [
        JOB_LIST['unconfirmed-sign-ups'].does,
        '(unconfirmed-sign-ups)',
        'How often every hour, on one instance',
        'Last run 2026-11-27 10:00 UTC: failed',
        'Next run 2026-11-27 10:01 UTC',
        'Last failure 2026-11-27 10:00 UTC: the database is away (2 in a row)',
      ].join(' '),
    );
    expect(row).toContain('class="cell--error"');
  });
});
