// `broadcast -- test NAME --to EMAIL|PHONE`: one real message to the owner. A refusal is said in the
// same words as a paused broadcast's (messaging/send-failure.ts), with the provider's answer.
import { ownerWords } from '../../server/owner/owner-words.js';
import { maskAddress } from '../../server/messaging/mask-email.js';
import { reasonWithoutRetry, SendFailure } from '../../server/messaging/send-failure.js';
import { withoutAddresses } from '../../server/messaging/log-safe.js';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../shared/languages.js';
import { UsageError, type Context, type Values } from './command-support.js';

export async function test(context: Context, name: string, values: Values): Promise<number> {
  const to = typeof values.to === 'string' ? values.to.trim() : '';
  if (!to) throw new UsageError('test needs --to EMAIL or --to PHONE.');
  const language = values.language ?? 'en';
  if (!isLanguage(language))
    throw new UsageError(`--language must be ${LANGUAGES.join(' or ')}, not "${String(language)}".`);
  const broadcast = await context.control.get(name);
  const kind = to.includes('@') ? 'email' : 'text message';
  let id: string;
  try {
    id = await context.control.test(broadcast, to, language);
  } catch (error) {
    if (!(error instanceof SendFailure)) throw error;
    context.output.err.write(
      // One try only: a reason that promises more tries says instead what the owner can do.
      `The test ${kind} was not sent. ${reasonWithoutRetry(error.verdict, `: nothing more will be tried; run the test again in a few minutes.`)}\n  Its answer: "${withoutAddresses(error.message)}"\n`,
    );
    return 1;
  }
  context.output.out.write(`Sent one test ${kind} in ${LANGUAGE_NAMES[language].english} to ${to} (${id}).\n`);
  // In the audit log as the dashboard's test is, masked: the launch checks read that each channel was
  // tried. One written to a rehearsal folder says so, and is not counted as a real test.
  const rehearsal =
    kind === 'email'
      ? context.config.messaging.email?.folder !== undefined
      : context.config.messaging.sms?.provider === 'folder';
  await context.audit({
    subject: broadcast.name,
    detail: ownerWords.audit.broadcastDetail('test', maskAddress(to), rehearsal),
  });
  return 0;
}
