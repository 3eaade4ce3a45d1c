// Test support: the buttons emailed for what only the person may do (issue 54), read from the SMTP
// sink as a person reads them from their mailbox, opened (GET) and pressed (POST) as they would.
import type { FastifyInstance } from 'fastify';
import type { SmtpSink } from './smtp-sink.js';

/** The /button/… paths in every email to `to`, oldest first. */
export function buttonPaths(mail: SmtpSink, to: string): string[] {
  return mail
    .messages()
    .filter((each) => each.envelope.to.includes(to))
    .flatMap((each) =>
      [...(each.parsed.text ?? '').matchAll(/^https?:\/\/[^/\s]+(\/button\/\S+)$/gm)].map((m) => m[1]!),
    );
}

/** The newest button emailed to `to` once more than `seen` have come. */
export async function nextButton(mail: SmtpSink, to: string, seen: number): Promise<string> {
  await mail.waitFor(() => buttonPaths(mail, to).length > seen, 10_000);
  return buttonPaths(mail, to).at(-1)!;
}

const formPost = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };

/**
 * Opens the newest button emailed to `to` (after `seen` earlier ones) and presses it: the page it
 * opens must be the one-button page, and the press answers with where it sends them next.
 */
export async function pressEmailedButton(app: FastifyInstance, mail: SmtpSink, to: string, seen = 0) {
  const path = await nextButton(mail, to, seen);
  const page = await app.inject({ url: path });
  if (page.statusCode !== 200) throw new Error(`the emailed button's page answered ${page.statusCode}: ${page.body}`);
  const pressed = await app.inject({ method: 'POST', url: path, ...formPost });
  return { path, page, pressed };
}
