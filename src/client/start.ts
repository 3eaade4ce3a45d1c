// Starts the page's script once the page has painted (docs/performance.md). The prerendered page is
// whole without script; React, most of the page's script, is fetched and run just after the first
// paint, so on a slow phone it never holds the words back nor competes with them for the line.
// A press on a button before the page is ready starts it at once, and the page replays that press
// when ready (early-press.ts). A classic script, loaded with `defer`, before anything else runs.
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
      if (state.hydrating) return; // from here on React itself replays what it missed
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (!button) return;
      state.pressed = button;
      start();
    },
    true,
  );
  // A hidden tab paints nothing and runs no animation frames: hence the timer as well.
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 1000);
}
