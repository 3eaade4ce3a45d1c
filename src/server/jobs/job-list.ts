// Everything the server does by itself, again and again, in one list: its name, what it does, how
// often, and whether it runs on every instance or on one (docs/architecture.md, "Background work").
// jobs/job-runner.ts runs them; the composition (app.ts) says what each runs; the dashboard and
// `npm run jobs` show each one's last run, next run and last failure.
// Not in it yet, each still on a timer of its own and woken by each sign-up (issue 43 moves them
// here): the queue workers (consent/confirmation-mailer.ts, phone-change-mailer.ts, joining-texter.ts).
export interface JobDeclaration {
  /** What it does, as the owner reads it (and the log lines begin). */
  does: string;
  everyMs: number;
  /** one: exactly one instance runs it (a lease); all: every instance does (its work is claimed row by row). */
  where: 'one' | 'all';
  /** When it runs: "always", or the settings it needs ("when SECRET_KEY is set"). */
  when: string;
}

const MINUTE_MS = 60_000;

export const JOB_LIST = {
  'reports-waiting': {
    does: 'Act on provider reports whose first action failed and that no provider sent again',
    everyMs: MINUTE_MS,
    where: 'one',
    when: 'when SECRET_KEY is set',
  },
  'phone-changes-forgotten': {
    does: 'Forget phone number changes nobody agreed to in time',
    everyMs: 60 * MINUTE_MS,
    where: 'one',
    when: 'always',
  },
  'unconfirmed-sign-ups': {
    does: 'Delete sign-ups never confirmed in time, and send the one reminder before',
    everyMs: 60 * MINUTE_MS,
    where: 'one',
    when: 'when email is on, with EMAIL_CONFIRMATION on',
  },
  'bounce-mailbox': {
    does: 'Read the bounce mailbox, and act on the bounces and complaints in it',
    everyMs: MINUTE_MS,
    where: 'one',
    when: 'when BOUNCE_ADDRESS and BOUNCE_IMAP_URL are set',
  },
  backups: {
    does: 'Make the automatic backup when it is due, and hand it to BACKUP_COMMAND',
    // A look whether one is due (BACKUP_EVERY_HOURS since the last, an hour after a failure); as
    // often as BACKUP_EVERY_HOURS when that is shorter (backups/backup-schedule.ts, BACKUP_CHECK_MS).
    everyMs: 5 * MINUTE_MS,
    where: 'one',
    when: 'when BACKUP_DIR is set',
  },
} as const satisfies Record<string, JobDeclaration>;

export type JobName = keyof typeof JOB_LIST;
export const JOB_NAMES = Object.keys(JOB_LIST) as JobName[];
