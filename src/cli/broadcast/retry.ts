// `broadcast -- retry NAME [--held] [--include-undeliverable [--yes]]`: queues again the messages that failed
// by no fault of the person's (gave up "for now", or our own credentials or outage), per channel and
// reason. Those whose address the provider said cannot be reached go again only when the owner says
// so twice: the flag, then "yes" (or --yes where nobody is at the keyboard). Held messages (each paused
// the channel twice) go again with --held, once what held them is fixed.
import type { RetryGroup } from '../../server/broadcast/retry-plan.js';
import { number, plural } from '../../shared/plain-numbers.js';
import { confirmedAtKeyboard } from '../cli-support.js';
import { type Context, type Values } from './command-support.js';

const CHANNEL_WORDS = { email: 'Email', sms: 'Text messages' } as const;

function groupLines(groups: RetryGroup[]): string[] {
  return groups.map((group) => `  ${CHANNEL_WORDS[group.channel]}, ${number(group.count)}: ${group.reason}`);
}

export async function retry(context: Context, name: string, values: Values): Promise<number> {
  const { control } = context;
  const { out, err } = context.output;
  const broadcast = await control.get(name);
  const plan = await control.failed.plan(broadcast);
  let includeUndeliverable = values['include-undeliverable'] === true;
  if (includeUndeliverable && plan.undeliverable > 0 && values.yes !== true) {
    out.write(
      `${plural(plan.undeliverable, 'message')} failed because the provider said the address or number cannot be reached:\n`,
    );
    for (const line of groupLines(plan.groups.filter((group) => group.undeliverable))) out.write(`${line}\n`);
    const question = 'Send to them again, and lift that mark on their addresses? Type yes to go on: ';
    if (!(await confirmedAtKeyboard(question))) {
      err.write(
        process.stdin.isTTY
          ? 'Nothing was queued.\n'
          : `Nothing was queued: say it once more with --yes (sudo scamsavvy broadcast retry ${name} --include-undeliverable --yes).\n`,
      );
      return 1;
    }
  }
  if (plan.undeliverable === 0) includeUndeliverable = false;
  const held = values.held === true;
  const done = await control.failed.retry(broadcast, { includeUndeliverable, held });
  const queued =
    done.retryable + (includeUndeliverable ? done.undeliverable : 0) + (held ? done.held : 0) + (done.lifted ?? 0);
  if (queued === 0) out.write(`Nothing to queue again: no message of "${name}" failed by a fault of ours.\n`);
  else {
    out.write(`Queued again: ${plural(queued, 'message')}.\n`);
    for (const line of groupLines(done.groups)) out.write(`${line}\n`);
    if (done.lifted)
      out.write(
        `  ${plural(done.lifted, 'message')} to people whose suppression you lifted (sudo scamsavvy suppressions lift).\n`,
      );
  }
  if (!includeUndeliverable && done.undeliverable > 0)
    out.write(
      `Not queued: ${plural(done.undeliverable, 'message')} whose address or number the provider said cannot be reached. ` +
        `If you believe that answer was wrong: sudo scamsavvy broadcast retry ${name} --include-undeliverable\n`,
    );
  if (!held && done.held > 0)
    out.write(
      `Not queued: ${plural(done.held, 'held message')} (each paused the channel twice; see them with: sudo scamsavvy broadcast status ${name}). ` +
        `Once you have fixed what held them: sudo scamsavvy broadcast retry ${name} --held\n`,
    );
  if (queued > 0) {
    const state = await control.state(broadcast);
    out.write(
      state === 'paused'
        ? `Send them with: sudo scamsavvy broadcast resume ${name}\n`
        : state === 'sending'
          ? 'The senders running now send them.\n'
          : `Send them with: sudo scamsavvy broadcast send ${name}\n`,
    );
  }
  return 0;
}
