// The Text size control of every public page: its sizes, its words, and the line of script that applies
// the visitor's choice before the first paint (its markup and styles: text-size-control.tsx). One source
// for the landing page (prerendered by the client's build) and the pages the server renders.
import type { Translated } from './languages.js';

/** Where the choice is kept on this device (localStorage: no cookie, never sent anywhere). */
export const TEXT_SIZE_STORAGE_KEY = 'scamsavvy.textSize';

export const TEXT_SIZES = [
  { id: 'normal', label: 'A', percent: 100 },
  { id: 'large', label: 'A+', percent: 150 },
  { id: 'largest', label: 'A++', percent: 200 },
] as const;

export type TextSize = (typeof TEXT_SIZES)[number]['id'];

/** The control's words in each language: its name, and each size's as a screen reader hears it ("A+ Large"). */
export const textSizeWords: Translated<{ group: string; names: Record<TextSize, string> }> = {
  en: { group: 'Text size', names: { normal: 'Normal', large: 'Large', largest: 'Largest' } },
  es: { group: 'Tamaño de la letra', names: { normal: 'Normal', large: 'Grande', largest: 'Muy grande' } },
};

export function isTextSize(value: unknown): value is TextSize {
  return TEXT_SIZES.some((size) => size.id === value);
}

/**
 * Runs in the page's head, before anything is drawn, so a page never jumps from one size to another.
 * It also marks the page as running script (`data-text-size` is set whatever the choice): the control
 * shows only then, because without script its buttons could do nothing. Inline, so the Content-Security-
 * Policy names its hash (server/security-headers.ts).
 */
export const TEXT_SIZE_HEAD_SCRIPT = `(function(){var s="normal";try{var v=localStorage.getItem("${TEXT_SIZE_STORAGE_KEY}");if(v==="large"||v==="largest")s=v}catch(e){}document.documentElement.setAttribute("data-text-size",s)})();`;
