// `sudo scamsavvy signups:ask-to-confirm [-- --yes] [--rate PER_SECOND]`: asks everyone who signed up
// before email confirmation was switched on to confirm, once, so an owner can clean an old list
// before launch (docs/launch-day.md says when to). Their confirmation emails become due a few a
// second and the running server's confirmation mailer sends them: the same email, the same
// scanner-safe button, the same retries as any sign-up's.
import { loadConfig } from '../server/config.js';
import { isEntryPoint, openStoreForCli, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';

const usage = `Usage: sudo scamsavvy signups:ask-to-confirm [--yes] [--rate PER_SECOND]

Sends one confirmation email to everyone who signed up before email confirmation was switched on
(they were never asked). The running server (npm start) sends them, PER_SECOND at most (default
BROADCAST_EMAIL_RATE). Those who do not confirm within UNCONFIRMED_RETENTION_DAYS are deleted, and
the launch broadcast leaves them out. Without --yes it only says how many it would ask.
  --yes                 ask them now
  --rate PER_SECOND     emails a second (default BROADCAST_EMAIL_RATE)`;

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const flags = readFlags(argv, { yes: { type: 'boolean' }, rate: { type: 'string' } }, usage, { out, err });
  if ('exitCode' in flags) return flags.exitCode;
  const config = loadConfig();
  const rate = flags.values.rate === undefined ? config.broadcast.emailRate : Number(flags.values.rate);
  if (!Number.isInteger(rate) || rate < 1 || rate > 1000) {
    err.write(`--rate must be a whole number of emails a second from 1 to 1000, not "${flags.values.rate}".\n`);
    return 2;
  }
  if (!config.messaging.emailConfirmation) {
    err.write(
      'Email confirmation is not on here: set SMTP_URL and MAIL_FROM (and leave EMAIL_CONFIRMATION on), start the server, then run this again.\n',
    );
    return 1;
  }
  const { store } = await openStoreForCli();
  try {
    const count = await store.confirmations.neverAskedCount();
    const days = config.messaging.unconfirmedRetentionDays;
    if (count === 0) {
      out.write('Everyone on the list has been asked to confirm already (or has confirmed). Nothing to do.\n');
      return 0;
    }
    const minutes = Math.ceil(count / rate / 60);
    if (!flags.values.yes) {
      out.write(
        `${count.toLocaleString('en-US')} ${count === 1 ? 'person signed' : 'people signed'} up before confirmation was switched on and ${count === 1 ? 'was' : 'were'} never asked.\n` +
          `With --yes, each gets one confirmation email (${rate} a second, about ${minutes} min, sent by the running server). ` +
          `Those who do not confirm within ${days} days are deleted, and the launch broadcast leaves them out.\n`,
      );
      return 0;
    }
    const { asked, lastDueAt } = await store.confirmations.askNeverAsked(rate, new Date());
    out.write(
      `Asked ${asked.toLocaleString('en-US')} ${asked === 1 ? 'person' : 'people'} to confirm: their emails go out ${rate} a second until about ${lastDueAt?.toISOString().slice(11, 16) ?? 'now'} UTC, sent by the running server (npm start).\n` +
        `Those who do not confirm within ${days} days are deleted; the launch broadcast leaves out those who were asked and did not confirm.\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli(main);
