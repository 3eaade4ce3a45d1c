// Holds whether the sign-up dialog is open; its code loads on intent, or when idle after the visitor's first move.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
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

interface SignupDialogContextValue {
  openSignup: (source: SignupSource, opener: HTMLElement) => void;
}

const SignupDialogContext = createContext<SignupDialogContextValue | null>(null);

export function useSignupDialog(): SignupDialogContextValue {
  const value = useContext(SignupDialogContext);
  if (!value) throw new Error('useSignupDialog must be used inside <SignupDialogProvider>.');
  return value;
}

const IDLE_PRELOAD_TIMEOUT_MS = 2000;
const FIRST_INTERACTIONS = ['scroll', 'pointerdown', 'keydown', 'touchstart'] as const;

export function SignupDialogProvider({ children }: { children: ReactNode }) {
  const [source, setSource] = useState<SignupSource | null>(null);
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  // The dialog's component, once its code has arrived (it is rendered from the first opening on).
  const [Dialog, setDialog] = useState<DialogComponent | null>(null);

  const openSignup = useCallback((from: SignupSource, button: HTMLElement) => {
    trackSignupStart(); // spec section 4: recorded on opening
    setOpener(button);
    setSource(from);
    preloadSignupDialog().then(
      (code) => setDialog(() => code.SignupDialog),
      (error: unknown) => {
        // A dropped connection: the page carries on, and the next press tries again.
        console.error('Could not load the sign-up form', error);
        setSource(null);
      },
    );
  }, []);
  const value = useMemo(() => ({ openSignup }), [openSignup]);

  // Besides intent on a button (see SignupButton), the first sign of a visitor at work (a scroll,
  // a tap, a key) fetches the dialog's code when the browser next has a moment. Never before: the
  // first load stays within its budget of script (docs/performance.md).
  useEffect(() => {
    let idle: number | undefined;
    const preload = () => void preloadSignupDialog().catch(() => undefined);
    const onFirstInteraction = () => {
      stopListening();
      idle =
        'requestIdleCallback' in window
          ? window.requestIdleCallback(preload, { timeout: IDLE_PRELOAD_TIMEOUT_MS })
          : (setTimeout(preload, 1) as unknown as number);
    };
    const stopListening = () => {
      for (const type of FIRST_INTERACTIONS) window.removeEventListener(type, onFirstInteraction, true);
    };
    for (const type of FIRST_INTERACTIONS)
      window.addEventListener(type, onFirstInteraction, { capture: true, passive: true });
    return () => {
      stopListening();
      if (idle === undefined) return;
      if ('cancelIdleCallback' in window) window.cancelIdleCallback(idle);
      else clearTimeout(idle);
    };
  }, []);

  return (
    <SignupDialogContext value={value}>
      {children}
      {Dialog && <Dialog open={source !== null} source={source} onClose={() => setSource(null)} opener={opener} />}
    </SignupDialogContext>
  );
}
