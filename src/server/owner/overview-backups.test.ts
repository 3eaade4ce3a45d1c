// The overview's Backups section: each sentence it can say, from the record of backup runs and the
// settings, and red whenever the owner has something to do.
import { describe, expect, it } from 'vitest';
import { ownerWords } from './owner-words.js';
import type { BackupRun } from '../db/backup-runs-repository.js';
import { buildTestApp } from '../test/build-test-app.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';

const SCHEDULE = { dir: '/var/backups/scamsavvy', everyHours: 24, keep: 14 };

const run = (at: string, fields: Partial<BackupRun>): BackupRun => ({
  startedAt: at,
  finishedAt: at,
  trigger: 'schedule',
  outcome: 'ok',
  file: `/var/backups/scamsavvy/scamsavvy-${at.slice(0, 19).replaceAll(':', '-')}Z.sqlite`,
  bytes: 1_234_000,
  people: 1204,
  detail: null,
  copyOutcome: null,
  copyDetail: null,
  ...fields,
});

/** The Backups section's text and whether it is shown as a problem, for these runs and settings. */
async function backupSection(runs: BackupRun[], schedule?: typeof SCHEDULE) {
  const { app, db } = await buildTestApp({ config: schedule ? { backup: schedule } : {} });
  for (const recorded of runs) await db.backupRuns.record(recorded);
  const page = await app.inject({ url: '/owner', headers: { cookie: await signInAsOwner(app, db) } });
  const section = /<section aria-labelledby="backup-heading">([\s\S]*?)<\/section>/.exec(page.body)?.[1] ?? '';
  return {
    text: section
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .replaceAll('&#x27;', "'")
      .trim(),
    problem: section.includes('notice--error'),
  };
}

describe("the overview's Backups section", () => {
  it('with BACKUP_DIR unset and no backup: says they are off and how to turn them on, as a problem', async () => {
    expect(await backupSection([])).toEqual({
      text:
        'Backups Last backup: none yet. Automatic backups are off: set BACKUP_DIR and the list is copied every day (docs/production.md). sudo scamsavvy db:backup makes one now. ' +
        ownerWords.overview.keyWithBackups,
      problem: true,
    });
  });

  it('a good backup copied off the machine: when, how many people, how big, where, and the schedule', async () => {
    const at = '2026-11-26T03:00:00.000Z';
    expect(await backupSection([run(at, { copyOutcome: 'ok' })], SCHEDULE)).toEqual({
      text:
        'Backups Last backup: 2026-11-26 03:00 UTC , 1,204 people, 1.2 MB, in scamsavvy-2026-11-26T03-00-00Z.sqlite. BACKUP_COMMAND copied it off this machine. A backup is made every 24 hours; the last 14 are kept in /var/backups/scamsavvy. ' +
        ownerWords.overview.keyWithBackups,
      problem: false,
    });
  });

  it('a failed backup: why, and the last good one, as a problem', async () => {
    const good = run('2026-11-25T03:00:00.000Z', {});
    const failed = run('2026-11-26T03:00:00.000Z', {
      outcome: 'failed',
      bytes: null,
      people: null,
      detail: 'There is no folder /var/backups.',
    });
    expect(await backupSection([good, failed], SCHEDULE)).toEqual({
      text:
        'Backups Last backup: 2026-11-26 03:00 UTC , it failed. There is no folder /var/backups. The last good backup was made 2026-11-25 03:00 UTC, in scamsavvy-2026-11-25T03-00-00Z.sqlite. A backup is made every 24 hours; the last 14 are kept in /var/backups/scamsavvy. ' +
        ownerWords.overview.keyWithBackups,
      problem: true,
    });
    expect((await backupSection([failed], SCHEDULE)).text).toContain(
      'it failed. There is no folder /var/backups. There is no good backup yet.',
    );
  });

  it("a backup that was not copied off the machine: the command's own words, as a problem", async () => {
    const section = await backupSection(
      [
        run('2026-11-26T03:00:00.000Z', {
          people: 1,
          copyOutcome: 'failed',
          copyDetail: 'BACKUP_COMMAND failed with exit code 4: bucket not found',
        }),
      ],
      { ...SCHEDULE, everyHours: 1 },
    );
    expect(section.problem).toBe(true);
    expect(section.text).toContain('1 person, 1.2 MB');
    expect(section.text).toContain(
      'But it was not copied off this machine: BACKUP_COMMAND failed with exit code 4: bucket not found',
    );
    expect(section.text).toContain('A backup is made every hour;');
  });
});
