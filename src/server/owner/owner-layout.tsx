// The shell of every owner page: a whole HTML document with its own inline stylesheet (the link
// pages' colours and sizes, and tables), the navigation and the sign-out button. Nothing from
// another host; the one script, on the launch-day pages only, is the owner's own bundle.
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ownerWords as words } from './owner-words.js';
import { linkPageStyles } from '../consent/link-pages/link-page-styles.js';
import { PageHead } from '../consent/link-pages/link-page-layout.js';
import { ownerStyles } from './owner-styles.js';

export type OwnerSection =
  'overview' | 'people' | 'broadcasts' | 'ready' | 'suppressions' | 'replies' | 'api-keys' | 'webhooks' | 'audit';

export interface OwnerPageOptions {
  title: string;
  /** The signed-in owner; absent on the sign-in pages. */
  ownerEmail?: string;
  current?: OwnerSection;
  /** The owner's script (a hashed file under /assets/), for pages that update by themselves. */
  script?: string;
}

const SECTIONS: { id: OwnerSection; href: string; label: string }[] = [
  { id: 'overview', href: '/owner', label: words.nav.overview },
  { id: 'people', href: '/owner/people', label: words.nav.people },
  { id: 'broadcasts', href: '/owner/broadcasts', label: words.nav.broadcasts },
  { id: 'ready', href: '/owner/ready', label: words.nav.ready },
  { id: 'suppressions', href: '/owner/suppressions', label: words.nav.suppressions },
  { id: 'replies', href: '/owner/replies', label: words.nav.replies },
  { id: 'api-keys', href: '/owner/api-keys', label: words.nav.apiKeys },
  { id: 'webhooks', href: '/owner/webhooks', label: words.nav.webhooks },
  { id: 'audit', href: '/owner/audit', label: words.nav.audit },
];

function Layout({ title, ownerEmail, current, script, children }: OwnerPageOptions & { children: ReactNode }) {
  return (
    <html lang="en">
      <PageHead title={words.pageTitle(title)} robots="noindex, nofollow" styles={linkPageStyles + ownerStyles}>
        {script ? <script type="module" src={script} /> : null}
      </PageHead>
      <body>
        <a className="skip-link" href="#main">
          {words.skipLink}
        </a>
        <div className="shell shell--wide">
          <header className="owner-header">
            <a href={ownerEmail ? '/owner' : '/owner/sign-in'}>{words.product}</a>
            {ownerEmail ? (
              <div className="owner-header__who">
                <span>{words.nav.signedInAs(ownerEmail)}</span>
                <form method="post" action="/owner/sign-out">
                  <button type="submit" className="button button--secondary">
                    {words.nav.signOut}
                  </button>
                </form>
              </div>
            ) : null}
          </header>
          {ownerEmail ? (
            <nav aria-label={words.nav.label} className="owner-nav">
              <ul>
                {SECTIONS.map((section) => (
                  <li key={section.id}>
                    <a href={section.href} {...(section.id === current ? { 'aria-current': 'page' as const } : {})}>
                      {section.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <main id="main" tabIndex={-1}>
            {children}
          </main>
        </div>
      </body>
    </html>
  );
}

/** A whole owner page: the children start with its h1. */
export function renderOwnerPage(options: OwnerPageOptions, children: ReactNode): string {
  return `<!doctype html>${renderToStaticMarkup(<Layout {...options}>{children}</Layout>)}`;
}

/** A page that says one thing, with a link on: an expired link, signed out, not found, not allowed. */
export function shortPage({
  title,
  text,
  link,
  notice = false,
  ...options
}: OwnerPageOptions & { text: string; link?: { href: string; label: string }; notice?: boolean }): string {
  return renderOwnerPage(
    { title, ...options },
    <>
      <h1>{title}</h1>
      {notice ? <Notice>{text}</Notice> : <p>{text}</p>}
      {link ? (
        <p>
          <a className="link" href={link.href}>
            {link.label}
          </a>
        </p>
      ) : null}
    </>,
  );
}

/** A table that scrolls sideways inside itself on a narrow screen, reachable and named for keyboard users. */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

/** A message that says what just happened, read out by screen readers as the page loads. */
export function Notice({ children, kind = 'success' }: { children: ReactNode; kind?: 'success' | 'error' }) {
  return (
    <p className={`notice notice--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** "2026-11-23 14:05", UTC: the owner's pages show times as the commands print them. */
export const shortTime = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')}` : '');
