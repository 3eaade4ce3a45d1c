import { describe, expect, it } from 'vitest';
import type { FunnelDay } from '../db/events-repository.js';
import { emptyFunnelDay, fillDays, fillFunnelDays, formatFunnelReport, formatStatsReport } from './stats-report.js';

const now = new Date('2026-11-22T15:00:00Z');

describe('signups:stats report', () => {
  it('fills every day of the window, oldest first, with zeros where nobody signed up', () => {
    expect(fillDays([{ label: '2026-11-21', count: 4 }], now, 3)).toEqual([
      { label: '2026-11-20', count: 0 },
      { label: '2026-11-21', count: 4 },
      { label: '2026-11-22', count: 0 },
    ]);
  });

  it('prints totals, beta share, those who came through a family link, a bar per day scaled to the busiest, and the top lists', () => {
    const report = formatStatsReport(
      {
        total: 1200,
        submissions: 1250,
        betaTesting: 300,
        confirmed: 600,
        byDay: [
          { label: '2026-11-21', count: 1000 },
          { label: '2026-11-22', count: 200 },
        ],
        throughFamily: 120,
        throughFamilyByDay: [{ label: '2026-11-22', count: 20 }],
        topSources: [
          { label: 'newsletter', count: 900 },
          { label: '(direct)', count: 300 },
        ],
        topCampaigns: [{ label: '(none)', count: 1200 }],
        byLanguage: [
          { language: 'en', count: 1100 },
          { language: 'es', count: 100 },
        ],
      },
      { where: 'the SQLite file data/signups.db', now, days: 2 },
    );
    expect(report).toContain('People on the list   1,200');
    expect(report).toContain('Sign-ups made        1,250 (50 from people already on the list)');
    expect(report).toContain('Want to beta test    300 (25% of people)');
    expect(report).toContain('Confirmed email      600 (50% of people)');
    expect(report).toContain('Through family link  120 (10% of people)');
    expect(report).toContain(`  2026-11-21  1,000  ${'█'.repeat(40)}\n`);
    expect(report).toContain(`  2026-11-22    200  ${'█'.repeat(8)} (20)\n`);
    expect(report).toMatch(/newsletter\s+900\s+75%/);
    expect(report).toMatch(/\(none\)\s+1,200\s+100%/);
    // Issue 45: people by the language their messages go in.
    expect(report).toMatch(/People by language[^\n]*\n\s+English\s+1,100\s+92%\n\s+Spanish\s+100\s+8%/);
  });
});

describe('signups:stats page funnel', () => {
  const day = (label: string, counts: Partial<FunnelDay>): FunnelDay => ({ ...emptyFunnelDay(label), ...counts });
  const funnel = [
    day('2026-11-20', {
      landingViews: 1204,
      dialogOpens: 98,
      signups: 41,
      formFailures: 3,
      downloadIntents: 7,
      shares: 5,
      scrollDepth: { 25: 980, 50: 640, 75: 310, 100: 122 },
    }),
    day('2026-11-22', {
      landingViews: 400,
      dialogOpens: 30,
      signups: 9,
      formFailures: 1,
      downloadIntents: 2,
      shares: 1,
      scrollDepth: { 25: 300, 50: 200, 75: 100, 100: 40 },
    }),
  ];

  it('fills every day of the window with zeros where nothing happened', () => {
    expect(fillFunnelDays(funnel, now, 4).map((entry) => [entry.day, entry.landingViews])).toEqual([
      ['2026-11-19', 0],
      ['2026-11-20', 1204],
      ['2026-11-21', 0],
      ['2026-11-22', 400],
    ]);
  });

  it('prints a row per day and a total: views, opens, sign-ups, conversion, failures, downloads, scroll depth', () => {
    const report = formatFunnelReport(funnel, { now, days: 3 });
    expect(report).toBe(
      [
        'Page funnel per day (first-party events, UTC), last 3 days',
        '  Day         Views  Opens  Sign-ups  Conversion  Form errors  Downloads  Shares',
        '  2026-11-20  1,204     98        41        3.4%            3          7       5',
        '  2026-11-21      0      0         0           -            0          0       0',
        '  2026-11-22    400     30         9        2.3%            1          2       1',
        '  Total       1,604    128        50        3.1%            4          9       6',
        '  Views: landing-page views. Opens: sign-up form opened. Conversion: sign-ups',
        '  per view. Form errors: submissions that failed. Downloads: app-store buttons.',
        '  Shares: links passed on with "Tell a family member" (after joining, or from',
        '  the preferences page).',
        '',
        'Scroll depth on the landing page (times each mark was reached, share of views)',
        '  Day         Reached 25%  Reached 50%  Reached 75%  Reached 100%',
        '  2026-11-20     980  81%     640  53%     310  26%      122  10%',
        '  2026-11-21       0            0            0             0',
        '  2026-11-22     300  75%     200  50%     100  25%       40  10%',
        '  Total        1,280  80%     840  52%     410  26%      162  10%',
        '',
        'Page funnel by language (English page /, Spanish page /es/), last 3 days',
        '  Language  Views  Opens  Sign-ups  Conversion  Form errors  Downloads  Shares',
        '  English   1,604    128        50        3.1%            4          9       6',
        '',
      ].join('\n'),
    );
    for (const line of report.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('adds each language of a day into the day, and gives each language its own totals (issue 45)', () => {
    const rows = [
      { ...day('2026-11-20', { landingViews: 1000, dialogOpens: 80, signups: 40 }), language: 'en' as const },
      { ...day('2026-11-20', { landingViews: 200, dialogOpens: 20, signups: 10 }), language: 'es' as const },
      { ...day('2026-11-22', { landingViews: 300, dialogOpens: 10, signups: 3 }), language: 'es' as const },
    ];
    const report = formatFunnelReport(rows, { now, days: 3 });
    expect(report).toContain('  2026-11-20  1,200    100        50        4.2%');
    expect(report).toContain('  2026-11-22    300     10         3        1.0%');
    expect(report).toContain('  English   1,000     80        40        4.0%');
    expect(report).toContain('  Spanish     500     30        13        2.6%');
  });

  it('says in one plain line when there are no events in the window', () => {
    expect(formatFunnelReport([], { now, days: 30 })).toBe(
      'Page funnel per day: no first-party page events in the last 30 days.\n',
    );
  });
});
