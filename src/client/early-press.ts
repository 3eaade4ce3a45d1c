// The hand-over from start.ts, which loads this script after the first paint: a button
// pressed before the page was ready is pressed again once React has taken the page over.

export interface StartState {
  started: boolean;
  /** Set just before React starts: from then on React replays presses on the page itself. */
  hydrating: boolean;
  pressed: HTMLElement | null;
}

declare global {
  interface Window {
    __scamsavvyStart?: StartState;
  }
}

export function markHydrating(): void {
  const state = window.__scamsavvyStart;
  if (state) state.hydrating = true;
}

/** Presses again the button a visitor pressed too early, if it is still there and enabled. */
export function replayEarlyPress(): void {
  const state = window.__scamsavvyStart;
  const pressed = state?.pressed;
  if (!state || !pressed) return;
  state.pressed = null;
  if (pressed.isConnected && !(pressed as HTMLButtonElement).disabled) pressed.click();
}
