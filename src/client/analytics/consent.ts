// The visitor's cookie choice: remembered in localStorage, changeable from the footer, shared with the banner.
import { useSyncExternalStore } from 'react';
import type { ConsentMode } from '../../shared/public-config.js';

export type ConsentChoice = 'accepted' | 'rejected';

export const CONSENT_STORAGE_KEY = 'scamsavvy.consent';

export interface ConsentState {
  /** False until analytics has read the server's settings (and always while prerendering). */
  known: boolean;
  /** Every provider switched on for this site, by display name (for the privacy notice). */
  configured: string[];
  /** The providers that would load on 'Accept', by display name; empty hides the banner and the footer link. */
  providers: string[];
  choice: ConsentChoice | null;
  /** The banner shows while no choice is made, and again when the visitor asks to change it. */
  bannerOpen: boolean;
  /** True when the visitor asked to change the choice (focus moves into the banner). */
  focusRequested: boolean;
  /** opt-in: nothing loads before 'Accept'; opt-out: the providers load unless the visitor rejects. */
  mode: ConsentMode;
}

const initial: ConsentState = {
  known: false,
  configured: [],
  providers: [],
  choice: null,
  bannerOpen: false,
  focusRequested: false,
  mode: 'opt-in',
};
let state = initial;
const listeners = new Set<() => void>();
const choiceListeners = new Set<(choice: ConsentChoice) => void>();

function update(next: Partial<ConsentState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/** Global Privacy Control: the browser says "do not sell or share"; we count it as a rejection of the pixel and the recorder. */
export function globalPrivacyControl(): boolean {
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

/** The stored choice; 'unavailable' when the browser blocks storage (then nothing can be remembered). */
export function readStoredChoice(): ConsentChoice | null | 'unavailable' {
  try {
    const stored = window.localStorage.getItem(CONSENT_STORAGE_KEY);
    if (!stored) return null;
    const { choice } = JSON.parse(stored) as { choice?: unknown };
    return choice === 'accepted' || choice === 'rejected' ? choice : null;
  } catch (error) {
    // A damaged entry is no choice at all; a storage that throws is unusable.
    return error instanceof SyntaxError ? null : 'unavailable';
  }
}

function storeChoice(choice: ConsentChoice): void {
  try {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ choice, at: new Date().toISOString() }));
  } catch {
    // Remembered for this page only; the banner asks again next visit.
  }
}

/** Called once analytics knows what is configured: shows the banner if a choice is still to be made. */
export function initialiseConsent({
  configured,
  providers,
  choice,
  mode,
}: Pick<ConsentState, 'configured' | 'providers' | 'choice' | 'mode'>): void {
  update({ known: true, configured, providers, choice, mode, bannerOpen: providers.length > 0 && choice === null });
}

/** The visitor pressed 'Accept' or 'Reject'. */
export function chooseConsent(choice: ConsentChoice): void {
  storeChoice(choice);
  update({ choice, bannerOpen: false, focusRequested: false });
  for (const listener of choiceListeners) listener(choice);
}

/** The footer's "Cookie choices" link. */
export function openConsentChoices(): void {
  update({ bannerOpen: true, focusRequested: true });
}

export function onConsentChoice(listener: (choice: ConsentChoice) => void): () => void {
  choiceListeners.add(listener);
  return () => choiceListeners.delete(listener);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The prerendered page knows nothing of consent; the browser learns it after analytics starts. */
export function useConsentState(): ConsentState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => initial,
  );
}

/** For tests: back to the start. */
export function resetConsentState(): void {
  state = initial;
  choiceListeners.clear();
  for (const listener of listeners) listener();
}
