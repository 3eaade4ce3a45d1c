// How the dashboard and `sudo scamsavvy jobs` say each job's schedule: the list's own interval, in words
// that say exactly it (30 s is not "every minute").
import { describe, expect, it } from 'vitest';
import { JOB_LIST } from './job-list.js';
import { jobStatuses } from './job-status.js';

describe('jobStatuses', () => {
  it('says each interval as it is, and where the job runs', () => {
    const schedule = new Map(jobStatuses([]).map((status) => [status.name, status.schedule]));
    expect(JOB_LIST['confirmation-emails'].everyMs).toBe(30_000);
    expect(schedule.get('confirmation-emails')).toBe('every 30 seconds, on every instance');
    expect(schedule.get('phone-change-emails')).toBe('every minute, on every instance');
    expect(schedule.get('phone-changes-forgotten')).toBe('every hour, on one instance');
    expect(schedule.get('backups')).toBe('every 5 minutes, on one instance');
  });
});
