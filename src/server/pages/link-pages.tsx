// The pages the links in messages open, rendered on the server to static HTML: plain forms that
// work with no script (decisions/019). Every word comes from linkPageWords.
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { linkPageWords as words } from '../../shared/messaging-content.js';
import type { Preferences } from '../storage/messaging-store.js';
import { linkPageStyles } from './link-page-styles.js';

function Layout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} - ${words.product}`}</title>
        <style dangerouslySetInnerHTML={{ __html: linkPageStyles }} />
      </head>
      <body>
        <div className="shell">
          <header>
            <a href="/">{words.product}</a>
          </header>
          <main>{children}</main>
          <footer>
            <p>{words.footer}</p>
          </footer>
        </div>
      </body>
    </html>
  );
}

function page(title: string, children: ReactNode): string {
  return `<!doctype html>${renderToStaticMarkup(<Layout title={title}>{children}</Layout>)}`;
}

function Button({ label, kind = 'primary' }: { label: string; kind?: 'primary' | 'secondary' | 'danger' }) {
  return (
    <button type="submit" className={`button button--${kind}`}>
      {label}
    </button>
  );
}

/** A bad, altered or expired link. */
export function badLinkPage(): string {
  return page(
    words.badLink.title,
    <>
      <h1>{words.badLink.title}</h1>
      <p>{words.badLink.text}</p>
      <p>
        <a href="/">{words.home}</a>
      </p>
    </>,
  );
}

/** A short page that says one thing, with a link home. */
export function noticePage(title: string, text?: string): string {
  return page(
    title,
    <>
      <h1>{title}</h1>
      {text && <p>{text}</p>}
      <p>
        <a href="/">{words.home}</a>
      </p>
    </>,
  );
}

export function confirmPage({ confirmed, preferencesUrl }: { confirmed: boolean; preferencesUrl: string }): string {
  const { confirm } = words;
  if (confirmed)
    return page(
      confirm.doneTitle,
      <>
        <h1>{confirm.doneTitle}</h1>
        <p>{confirm.doneText}</p>
        <p>
          <a href={preferencesUrl}>{confirm.preferencesLink}</a>
        </p>
      </>,
    );
  return page(
    confirm.title,
    <>
      <h1>{confirm.title}</h1>
      <p>{confirm.text}</p>
      <form method="post">
        <Button label={confirm.button} />
      </form>
    </>,
  );
}

export interface PreferencesPageProps {
  preferences: Preferences;
  /** The email, partly hidden. */
  email: string;
  /** The last four digits of the phone number. */
  phoneEnd: string;
  done?: 'saved' | 'left';
  /** The number texted STOP: only START from it brings texts back, whatever is ticked here. */
  smsStopped?: boolean;
  /** The page's own path, for the forms. */
  path: string;
}

export function preferencesPage({
  preferences,
  email,
  phoneEnd,
  done,
  smsStopped = false,
  path,
}: PreferencesPageProps): string {
  const { preferences: text } = words;
  const choice = (name: keyof Preferences) => (
    <label className="choice" key={name}>
      <input type="checkbox" name={name} value="on" defaultChecked={preferences[name]} />
      <span>{text.choices[name]}</span>
    </label>
  );
  return page(
    text.title,
    <>
      <h1>{text.title}</h1>
      {done && (
        <p className="status" role="status">
          {done === 'saved' ? text.saved : text.left}
        </p>
      )}
      <p className="who">{words.forAddress(email, phoneEnd)}</p>
      <p>{text.intro}</p>
      <form method="post" action={path}>
        <fieldset>
          <legend>{text.legend}</legend>
          {choice('email')}
          {choice('sms')}
          {smsStopped && <p>{text.smsStopped}</p>}
          {choice('beta')}
        </fieldset>
        <Button label={text.save} />
      </form>
      <hr />
      <h2>{text.leaveTitle}</h2>
      <p>{text.leaveText}</p>
      <form method="post" action={`${path}/leave`}>
        <Button label={text.leave} kind="secondary" />
      </form>
      <h2>{text.deleteTitle}</h2>
      <p>{text.deleteText}</p>
      <form method="post" action={`${path}/delete`}>
        <Button label={text.delete} kind="danger" />
      </form>
    </>,
  );
}

/** Deleting cannot be undone, so it asks once more (WCAG 3.3.4). */
export function deleteQuestionPage({ path }: { path: string }): string {
  const { preferences: text } = words;
  return page(
    text.deleteAsk,
    <>
      <h1>{text.deleteAsk}</h1>
      <p>{text.deleteAskText}</p>
      <div className="actions">
        <form method="post" action={`${path}/delete`}>
          <input type="hidden" name="confirm" value="yes" />
          <Button label={text.deleteYes} kind="danger" />
        </form>
        <p>
          <a className="button button--secondary" href={path}>
            {text.deleteNo}
          </a>
        </p>
      </div>
    </>,
  );
}

export function unsubscribePage({ done, preferencesUrl }: { done: boolean; preferencesUrl: string }): string {
  const { unsubscribe } = words;
  const title = done ? unsubscribe.doneTitle : unsubscribe.title;
  return page(
    title,
    <>
      <h1>{title}</h1>
      <p>{done ? unsubscribe.doneText : unsubscribe.text}</p>
      {!done && (
        <form method="post">
          <Button label={unsubscribe.button} />
        </form>
      )}
      <p>
        <a href={preferencesUrl}>{unsubscribe.preferencesLink}</a>
      </p>
    </>,
  );
}
