// `broadcast -- preview NAME`: the email as text, an HTML file to open, and the text message.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { smsSegments } from '../../server/messaging/sms-segments.js';
import { plural } from '../../shared/plain-numbers.js';
import { type Context, type Values } from './command-support.js';

export async function preview(context: Context, name: string, values: Values): Promise<number> {
  const broadcast = await context.control.get(name);
  const message = context.control.preview(broadcast);
  const file = path.resolve(typeof values.out === 'string' ? values.out : `broadcast-${broadcast.name}.html`);
  writeFileSync(file, message.html);
  const segments = smsSegments(message.sms);
  const { out } = context.output;
  out.write(`Subject: ${message.subject}\n\n${message.text}\n`);
  out.write(`The HTML part is in ${file}: open it in a browser.\n`);
  out.write(`(The links name nobody: in the real message they are each person's own.)\n\n`);
  out.write(
    `Text message (${message.sms.length} characters, ${plural(segments.segments, 'SMS segment')}, ${segments.encoding}):\n${message.sms}\n`,
  );
  return 0;
}
