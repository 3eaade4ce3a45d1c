// Issue 45: every message and link page in both languages. A key in one language and not the other
// fails here, as does a Spanish text left in English; each Spanish text is one GSM-7 segment, and the
// Spanish is held to the English reading bar (Fernández-Huerta, the same grade).
import { describe, expect, it } from 'vitest';
import { wordsShape, wordsTexts } from '../../shared/languages.js';
import { senderLine } from '../../shared/public-config.js';
import { readingGradeIn } from '../../shared/reading-grade.js';
import { smsSegments } from '../../shared/sms-segments.js';
import {
  renderComeBackEmail,
  renderConfirmationEmail,
  renderPhoneChangeEmail,
  renderReminderEmail,
} from './email-templates.js';
import { broadcastWordsIn, linkPageWordsIn, messageWordsIn } from './message-words.js';

const sets = { messages: messageWordsIn, broadcasts: broadcastWordsIn, linkPages: linkPageWordsIn };
/** The same in both: our name, the STOP word carriers know, and the sign-up's own link words. */
const SAME_IN_BOTH = new Set(['ScamSavvy']);

describe('the messages in English and in Spanish', () => {
  it.each(Object.entries(sets))(
    '%s: every key in one language is in the other, holding the same kind of thing',
    (_name, set) => {
      expect(wordsShape(set.es)).toEqual(wordsShape(set.en));
    },
  );

  it.each(Object.entries(sets))('%s: every Spanish text is written in Spanish, not left in English', (_name, set) => {
    const english = new Map(wordsTexts(set.en));
    const untranslated = wordsTexts(set.es).filter(
      ([path, text]) => english.get(path) === text && !SAME_IN_BOTH.has(text),
    );
    expect(untranslated).toEqual([]);
  });

  const site = 'https://www.scamsavvy-launch.example.org';
  const { sms } = messageWordsIn.es;
  const texts = {
    help: sms.help('hello@scamsavvy.example').join('\n'),
    stopped: sms.stopped,
    started: sms.started,
    confirmed: sms.confirmed,
    joiningReply: sms.joining.reply,
    joiningNotice: sms.joining.notice,
    launch: broadcastWordsIn.es.launch.sms(site),
    beta: broadcastWordsIn.es.beta.sms(site),
  };
  it.each(Object.entries(texts))(
    'the Spanish %s text is one GSM-7 segment (accents the alphabet lacks left off)',
    (_name, text) => {
      expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      expect(text).not.toMatch(/[áíóúÁÍÓÚ]/);
    },
  );

  it('the Spanish HELP, START and joining texts say who we are, how often, the cost, and how to stop', () => {
    for (const text of [texts.help, texts.started, texts.joiningReply, texts.joiningNotice, texts.confirmed]) {
      expect(text).toMatch(/^ScamSavvy\b/);
      expect(text).toMatch(/\b2 msj max\./);
      expect(text).toContain('Puede haber cargos de msj y datos.');
      expect(text).toMatch(/ALTO para salir/);
    }
    // Each names the words that the server reads (sms-keywords.ts): SI for yes, START to come back.
    expect(texts.joiningReply).toMatch(/responda SI\b/);
    expect(texts.stopped).toMatch(/Responda START\b/);
    const address = senderLine('100 Example Street, Springfield, IL 62701');
    for (const text of sms.help('hello@scamsavvy.example', address)) expect(smsSegments(text).segments).toBe(1);
  });

  const input = {
    language: 'es' as const,
    confirmUrl: 'https://scamsavvy.example/confirm/AAAA',
    preferencesUrl: 'https://scamsavvy.example/preferences/BBBB',
    unsubscribeUrl: 'https://scamsavvy.example/unsubscribe/BBBB',
    siteUrl: 'https://scamsavvy.example',
    deleteOn: '24 de diciembre de 2026',
    shareUrl: 'https://scamsavvy.example/es/?ref=7kq2m9x4hz3p',
  };
  const emails = {
    confirmation: renderConfirmationEmail({ ...input, reminderInDays: 3 }),
    reminder: renderReminderEmail(input),
    comeBack: renderComeBackEmail({ ...input, because: 'deleted' }),
    phoneChange: renderPhoneChangeEmail({
      ...input,
      changeUrl: 'https://scamsavvy.example/change-phone/CCCC',
      newEnd: '9876',
      currentEnd: '4567',
      until: '3 de diciembre de 2026',
    }),
  };

  it.each(Object.entries(emails))(
    'the Spanish %s email is in Spanish, says so, and reads at grade 8 or below',
    (_name, email) => {
      expect(email.html).toMatch(/^<!doctype html>\n<html lang="es"/);
      expect(email.html).toContain('role="article"');
      expect(email.html).toMatch(/aria-label="[^"]*" lang="es"/);
      // The prose a reader reads: every paragraph of the plain-text part but the links.
      const prose = email.text
        .split('\n')
        .filter((line) => line.trim() !== '' && !/^https?:\/\/|\{\{/.test(line) && !line.endsWith(':'))
        .map((line) => (/[.!?]$/.test(line) ? line : `${line}.`));
      expect(readingGradeIn('es', prose.join(' '))).toBeLessThanOrEqual(8);
      expect(email.text).not.toMatch(/\b(the|you|please|your)\b/i);
    },
  );

  it('the Spanish link pages read at grade 8 or below', () => {
    const words = linkPageWordsIn.es;
    const pages = [
      [words.confirm.text, words.confirm.doneText(true, true), words.confirm.doneNothing, words.confirm.doneLaunched],
      [
        words.preferences.intro,
        words.preferences.leaveText,
        words.preferences.deleteText,
        words.preferences.deleteAskText,
        words.preferences.deleted,
        words.preferences.left,
        words.preferences.smsStopped,
      ],
      [words.unsubscribe.text, words.unsubscribe.doneText],
      [words.badLink.text],
    ];
    for (const page of pages) expect(readingGradeIn('es', page.join(' '))).toBeLessThanOrEqual(8);
  });
});
