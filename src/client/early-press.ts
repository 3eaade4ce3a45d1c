// The hand-over from start.ts, which loads this script after the first paint: a button
// pressed before the page was ready is pressed again once its part of the page is running.

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

/**
 * Presses again the button a visitor pressed too early, once the part of the page holding it
 * (`within`: an island, or a control the page's script has wired) is ready, if it is still there and enabled.
 */
export function replayEarlyPressWithin(within: Element): void {
  const state = window.__scamsavvyStart;
  const pressed = state?.pressed;
  if (!state || !pressed || !within.contains(pressed)) return;
  state.pressed = null;
  if (pressed.isConnected && !(pressed as HTMLButtonElement).disabled) pressed.click();
}
