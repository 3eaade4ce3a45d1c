// Everything the server does by itself, again and again, in one list: its name, what it does, how
// often, and whether it runs on every instance or on one (docs/architecture.md, "Background work").
// jobs/job-runner.ts runs them; the composition (app.ts) says what each runs; the dashboard and
// `sudo scamsavvy jobs` show each one's last run, next run and last failure.
// The queue workers (confirmation emails, phone change emails, joining texts) run on every
// instance, each claiming its rows, and a stored sign-up wakes them (JobRunner.wake) so the person's
// email or text goes within a second, not at the next interval.
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
  'confirmation-emails': {
    does: 'Send the confirmation emails new sign-ups asked for',
    everyMs: MINUTE_MS / 2,
    where: 'all',
    when: 'when email is on, with EMAIL_CONFIRMATION on and SECRET_KEY set',
  },
  'phone-change-emails': {
    does: 'Send the emails that ask a person to agree to a new phone number',
    everyMs: MINUTE_MS,
    where: 'all',
    when: 'when email is on and SECRET_KEY is set',
  },
  'joining-texts': {
    does: 'Text each new number the joining text that asks for YES',
    everyMs: MINUTE_MS / 2,
    where: 'all',
    when: 'when texts are on and SECRET_KEY is set',
  },
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
  'numbers-in-one-form': {
    does: 'Write every stored phone number in one form (E.164), carrying its "no"s with it',
    everyMs: 60 * MINUTE_MS,
    where: 'one',
    when: 'when SECRET_KEY is set',
  },
  'unconfirmed-sign-ups': {
    does: 'Delete sign-ups never confirmed in time, and send the one reminder before',
    everyMs: 60 * MINUTE_MS,
    where: 'one',
    when: 'when email is on, with EMAIL_CONFIRMATION on',
  },
  'replies-forgotten': {
    does: 'Erase the texts people sent us that no rule acted on, 90 days after they came',
    everyMs: 60 * MINUTE_MS,
    where: 'one',
    when: 'when texts are on',
  },
  'bounce-mailbox': {
    does: 'Read the bounce mailbox, and act on the bounces and complaints in it',
    everyMs: MINUTE_MS,
    where: 'one',
    when: 'when BOUNCE_ADDRESS and BOUNCE_IMAP_URL are set',
  },
  'waiting-texts': {
    does: 'Send the launch texts that waited for daytime where their people are, once their hours come',
    everyMs: MINUTE_MS,
    where: 'one',
    when: 'when texts are on and SECRET_KEY is set',
  },
  'webhook-events': {
    does: 'Read the consent history for the events the webhook endpoints are told of',
    // A stored sign-up wakes it (and it wakes the next), so a sign-up's event goes within seconds.
    everyMs: 10_000,
    where: 'one',
    when: 'always',
  },
  webhooks: {
    does: 'Deliver the events to the webhook endpoints, and try again those not accepted',
    everyMs: 10_000,
    where: 'all',
    when: 'always',
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
