// The spec's 404 page; it also logs the requested path as a console error.
import { useEffect, type MouseEvent } from 'react';
import { joinBase, type Route } from '../../shared/routes.js';
import { notFound } from '../content';
import { navigate } from '../router';
import { SiteFooter } from '../sections/site-footer';
import { SiteHeader } from '../sections/site-header';

export function NotFoundPage({ route }: { route: Route }) {
  const home = joinBase(route.basename, '/');

  useEffect(() => {
    console.error(`404 Error: User attempted to access non-existent route: ${window.location.pathname}`);
  }, []);

  function goHome(event: MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(home);
    window.scrollTo(0, 0);
  }

  return (
    <>
      <SiteHeader />
      <main id="main" className="not-found">
        <h1 className="not-found__code">{notFound.heading}</h1>
        <p className="not-found__text">{notFound.text}</p>
        <a className="button button--primary" href={home} onClick={goHome}>
          {notFound.homeLink}
        </a>
      </main>
      <SiteFooter />
    </>
  );
}
