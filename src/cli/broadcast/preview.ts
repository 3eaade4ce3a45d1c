// `broadcast -- preview NAME`: the email as text, an HTML file to open, and the text message, in each
// language the list is written to (issue 45: each person gets theirs).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileProblem, ownerPath } from '../cli-support.js';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../shared/languages.js';
import { smsSegments } from '../../shared/sms-segments.js';
import { plural } from '../../shared/plain-numbers.js';
import { type Context, type Values } from './command-support.js';

/** Where each language's HTML goes: the file named (or one in the temporary folder), "-es" before its ending for Spanish. */
function htmlFile(values: Values, name: string, language: Language): string {
  const chosen = typeof values.out === 'string' ? ownerPath(values.out) : path.join(tmpdir(), `broadcast-${name}.html`);
  if (language === 'en') return chosen;
  const { dir, name: base, ext } = path.parse(chosen);
  return path.join(dir, `${base}-${language}${ext || '.html'}`);
}

export async function preview(context: Context, name: string, values: Values): Promise<number> {
  const broadcast = await context.control.get(name);
  const { out } = context.output;
  for (const language of LANGUAGES) {
    const message = context.control.preview(broadcast, language);
    const file = htmlFile(values, broadcast.name, language);
    try {
      writeFileSync(file, message.html);
    } catch (error) {
      throw fileProblem(error, file, 'write');
    }
    const segments = smsSegments(message.sms);
    out.write(
      `== In ${LANGUAGE_NAMES[language].english}: for people who signed up on the ${LANGUAGE_NAMES[language].english} page ==\n\n`,
    );
    out.write(`Subject: ${message.subject}\n\n${message.text}\n`);
    out.write(`The HTML part is in ${file}: open ${pathToFileURL(file).href} in a browser.\n`);
    out.write(`(The links name nobody: in the real message they are each person's own.)\n\n`);
    out.write(
      `Text message (${message.sms.length} characters, ${plural(segments.segments, 'SMS segment')}, ${segments.encoding}):\n${message.sms}\n\n`,
    );
  }
  return 0;
}
