// Browser entry: hydrates the prerendered page (start.ts loads it once the page has painted).
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { resolveRoute } from '../shared/routes.js';
import { startAnalytics } from './analytics/analytics';
import { App } from './app';
import { captureAttribution } from './attribution';
import { markHydrating } from './early-press';
import './styles/global.css';

// Before the address can change (the /index.html redirect below), note where the visit came from.
captureAttribution();

// '/index.html' replaces itself with '/' before React starts, so the first render is the page's.
const route = resolveRoute(window.location.pathname);
if (route.kind === 'redirect') {
  window.history.replaceState(null, '', `${route.to}${window.location.search}${window.location.hash}`);
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element to hydrate.');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// Built pages arrive prerendered; the dev server's page is empty and is rendered from scratch.
markHydrating();
// As a transition, hydration yields to the browser every few milliseconds instead of holding the
// main thread for the whole page (a tap or a scroll is answered meanwhile).
if (root.firstElementChild) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);

// Providers load after the page is interactive, and only as the visitor's choice allows.
startAnalytics();
