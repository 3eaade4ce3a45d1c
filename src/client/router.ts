// A small history router: three routes do not need a routing library (docs/decisions/003).
import { createContext, useContext, useSyncExternalStore } from 'react';

const NAVIGATE_EVENT = 'scamsavvy:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

/** The path to render when there is no window (prerendering at build time). */
export const ServerPathContext = createContext('/');

export function usePathname(): string {
  const serverPath = useContext(ServerPathContext);
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => (typeof window === 'undefined' ? serverPath : window.location.pathname),
  );
}

export function navigate(to: string, { replace = false } = {}): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}
