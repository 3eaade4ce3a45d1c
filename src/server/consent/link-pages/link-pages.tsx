// The short pages the links in messages open: confirm, unsubscribe, and the ones that say a link
// found nothing. Rendered on the server to static HTML, in the person's language; every word comes
// from linkPageWordsIn.
import { LANGUAGE_HOMES, type Language } from '../../../shared/languages.js';
import type { LaunchMessage } from '../launch-message.js';
import { linkPageWordsIn } from '../../messaging/message-words.js';
import { Button, LinkLine, renderPage } from './link-page-layout.js';

/** A page that says one thing, with a link home: a bad link, or a person we hold nothing about. */
export function noticePage(title: string, text: string, language: Language): string {
  return renderPage(
    title,
    <>
      <h1>{title}</h1>
      <p>{text}</p>
      <LinkLine href={LANGUAGE_HOMES[language]} label={linkPageWordsIn[language].home} />
    </>,
    language,
  );
}

/** A link that is altered, cut short, made for something else, or names someone we no longer hold. */
export function badLinkPage(language: Language): string {
  const { badLink } = linkPageWordsIn[language];
  return noticePage(badLink.title, badLink.text, language);
}

/**
 * Where the person stands: the button shows only while there is something to confirm, or a "no" of
 * theirs to undo (left the list, or turned email off: the "come back?" button, decision 041).
 */
export type ConfirmState = 'unconfirmed' | 'confirmed' | 'left' | 'email_off';

export function confirmPage({
  state,
  preferencesUrl,
  launch,
  language,
}: {
  language: Language;
  state: ConfirmState;
  preferencesUrl: string;
  /** What the launch message will do for them (confirmed only): the words say exactly that. */
  launch?: LaunchMessage;
}): string {
  const { confirm } = linkPageWordsIn[language];
  if (state === 'unconfirmed')
    return renderPage(
      confirm.title,
      <>
        <h1>{confirm.title}</h1>
        <p>{confirm.text}</p>
        {/* No action: the form posts back to the very link that was opened. */}
        <form method="post">
          <Button label={confirm.button} />
        </form>
      </>,
      language,
    );
  if (state === 'left' || state === 'email_off')
    return renderPage(
      confirm.comeBackTitle,
      <>
        <h1>{confirm.comeBackTitle}</h1>
        <p>{state === 'left' ? confirm.leftText : confirm.emailOffText}</p>
        <p>{confirm.comeBackText}</p>
        <p>{confirm.comeBackByEmail}</p>
        <form method="post">
          <Button label={confirm.comeBackButton} />
        </form>
        <p>{confirm.comeBackNotYou}</p>
        <LinkLine href={preferencesUrl} label={confirm.preferencesLink} />
      </>,
      language,
    );
  const text = launch?.launched
    ? confirm.doneLaunched
    : launch && (launch.willSend.email || launch.willSend.sms)
      ? confirm.doneText(launch.willSend.email, launch.willSend.sms)
      : confirm.doneNothing;
  return renderPage(
    confirm.doneTitle,
    <>
      <h1>{confirm.doneTitle}</h1>
      <p>{text}</p>
      <LinkLine href={preferencesUrl} label={confirm.preferencesLink} />
    </>,
    language,
  );
}

export function unsubscribePage({
  done,
  preferencesUrl,
  language,
}: {
  done: boolean;
  /** Only for a link that could open the person's page already (a "manage" token from an older message). */
  preferencesUrl?: string | undefined;
  language: Language;
}): string {
  const { unsubscribe } = linkPageWordsIn[language];
  const title = done ? unsubscribe.doneTitle : unsubscribe.title;
  return renderPage(
    title,
    <>
      <h1>{title}</h1>
      <p>{done ? unsubscribe.doneText : unsubscribe.text}</p>
      {!done && (
        <form method="post">
          <Button label={unsubscribe.button} />
        </form>
      )}
      {preferencesUrl ? (
        <LinkLine href={preferencesUrl} label={unsubscribe.preferencesLink} />
      ) : (
        <p>{unsubscribe.ownPage}</p>
      )}
    </>,
    language,
  );
}

/** The button in the email a repeat sign-up with another phone number sent (decision 031). */
export function phoneChangePage({
  newEnd,
  currentEnd,
  language,
}: {
  newEnd: string;
  currentEnd: string;
  language: Language;
}): string {
  const { phoneChange } = linkPageWordsIn[language];
  return renderPage(
    phoneChange.title,
    <>
      <h1>{phoneChange.title}</h1>
      <p>{phoneChange.text(newEnd)}</p>
      <p>{phoneChange.keep(currentEnd)}</p>
      {/* No action: the form posts back to the very link that was opened. */}
      <form method="post">
        <Button label={phoneChange.button} />
      </form>
    </>,
    language,
  );
}

/** That button, once the change is replaced or stale (or a link that is not ours): it changes nothing, and says why. */
export function phoneChangeGonePage(language: Language): string {
  const { phoneChange, home } = linkPageWordsIn[language];
  return renderPage(
    phoneChange.goneTitle,
    <>
      <h1>{phoneChange.goneTitle}</h1>
      <p>{phoneChange.gone}</p>
      <LinkLine href={LANGUAGE_HOMES[language]} label={home} />
    </>,
    language,
  );
}

/** The page an emailed button opens (issue 54): what pressing does, and the one button. */
export function buttonPage({
  action,
  does,
  yes,
  language,
}: {
  action: 'on' | 'back' | 'delete';
  does: string;
  yes: string;
  language: Language;
}): string {
  const { button } = linkPageWordsIn[language];
  return renderPage(
    button.title[action],
    <>
      <h1>{button.title[action]}</h1>
      <p>{does}</p>
      {/* No action: the form posts back to the very link that was opened. */}
      <form method="post">
        <Button label={yes} />
      </form>
      <p>{button.notYou}</p>
    </>,
    language,
  );
}

/** An emailed button older than it works for: a new one is one press away, to the same address. */
export function buttonExpiredPage({
  hours,
  againPath,
  language,
}: {
  hours: number;
  /** Where the new one is asked for: this button's own path, and /again. */
  againPath: string;
  language: Language;
}): string {
  const { button } = linkPageWordsIn[language];
  return renderPage(
    button.expiredTitle,
    <>
      <h1>{button.expiredTitle}</h1>
      <p>{button.expired(hours)}</p>
      <form method="post" action={againPath}>
        <Button label={button.again} />
      </form>
    </>,
    language,
  );
}
