// The shell every link page shares (a whole HTML document with its own inline stylesheet) and its
// one kind of button. The forms post by themselves (decisions/019): script only adds the Text size
// control and the share panel's Copy and phone share sheet, and a page reads and works without it.
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { LANGUAGE_HOMES, LANGUAGE_TAGS, type Language } from '../../../shared/languages.js';
import { linkPageWordsIn } from '../../messaging/message-words.js';
import { TEXT_SIZE_HEAD_SCRIPT } from '../../../shared/text-size.js';
import { TextSizeControl } from '../../../shared/text-size-control.js';
import { linkPageStyles } from './link-page-styles.js';

/** Where the page's script goes: link-page-routes.ts puts the built script's tag here (a comment if none). */
export const LINK_PAGE_SCRIPT_PLACEHOLDER = '<!--link-page-script-->';

/** The head of every page the server renders (these and the owner's): kept out of search engines, its styles inline. */
export function PageHead({
  title,
  robots,
  styles,
  children,
}: {
  title: string;
  robots: string;
  styles: string;
  children?: ReactNode;
}) {
  return (
    <head>
      <meta charSet="utf-8" />
      {children}
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content={robots} />
      <title>{title}</title>
      <style dangerouslySetInnerHTML={{ __html: styles }} />
    </head>
  );
}

function Layout({ title, language, children }: { title: string; language: Language; children: ReactNode }) {
  const words = linkPageWordsIn[language];
  return (
    <html lang={LANGUAGE_TAGS[language]}>
      <PageHead title={words.pageTitle(title)} robots="noindex" styles={linkPageStyles}>
        {/* Before anything is drawn: the visitor's text size (the CSP names this script's hash). */}
        <script dangerouslySetInnerHTML={{ __html: TEXT_SIZE_HEAD_SCRIPT }} />
      </PageHead>
      <body>
        <div className="shell">
          <header>
            <a href={LANGUAGE_HOMES[language]}>{words.product}</a>
            <TextSizeControl language={language} />
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

/** A whole page in the person's language: `title` names it in the tab; the children start with its h1. */
export function renderPage(title: string, children: ReactNode, language: Language): string {
  const page = renderToStaticMarkup(
    <Layout title={title} language={language}>
      {children}
    </Layout>,
  );
  return `<!doctype html>${page.replace('</body>', `${LINK_PAGE_SCRIPT_PLACEHOLDER}</body>`)}`;
}

/** A form's submit button; "danger" is for the one that deletes. */
export function Button({ label, kind = 'primary' }: { label: string; kind?: 'primary' | 'secondary' | 'danger' }) {
  return (
    <button type="submit" className={`button button--${kind}`}>
      {label}
    </button>
  );
}

/** A link on a line of its own (not inside a sentence), so it gets a 44 px target like a button. */
export function LinkLine({ href, label }: { href: string; label: string }) {
  return (
    <p>
      <a className="link" href={href}>
        {label}
      </a>
    </p>
  );
}
