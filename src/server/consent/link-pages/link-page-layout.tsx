// The shell every link page shares (a whole HTML document with its own inline stylesheet) and its
// one kind of button. No script anywhere: the forms post by themselves (decisions/019).
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { linkPageWords as words } from '../../messaging/message-words.js';
import { linkPageStyles } from './link-page-styles.js';

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
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content={robots} />
      <title>{title}</title>
      <style dangerouslySetInnerHTML={{ __html: styles }} />
      {children}
    </head>
  );
}

function Layout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <PageHead title={words.pageTitle(title)} robots="noindex" styles={linkPageStyles} />
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

/** A whole page: `title` names it in the tab; the children start with its h1. */
export function renderPage(title: string, children: ReactNode): string {
  return `<!doctype html>${renderToStaticMarkup(<Layout title={title}>{children}</Layout>)}`;
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
