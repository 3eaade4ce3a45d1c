// `broadcast -- preview NAME`: the email as text, an HTML file to open, and the text message.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileProblem, ownerPath } from '../cli-support.js';
import { smsSegments } from '../../shared/sms-segments.js';
import { plural } from '../../shared/plain-numbers.js';
import { type Context, type Values } from './command-support.js';

export async function preview(context: Context, name: string, values: Values): Promise<number> {
  const broadcast = await context.control.get(name);
  const message = context.control.preview(broadcast);
  const file =
    typeof values.out === 'string' ? ownerPath(values.out) : path.join(tmpdir(), `broadcast-${broadcast.name}.html`);
  try {
    writeFileSync(file, message.html);
  } catch (error) {
    throw fileProblem(error, file, 'write');
  }
  const segments = smsSegments(message.sms);
  const { out } = context.output;
  out.write(`Subject: ${message.subject}\n\n${message.text}\n`);
  out.write(`The HTML part is in ${file}: open ${pathToFileURL(file).href} in a browser.\n`);
  out.write(`(The links name nobody: in the real message they are each person's own.)\n\n`);
  out.write(
    `Text message (${message.sms.length} characters, ${plural(segments.segments, 'SMS segment')}, ${segments.encoding}):\n${message.sms}\n`,
  );
  return 0;
}
