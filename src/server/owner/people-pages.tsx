// The list: search, one person's record with their consent history, the question before deleting
// them, and the export buttons.
import { CONSENT_KIND_WORDS, CONSENT_SOURCE_WORDS } from '../consent/history-words.js';
import { LANGUAGE_NAMES, LANGUAGES } from '../../shared/languages.js';
import { number } from '../../shared/plain-numbers.js';
import { phoneEnd } from '../messaging/phone.js';
import { NameAndPhoneFields } from '../consent/link-pages/link-page-text-field.js';
import { ownerWords } from './owner-words.js';
import type { LaunchStanding } from '../consent/launch-standing.js';
import { EXCLUSION_WORDS } from '../consent/contact-rule.js';
import type { ConsentEvent } from '../db/consent-events-repository.js';
import type { Subscriber } from '../db/subscribers-repository.js';
import { Notice, renderOwnerPage, ScrollTable, shortPage, shortTime } from './owner-layout.js';
import type { PersonMessage } from '../db/outbox-rows.js';
import { PersonMessages } from './person-messages.js';

const words = ownerWords.people;
const personWords = ownerWords.person;

export const SEARCH_LIMIT = 50;

export interface PeopleData {
  ownerEmail: string;
  query: string;
  /** Undefined before a search; the matches (at most SEARCH_LIMIT + 1, to tell there are more) after. */
  results?: Subscriber[];
  tooShort?: boolean;
  /** Set after a deletion: whom (masked). */
  deleted?: string;
}

export function peoplePage({ ownerEmail, query, results, tooShort, deleted }: PeopleData): string {
  const shown = results?.slice(0, SEARCH_LIMIT);
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'people' },
    <>
      <h1>{words.heading}</h1>
      {deleted ? <Notice>{personWords.deleted(deleted)}</Notice> : null}
      <form method="get" action="/owner/people" role="search" className="search">
        <div>
          <label htmlFor="q">{words.searchLabel}</label>
          <p className="hint" id="q-hint">
            {words.searchHint}
          </p>
          {tooShort ? (
            <p className="field-error" id="q-error">
              {words.tooShort}
            </p>
          ) : null}
          <input
            type="search"
            id="q"
            name="q"
            defaultValue={query}
            autoComplete="off"
            aria-describedby={tooShort ? 'q-hint q-error' : 'q-hint'}
            {...(tooShort ? { 'aria-invalid': true } : {})}
          />
        </div>
        <button type="submit" className="button button--primary">
          {words.searchButton}
        </button>
      </form>
      {shown ? (
        <section>
          <h2 id="results-heading">{words.results(shown.length, query)}</h2>
          {results && results.length > SEARCH_LIMIT ? <p>{words.more(SEARCH_LIMIT)}</p> : null}
          {shown.length > 0 ? (
            <ScrollTable label={words.results(shown.length, query)}>
              <thead>
                <tr>
                  <th scope="col">{words.name}</th>
                  <th scope="col">{words.email}</th>
                  <th scope="col">{words.phone}</th>
                  <th scope="col">{words.signedUp}</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((person) => (
                  <tr key={person.id}>
                    <td>
                      <a className="link" href={`/owner/people/${person.id}`} aria-label={words.open(person.name)}>
                        {person.name}
                      </a>
                    </td>
                    <td>{person.email}</td>
                    <td>{person.phone}</td>
                    <td>{shortTime(person.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          ) : null}
        </section>
      ) : null}
      <section>
        <h2 id="export-heading">{words.exportHeading}</h2>
        <p>{words.exportIntro}</p>
        <div className="actions">
          <a className="button button--secondary" href="/owner/export.csv" download>
            {words.exportCsv}
          </a>
          <a className="button button--secondary" href="/owner/export.json" download>
            {words.exportJson}
          </a>
        </div>
      </section>
    </>,
  );
}

/** "Will be sent", or why not in the broadcast page's words. */
function launchLine(why: string): string {
  if (why === 'yes') return personWords.willGo;
  return personWords.wontGo(EXCLUSION_WORDS[why as keyof typeof EXCLUSION_WORDS] ?? why);
}

function channelState(optOutAt: string | null, leftAt: string | null): string {
  if (leftAt) return personWords.left;
  return optOutAt ? personWords.offSince(shortTime(optOutAt)) : personWords.on;
}

/** The correction form sent back with problems, or what the last save did. */
export interface PersonChange {
  typed?: { name: string; phone: string };
  errors?: { name?: string; phone?: string };
  done?: 'changed' | 'unchanged' | 'language';
}

export function personPage({
  ownerEmail,
  person,
  history,
  joinedThrough,
  change = {},
  standing,
  messages = [],
}: {
  ownerEmail: string;
  person: Subscriber;
  history: ConsentEvent[];
  /** How many people joined through their link. */
  joinedThrough: number;
  change?: PersonChange;
  /** Whether the launch message reaches them, per channel: "yes" or the contact rule's reason (consent/launch-standing.ts). */
  standing?: LaunchStanding | undefined;
  /** Every message to them, newest first (db/outbox-reads.ts messagesOf). */
  messages?: PersonMessage[];
}): string {
  const errors = change.errors ?? {};
  const asked = person.phoneChange;
  const rows: [string, string][] = [
    [words.name, person.name],
    [words.email, person.email],
    [words.phone, person.phone],
    [personWords.beta, person.betaTesting ? personWords.yes : personWords.no],
    [personWords.firstSignedUp, shortTime(person.createdAt)],
    [personWords.lastSignedUp, shortTime(person.lastSeenAt)],
    [personWords.consentVersion, person.consentVersion ?? '–'],
    [personWords.confirmed, person.confirmedAt ? shortTime(person.confirmedAt) : personWords.notYet],
    [personWords.emailMessages, channelState(person.emailOptOutAt, person.leftAt)],
    [personWords.textMessages, channelState(person.smsOptOutAt, person.leftAt)],
    ...(standing
      ? ([
          [personWords.launchEmail, launchLine(standing.email)],
          [personWords.launchText, launchLine(standing.texts)],
        ] as [string, string][])
      : []),
    [
      personWords.textsConfirmed,
      personWords.textsProof(
        person.smsConfirmedAt ? shortTime(person.smsConfirmedAt) : null,
        person.joiningTextSentAt ? shortTime(person.joiningTextSentAt) : null,
      ),
    ],
    [personWords.joinedThrough, number(joinedThrough)],
    [personWords.language, LANGUAGE_NAMES[person.language].english],
  ];
  return renderOwnerPage(
    { title: person.name, ownerEmail, current: 'people' },
    <>
      <h1>{person.name}</h1>
      {change.done === 'language' ? (
        <Notice>{personWords.languageChanged(LANGUAGE_NAMES[person.language].english)}</Notice>
      ) : change.done ? (
        <Notice>{change.done === 'changed' ? personWords.changed : personWords.unchanged}</Notice>
      ) : null}
      {change.errors ? <Notice kind="error">{personWords.changeProblem}</Notice> : null}
      {asked ? (
        <p>
          {personWords.phoneChangeAsked(
            phoneEnd(asked.to),
            shortTime(asked.at),
            asked.sentAt ? shortTime(asked.sentAt) : null,
          )}
        </p>
      ) : null}
      <section>
        <h2 id="details-heading">{personWords.details}</h2>
        <ScrollTable label={personWords.details}>
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>
      <section>
        <h2 id="history-heading">{personWords.historyHeading}</h2>
        {history.length === 0 ? (
          <p>{personWords.noHistory}</p>
        ) : (
          <ScrollTable label={personWords.historyHeading}>
            <thead>
              <tr>
                <th scope="col">{personWords.when}</th>
                <th scope="col">{personWords.what}</th>
                <th scope="col">{personWords.how}</th>
                <th scope="col">{personWords.version}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((event, index) => (
                <tr key={index}>
                  <td>{shortTime(event.at)}</td>
                  <td>{CONSENT_KIND_WORDS[event.kind] ?? event.kind}</td>
                  <td>{CONSENT_SOURCE_WORDS[event.source] ?? event.source}</td>
                  <td>{event.consentVersion ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        <p>
          {personWords.proof}{' '}
          <a className="link" href={`/owner/people/${person.id}/proof.txt`}>
            {personWords.proofText}
          </a>{' '}
          <a className="link" href={`/owner/people/${person.id}/proof.json`}>
            {personWords.proofJson}
          </a>
        </p>
      </section>
      <PersonMessages messages={messages} now={Date.now()} />
      <section>
        <h2 id="change-heading">{personWords.changeHeading}</h2>
        <p>{personWords.changeIntro}</p>
        <form method="post" action={`/owner/people/${person.id}/details`} noValidate>
          <NameAndPhoneFields
            labels={{ name: personWords.nameLabel, phone: personWords.phoneLabel, phoneHint: personWords.phoneHint }}
            errors={errors}
            values={{ name: change.typed?.name ?? person.name, phone: change.typed?.phone ?? person.phone }}
            autoFill={false}
          />
          <p>
            <button type="submit" className="button button--secondary">
              {personWords.changeButton}
            </button>
          </p>
        </form>
      </section>
      <section>
        <h2 id="language-heading">{personWords.languageHeading}</h2>
        <p>{personWords.languageIntro}</p>
        <form method="post" action={`/owner/people/${person.id}/language`}>
          <fieldset>
            <legend>{personWords.language}</legend>
            {LANGUAGES.map((language) => (
              <label key={language} className="choice language-choice">
                <input type="radio" name="language" value={language} defaultChecked={person.language === language} />
                <span>{LANGUAGE_NAMES[language].english}</span>
              </label>
            ))}
          </fieldset>
          <p>
            <button type="submit" className="button button--secondary">
              {personWords.languageButton}
            </button>
          </p>
        </form>
      </section>
      <section>
        <h2 id="delete-heading">{personWords.deleteHeading}</h2>
        <p>{personWords.deleteIntro}</p>
        <p>
          <a className="button button--danger" href={`/owner/people/${person.id}/delete`}>
            {personWords.deleteButton}
          </a>
        </p>
      </section>
      <p>
        <a className="link" href="/owner/people">
          {personWords.back}
        </a>
      </p>
    </>,
  );
}

export function deleteQuestionPage({ ownerEmail, person }: { ownerEmail: string; person: Subscriber }): string {
  return renderOwnerPage(
    { title: personWords.confirmTitle, ownerEmail, current: 'people' },
    <>
      <h1>{personWords.confirmTitle}</h1>
      <p>{personWords.confirmQuestion(person.email)}</p>
      <div className="actions">
        <form method="post" action={`/owner/people/${person.id}/delete`}>
          <button type="submit" className="button button--danger">
            {personWords.confirmButton}
          </button>
        </form>
        <a className="button button--secondary" href={`/owner/people/${person.id}`}>
          {personWords.cancel}
        </a>
      </div>
    </>,
  );
}

export const personMissingPage = (ownerEmail: string) =>
  shortPage({
    title: personWords.missingTitle,
    text: personWords.missing,
    ownerEmail,
    current: 'people',
    link: { href: '/owner/people', label: personWords.back },
  });
