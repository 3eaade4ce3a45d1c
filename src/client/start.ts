// Starts the page's script once the words are on screen (docs/performance.md). The prerendered page is
// whole without script; React, most of the page's script, is fetched and run only once the browser
// reports the words painted, so on a slow phone it never holds them back nor competes with them for
// the line. A press on a button before the page is ready starts it at once, and the page replays that
// press when ready (early-press.ts). A classic script, written into the page at the end of <body> by
// scripts/prerender.mjs (no request of its own), before anything else of ours runs.
import type { StartState } from './early-press';

// Where the visit came from, noted at once: the visitor may move on before the page's script runs,
// which then reads it (attribution.ts, LANDING_STORAGE_KEY; a test holds the two names together).
try {
  if (!sessionStorage.getItem('scamsavvy.landing')) {
    sessionStorage.setItem('scamsavvy.landing', JSON.stringify({ href: location.href, referrer: document.referrer }));
  }
} catch {
  // storage blocked: the page's script reads its own address instead
}

// The language link and the offer at the top (sections/site-header.tsx): the choice is kept on this
// device, so the next visit opens the chosen page (shared/languages.ts LANGUAGE_HEAD_SCRIPT); "No,
// thank you" keeps this page's language and puts the offer away.
document.addEventListener('click', (event) => {
  const choice = event.target instanceof Element ? event.target.closest('[data-language-choice]') : null;
  const chosen = choice?.getAttribute('data-language-choice');
  if (!chosen) return;
  try {
    localStorage.setItem('scamsavvy.language', chosen);
  } catch {
    // storage blocked: the link still leads to the page, and nothing is remembered
  }
  if (choice?.tagName === 'BUTTON') document.documentElement.removeAttribute('data-language-offer');
});

const script = document.currentScript;
const app = script?.getAttribute('data-app');
if (app) {
  const state: StartState = { started: false, hydrating: false, pressed: null };
  window.__scamsavvyStart = state;

  const start = () => {
    if (state.started) return;
    state.started = true;
    // The chunks the page's script imports, fetched beside it rather than after it.
    for (const href of (script?.getAttribute('data-preload') ?? '').split(' ').filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const element = document.createElement('script');
    element.type = 'module';
    element.src = app;
    document.head.append(element);
  };

  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (!button) return;
      // Once React has an island (it marks it, islands/hydrate-islands.tsx), React replays what it missed;
      // a control outside the islands is the page's script's once it has started.
      const island = button.closest('[data-island]');
      if (island ? island.hasAttribute('data-hydrating') : state.hydrating) return;
      state.pressed = button;
      start();
    },
    true,
  );
  // A tab opened in the background paints nothing until it is shown: nothing to wait for there.
  if (document.visibilityState === 'hidden') start();
  else afterTheWordsPaint(start);
  // Should the browser never report the paint, the page still starts.
  setTimeout(start, 3000);
}

/**
 * Calls `then` once the browser reports the page's main words on screen (its largest-contentful-paint
 * record names an element of <main>), so no script is fetched or run before them (docs/performance.md).
 * A browser that keeps no such record starts after the next frame.
 */
function afterTheWordsPaint(then: () => void): void {
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')
  ) {
    requestAnimationFrame(() => setTimeout(then, 0));
    return;
  }
  const observer = new PerformanceObserver((list) => {
    const painted = list.getEntries().some((entry) => {
      const element = (entry as PerformanceEntry & { element?: Element | null }).element;
      return element?.closest('main') != null;
    });
    if (!painted) return;
    observer.disconnect();
    then(); // the browser calls an observer in a task of its own, once the frame is on screen
  });
  observer.observe({ type: 'largest-contentful-paint', buffered: true });
}
