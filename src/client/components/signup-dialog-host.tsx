// Holds whether the sign-up dialog is open; its code loads on intent, or when idle after the visitor's first move.
import {
  Component,
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { SignupButton } from '../../shared/signup-schema.js';
import { trackSignupStart } from '../analytics/analytics';

/** Which button opened the dialog (spec section 2: the click's section). */
export type SignupSource = SignupButton;

let dialogCode: Promise<typeof import('./signup-dialog')> | undefined;

export function preloadSignupDialog(): Promise<typeof import('./signup-dialog')> {
  dialogCode ??= import('./signup-dialog').catch((error: unknown) => {
    dialogCode = undefined; // a failed load (offline for a moment) may be tried again
    throw error;
  });
  return dialogCode;
}

const SignupDialog = lazy(async () => ({ default: (await preloadSignupDialog()).SignupDialog }));

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
  const [requested, setRequested] = useState(false);

  const openSignup = useCallback((from: SignupSource, button: HTMLElement) => {
    trackSignupStart(); // spec section 4: recorded on opening
    setRequested(true);
    setOpener(button);
    setSource(from);
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
      {requested && (
        <DialogLoadBoundary
          onFailed={() => {
            setRequested(false); // the next click tries to load it again
            setSource(null);
          }}
        >
          <Suspense fallback={null}>
            <SignupDialog open={source !== null} source={source} onClose={() => setSource(null)} opener={opener} />
          </Suspense>
        </DialogLoadBoundary>
      )}
    </SignupDialogContext>
  );
}

/** If the dialog's code cannot load (a dropped connection), the page carries on and the button works again. */
class DialogLoadBoundary extends Component<{ children: ReactNode; onFailed: () => void }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('Could not load the sign-up form', error);
    this.props.onFailed();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
