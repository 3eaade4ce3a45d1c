// The preferences page (a box for each kind of message, leave, delete) and the question deleting
// asks first. Rendered on the server to static HTML, in the person's language; every word comes from
// linkPageWordsIn.
import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, type Language } from '../../../shared/languages.js';
import { shareWordsIn } from '../../../shared/share-content.js';
import { linkPageWordsIn } from '../../messaging/message-words.js';
import type { Preferences } from '../../db/subscribers-repository.js';
import { Button, renderPage } from './link-page-layout.js';
import { NameAndPhoneFields } from './link-page-text-field.js';
import { SharePanel } from '../../../shared/share-panel.js';

const CHANNELS = ['email', 'sms', 'beta'] as const satisfies readonly (keyof Preferences)[];

export interface PreferencesPageProps {
  /** Their language (signups.language): the page is written in it. */
  language: Language;
  /** The boxes: a channel that cannot reach them (a STOP, a bounce) is unticked, whatever the record says. */
  preferences: Preferences;
  /** What we will really send them, by the senders' own rule: said after a save. */
  willSend: Preferences;
  /** Asked to confirm and have not: saving here is what keeps them on the list. */
  notConfirmed?: boolean;
  /** The email, partly hidden. */
  email: string;
  /** The last four digits of the phone number. */
  phoneEnd: string;
  /** They left the list: nothing to leave, and the boxes are the way back. */
  left: boolean;
  /** What the button they pressed did, said at the top. */
  done?:
    | 'language'
    | 'saved'
    | 'left'
    | 'details'
    | 'phone'
    | 'phoneAsked'
    | 'namePhoneAsked'
    | 'phoneAskedToday'
    | 'namePhoneAskedToday';
  /** A new number asked about by email (decision 041): its last digits, while the request waits. */
  askedPhoneEnd?: string;
  /** What asking for an emailed button came to (issue 54), said at the top in these lines. */
  buttonLines?: string[];
  /** The details form sent back with problems: what they typed, and what is wrong with it. */
  detailsForm?: { name: string; phone: string; errors: { name?: string; phone?: string } };
  /** The number texted STOP: only START from it brings texts back, whatever is ticked here. */
  smsStopped: boolean;
  /** The phone company said this number cannot get texts (a landline, a dead number). */
  smsUnreachable?: boolean;
  /** Someone using this number left or deleted their details after they signed up: we send it no texts. */
  smsTakenOff?: boolean;
  /** Someone using this number turned our texts off (kept by the number, issue 54): we send it none. */
  smsTurnedOff?: boolean;
  /** Texts are on, but the number has not said YES to our joining text yet (decision 041). */
  smsAwaitingYes?: 'asked' | 'not_yet' | undefined;
  /** The launch message has gone out already: "Saved" says there is none left to send. */
  launched?: boolean;
  /** Email to the address bounced, or was reported as spam: we send it none. */
  emailUnreachable?: 'bounced' | 'undeliverable' | 'complained' | 'asked';
  /** The page's own path, for the forms. */
  path: string;
  /** Their own link to pass on ("Tell a family member"); absent once they left. */
  shareUrl?: string;
}

/** After a change of name or phone number: what texts to the number they have now will do. */
function textsLine({
  willSend,
  blocked,
  launched,
  language,
}: {
  willSend: Preferences;
  blocked: boolean;
  launched: boolean;
  language: Language;
}): string {
  const text = linkPageWordsIn[language].preferences;
  if (launched) return text.textsLaunched;
  if (willSend.sms) return text.textsToNumber;
  // A STOP from this number, a number that cannot get texts, or one that has not said YES: the note by the box says which.
  return blocked ? text.noTextsToNumber : text.noTextsChosen;
}

function StatusMessage({
  done,
  willSend,
  blocked,
  phoneEnd,
  launched,
  email,
  askedPhoneEnd,
  language,
}: {
  language: Language;
  done: NonNullable<PreferencesPageProps['done']>;
  willSend: Preferences;
  blocked: boolean;
  phoneEnd: string;
  launched: boolean;
  email: string;
  askedPhoneEnd: string | undefined;
}) {
  const text = linkPageWordsIn[language].preferences;
  const nameToo = done === 'namePhoneAsked' || done === 'namePhoneAskedToday' ? [text.nameSaved] : [];
  const lines =
    done === 'phoneAsked' || done === 'namePhoneAsked'
      ? [
          ...nameToo,
          // Pressed already, or replaced: what we hold now.
          askedPhoneEnd ? text.phoneAsked(email, askedPhoneEnd, phoneEnd) : text.detailsSaved(phoneEnd),
        ]
      : done === 'language'
        ? [text.languageSaved]
        : done === 'phoneAskedToday' || done === 'namePhoneAskedToday'
          ? [...nameToo, text.phoneAskedToday(email, phoneEnd)]
          : done === 'saved'
            ? [
                launched
                  ? text.savedLaunched(willSend.beta)
                  : text.saved(
                      CHANNELS.filter((channel) => willSend[channel]).map((channel) => text.savedThings[channel]),
                    ),
              ]
            : done === 'left'
              ? [text.left, text.comeBack]
              : [
                  done === 'phone' ? text.phoneChanged(phoneEnd) : text.detailsSaved(phoneEnd),
                  textsLine({ willSend, blocked, launched, language }),
                ];
  // Present from the start of the page (it follows a redirect): nothing moves when it appears.
  return (
    <div className="status" role="status">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}

export function preferencesPage({
  preferences,
  willSend,
  notConfirmed = false,
  email,
  phoneEnd,
  left,
  done,
  smsStopped,
  smsUnreachable = false,
  smsTakenOff = false,
  smsTurnedOff = false,
  smsAwaitingYes,
  launched = false,
  emailUnreachable,
  path,
  detailsForm,
  shareUrl,
  askedPhoneEnd,
  buttonLines,
  language,
}: PreferencesPageProps): string {
  const words = linkPageWordsIn[language];
  const text = words.preferences;
  const errors = detailsForm?.errors ?? {};
  return renderPage(
    detailsForm ? `${text.detailsProblem} ${text.title}` : text.title,
    <>
      <h1>{text.title}</h1>
      {detailsForm && (
        <div className="status status--error" role="alert">
          <p>{text.detailsProblem}</p>
          <ul>
            {(['name', 'phone'] as const)
              .filter((field) => errors[field])
              .map((field) => (
                <li key={field}>
                  <a href={`#${field}`}>{errors[field]}</a>
                </li>
              ))}
          </ul>
        </div>
      )}
      {done && (
        <StatusMessage
          language={language}
          done={done}
          willSend={willSend}
          blocked={smsStopped || smsUnreachable || smsTakenOff || smsTurnedOff || smsAwaitingYes !== undefined}
          phoneEnd={phoneEnd}
          launched={launched}
          email={email}
          askedPhoneEnd={askedPhoneEnd}
        />
      )}
      {buttonLines && (
        <div className="status" role="status">
          {buttonLines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      {notConfirmed && !done && !buttonLines && (
        <div className="status" role="status">
          <p>{text.notConfirmed}</p>
        </div>
      )}
      <p className="who">{words.forAddress(email, phoneEnd)}</p>
      <p>{text.about}</p>
      <p>{text.intro}</p>
      <form method="post" action={path}>
        <fieldset>
          <legend>{text.legend}</legend>
          {CHANNELS.map((channel) => (
            <div key={channel}>
              <label className="choice">
                <input type="checkbox" name={channel} value="on" defaultChecked={preferences[channel]} />
                <span>{text.choices[channel]}</span>
              </label>
              {channel === 'sms' && smsStopped && <p className="choice__note">{text.smsStopped}</p>}
              {channel === 'sms' && smsUnreachable && <p className="choice__note">{text.smsUnreachable}</p>}
              {channel === 'sms' && smsTakenOff && <p className="choice__note">{text.smsTakenOff}</p>}
              {channel === 'sms' && smsTurnedOff && <p className="choice__note">{text.smsTurnedOff}</p>}
              {channel === 'sms' && smsAwaitingYes && (
                <p className="choice__note">{text.smsAwaitingYes(smsAwaitingYes === 'asked')}</p>
              )}
              {channel === 'email' && emailUnreachable && (
                <p className="choice__note">
                  {emailUnreachable === 'complained'
                    ? text.emailComplained
                    : emailUnreachable === 'asked'
                      ? text.emailAskedNot
                      : text.emailUnreachable}
                </p>
              )}
            </div>
          ))}
        </fieldset>
        <Button label={text.save} />
      </form>
      {shareUrl && !left && (
        <SharePanel url={shareUrl} headingLevel={2} scripted={false} words={shareWordsIn[language]} />
      )}
      <section aria-labelledby="details-title">
        <h2 id="details-title">{text.detailsTitle}</h2>
        <p>{text.detailsIntro}</p>
        <form method="post" action={`${path}/details`} noValidate>
          <NameAndPhoneFields
            labels={{
              name: text.nameLabel,
              nameHint: text.nameHint,
              phone: text.phoneLabel,
              phoneHint: text.phoneHint(phoneEnd),
            }}
            errors={errors}
            values={{ name: detailsForm?.name ?? '', phone: detailsForm?.phone ?? '' }}
            autoFill
          />
          <Button label={text.detailsSave} />
        </form>
      </section>
      <section aria-labelledby="language-title">
        <h2 id="language-title">{text.languageTitle}</h2>
        <p>{text.languageIntro}</p>
        <form method="post" action={`${path}/language`}>
          <fieldset>
            <legend>{text.languageLegend}</legend>
            {LANGUAGES.map((choice) => (
              <div key={choice}>
                <label className="choice" lang={LANGUAGE_TAGS[choice]}>
                  <input type="radio" name="language" value={choice} defaultChecked={choice === language} />
                  <span>{LANGUAGE_NAMES[choice].own}</span>
                </label>
              </div>
            ))}
          </fieldset>
          <Button label={text.languageSave} kind="secondary" />
        </form>
      </section>
      {!left && (
        <section>
          <h2>{text.leaveTitle}</h2>
          <p>{text.leaveText}</p>
          <form method="post" action={`${path}/leave`}>
            <Button label={text.leave} kind="secondary" />
          </form>
        </section>
      )}
      <section>
        <h2>{text.deleteTitle}</h2>
        <p>{text.deleteText}</p>
        <form method="post" action={`${path}/delete`}>
          <Button label={text.delete} kind="danger" />
        </form>
      </section>
    </>,
    language,
  );
}

/** Deleting cannot be undone, so it asks once more (WCAG 3.3.4). */
export function deleteQuestionPage({ path, language }: { path: string; language: Language }): string {
  const text = linkPageWordsIn[language].preferences;
  return renderPage(
    text.deleteAsk,
    <>
      <h1>{text.deleteAsk}</h1>
      <p>{text.deleteAskText}</p>
      <p>{text.deleteByEmail}</p>
      <div className="actions">
        <form method="post" action={`${path}/delete`}>
          <input type="hidden" name="confirm" value="yes" />
          <Button label={text.deleteYes} kind="danger" />
        </form>
        <a className="button button--secondary" href={path}>
          {text.deleteNo}
        </a>
      </div>
    </>,
    language,
  );
}
