// The spec's routing rule (section 2), shared so the server's status codes match what the page shows.

export type Route =
  | { kind: 'home'; basename: string; path: '/' }
  | { kind: 'redirect'; basename: string; path: string; to: string }
  | { kind: 'not-found'; basename: string; path: string };

/**
 * The router base path is the first segment of the URL path; it is '/' when the path is empty
 * or when that segment ends in .html. So '/' and '/spring' show the landing page (the second
 * with base '/spring'), '/index.html' and '/spring/index.html' redirect to their base, and
 * anything deeper ('/spring/offer', '/missing.html') is not found.
 */
export function basenameOf(pathname: string): string {
  const firstSegment = pathname.split('/')[1] ?? '';
  if (firstSegment === '' || firstSegment.endsWith('.html')) return '/';
  return `/${firstSegment}`;
}

/** Joins the base path and a path inside it: ('/spring', '/') is '/spring', ('/', '/') is '/'. */
export function joinBase(basename: string, path: string): string {
  if (basename === '/') return path;
  return path === '/' ? basename : `${basename}${path}`;
}

export function resolveRoute(pathname: string): Route {
  const basename = basenameOf(pathname);
  const inner = basename === '/' ? pathname : pathname.slice(basename.length);
  const path = inner === '' ? '/' : inner;
  if (path === '/') return { kind: 'home', basename, path: '/' };
  if (path === '/index.html') return { kind: 'redirect', basename, path, to: joinBase(basename, '/') };
  return { kind: 'not-found', basename, path };
}

/** Spec section 2: 'home' for '/', otherwise the path without its leading slash. */
export function pageNameOf(path: string): string {
  return path === '/' ? 'home' : path.replace(/^\//, '');
}
