// The spec's 404 page. Its console error naming the requested path is logged by the page's script (main.tsx).
import { LANGUAGE_HOMES } from '../../shared/languages.js';
import { notFound } from '../content';
import { language } from '../language';
import { SiteFooter } from '../sections/site-footer';
import { SiteHeader } from '../sections/site-header';

export function NotFoundPage() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="not-found">
        <h1 className="not-found__code">{notFound.heading}</h1>
        <p className="not-found__text">{notFound.text}</p>
        <a className="button button--primary" href={LANGUAGE_HOMES[language]}>
          {notFound.homeLink}
        </a>
      </main>
      <SiteFooter />
    </>
  );
}
