import { describe, expect, it } from 'vitest';
import { fillDays, formatStatsReport } from './stats-report.js';

const now = new Date('2026-11-22T15:00:00Z');

describe('signups:stats report', () => {
  it('fills every day of the window, oldest first, with zeros where nobody signed up', () => {
    expect(fillDays([{ label: '2026-11-21', count: 4 }], now, 3)).toEqual([
      { label: '2026-11-20', count: 0 },
      { label: '2026-11-21', count: 4 },
      { label: '2026-11-22', count: 0 },
    ]);
  });

  it('prints totals, beta share, a bar per day scaled to the busiest, and the top lists', () => {
    const report = formatStatsReport(
      {
        total: 1200,
        submissions: 1250,
        betaTesting: 300,
        byDay: [
          { label: '2026-11-21', count: 1000 },
          { label: '2026-11-22', count: 200 },
        ],
        topSources: [
          { label: 'newsletter', count: 900 },
          { label: '(direct)', count: 300 },
        ],
        topCampaigns: [{ label: '(none)', count: 1200 }],
      },
      { where: 'the SQLite file data/signups.db', now, days: 2 },
    );
    expect(report).toContain('People on the list   1,200');
    expect(report).toContain('Sign-ups made        1,250 (50 from people already on the list)');
    expect(report).toContain('Want to beta test    300 (25% of people)');
    expect(report).toContain(`  2026-11-21  1,000  ${'█'.repeat(40)}\n`);
    expect(report).toContain(`  2026-11-22    200  ${'█'.repeat(8)}\n`);
    expect(report).toMatch(/newsletter\s+900\s+75%/);
    expect(report).toMatch(/\(none\)\s+1,200\s+100%/);
  });
});
