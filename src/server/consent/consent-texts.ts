// The words each place a choice is made on shows now, in each language (issue 56): kept by the server
// at start (db/consent-texts-repository.ts), so a consent's proof quotes the words the person saw.
// The form's carry the form's own version; the others a version made of their words, so a change of
// words is a new version by itself.
import { createHash } from 'node:crypto';
import { LANGUAGES } from '../../shared/languages.js';
import { SIGNUP_CONSENT_VERSION, signupConsentWords } from '../../shared/consent-words.js';
import type { ConsentText } from '../db/consent-texts-repository.js';
import { linkPageWordsIn, messageWordsIn } from '../messaging/message-words.js';

const versionOf = (words: string) => createHash('sha256').update(words).digest('hex').slice(0, 12);

/** The places a choice is made on, as the consent history's sources name them, and the joining text. */
export function consentTextsNow(smsConfirmation: 'reply' | 'notice' = 'reply'): ConsentText[] {
  return LANGUAGES.flatMap((language) => {
    const form = signupConsentWords[language];
    const pages = linkPageWordsIn[language];
    const sms = messageWordsIn[language].sms;
    const places: [string, string][] = [
      ['confirm_page', [pages.confirm.title, pages.confirm.text, `[${pages.confirm.button}]`].join('\n')],
      [
        'preferences_page',
        [
          pages.preferences.title,
          pages.preferences.about,
          pages.preferences.intro,
          pages.preferences.legend,
          ...Object.values(pages.preferences.choices),
        ].join('\n'),
      ],
      [
        'one_click_unsubscribe',
        [pages.unsubscribe.title, pages.unsubscribe.text, `[${pages.unsubscribe.button}]`].join('\n'),
      ],
      ['emailed_button', [pages.button.title.back, pages.button.back].join('\n')],
      ['joining_text', sms.joining[smsConfirmation]],
    ];
    return [
      {
        place: 'signup_form',
        language,
        version: SIGNUP_CONSENT_VERSION,
        words: `${form.consentDetails}\n${form.consent}`,
      },
      ...places.map(([place, words]) => ({ place, language, version: versionOf(words), words })),
    ];
  });
}
