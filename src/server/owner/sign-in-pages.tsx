// The sign-in pages: ask for the email, say a link is on its way (the same for any address), and
// the page a link opens, whose button does the signing in (mail scanners open links; only a POST
// uses one).
import { ownerWords } from './owner-words.js';
import { Notice, renderOwnerPage, shortPage } from './owner-layout.js';

const words = ownerWords.signIn;

export function signInPage({
  error,
  email = '',
  notice,
}: { error?: 'invalid' | 'too_many'; email?: string; notice?: 'idle' } = {}): string {
  const invalid = error === 'invalid';
  return renderOwnerPage(
    { title: words.title },
    <>
      <h1>{words.heading}</h1>
      {error === 'too_many' ? <Notice kind="error">{words.tooMany}</Notice> : null}
      {notice === 'idle' ? <Notice>{words.signedOutIdle}</Notice> : null}
      <p>{words.intro}</p>
      <form method="post" action="/owner/sign-in" noValidate>
        <label htmlFor="email">{words.emailLabel}</label>
        {invalid ? (
          <p className="field-error" id="email-error">
            {words.invalidEmail}
          </p>
        ) : null}
        <p>
          <input
            type="email"
            id="email"
            name="email"
            autoComplete="email"
            required
            defaultValue={email}
            {...(invalid ? { 'aria-invalid': true, 'aria-describedby': 'email-error', autoFocus: true } : {})}
          />
        </p>
        <button type="submit" className="button button--primary">
          {words.button}
        </button>
      </form>
    </>,
  );
}

export function linkSentPage(): string {
  return renderOwnerPage(
    { title: words.sentTitle },
    <>
      <h1>{words.sentTitle}</h1>
      <Notice>{words.sent}</Notice>
      <p className="hint">{words.noEmailHint}</p>
      <p>
        <a className="link" href="/owner/sign-in">
          {words.again}
        </a>
      </p>
    </>,
  );
}

export function signInLinkPage(token: string): string {
  return renderOwnerPage(
    { title: words.linkTitle },
    <>
      <h1>{words.linkHeading}</h1>
      <p>{words.linkIntro}</p>
      <form method="post" action={`/owner/sign-in/${token}`}>
        <button type="submit" className="button button--primary">
          {words.linkButton}
        </button>
      </form>
    </>,
  );
}

const signInAgain = { href: '/owner/sign-in', label: words.again };

export const badSignInLinkPage = () => shortPage({ title: words.badLinkTitle, text: words.badLink, link: signInAgain });

export const signedOutPage = () =>
  shortPage({
    title: words.signedOutTitle,
    text: words.signedOut,
    notice: true,
    link: { href: '/owner/sign-in', label: words.title },
  });

/** A POST that did not come from one of our own pages: nothing was changed. */
export const forbiddenPage = () =>
  shortPage({ title: ownerWords.errors.forbiddenTitle, text: ownerWords.errors.forbidden });
