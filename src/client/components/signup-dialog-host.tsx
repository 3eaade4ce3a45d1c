// Whether the sign-up dialog is open, for every button that opens it (each in its own island): a small
// store, and the dialog in a root of its own, made at the first opening. Its code loads on intent, or
// when idle after the visitor's first move.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { trackSignupStart } from '../analytics/analytics';
import type { SignupSource } from '../signup-source';

type DialogCode = typeof import('./signup-dialog');
type DialogComponent = DialogCode['SignupDialog'];

let dialogCode: Promise<DialogCode> | undefined;

export function preloadSignupDialog(): Promise<DialogCode> {
  dialogCode ??= import('./signup-dialog').catch((error: unknown) => {
    dialogCode = undefined; // a failed load (offline for a moment) may be tried again
    throw error;
  });
  return dialogCode;
}

interface Opening {
  source: SignupSource | null;
  opener: HTMLElement | null;
}

let opening: Opening = { source: null, opener: null };
const listeners = new Set<() => void>();
let hostMounted = false;

function setOpening(next: Opening): void {
  opening = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Opens the dialog for a press of `opener` (focus returns there when it closes). */
export function openSignup(source: SignupSource, opener: HTMLElement): void {
  trackSignupStart(); // spec section 4: recorded on opening
  if (!hostMounted) {
    hostMounted = true;
    const element = document.createElement('div');
    document.body.append(element);
    createRoot(element).render(<SignupDialogHost />);
  }
  setOpening({ source, opener });
}

/**
 * Closed; the opener is kept, for focus to return to it. Exported for the tests that open the dialog
 * through a button: its root outlives their own, and a dialog left open would answer the next file's
 * clicks (the test workers share one page, decision 056).
 */
export function closeSignup(): void {
  setOpening({ source: null, opener: opening.opener });
}

/** True while the dialog is open: the carousel holds still behind it. */
export function useSignupDialogOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => opening.source !== null,
    () => false,
  );
}

function SignupDialogHost() {
  const { source, opener } = useSyncExternalStore(subscribe, () => opening);
  // The dialog's component, once its code has arrived (it is rendered from the first opening on).
  const [Dialog, setDialog] = useState<DialogComponent | null>(null);

  useEffect(() => {
    if (source === null) return;
    preloadSignupDialog().then(
      (code) => setDialog(() => code.SignupDialog),
      (error: unknown) => {
        // A dropped connection: the page carries on, and the next press tries again.
        console.error('Could not load the sign-up form', error);
        closeSignup();
      },
    );
  }, [source]);

  if (!Dialog) return null;
  return <Dialog open={source !== null} source={source} onClose={closeSignup} opener={opener} />;
}

const IDLE_PRELOAD_TIMEOUT_MS = 2000;
const FIRST_INTERACTIONS = ['scroll', 'pointerdown', 'keydown', 'touchstart'] as const;

/**
 * Besides intent on a button (see SignupButton), the first sign of a visitor at work (a scroll, a tap,
 * a key) fetches the dialog's code when the browser next has a moment. Never before: the first load
 * stays within its budget of script (docs/performance.md).
 */
export function preloadSignupDialogOnFirstMove(): void {
  const preload = () => void preloadSignupDialog().catch(() => undefined);
  const onFirstInteraction = () => {
    for (const type of FIRST_INTERACTIONS) window.removeEventListener(type, onFirstInteraction, true);
    if ('requestIdleCallback' in window) window.requestIdleCallback(preload, { timeout: IDLE_PRELOAD_TIMEOUT_MS });
    else setTimeout(preload, 1);
  };
  for (const type of FIRST_INTERACTIONS)
    window.addEventListener(type, onFirstInteraction, { capture: true, passive: true });
}
