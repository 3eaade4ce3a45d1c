// Which language this bundle is: English (/) or Spanish (/es/). Fixed when the page is built, like
// its mode (site-mode.ts): the build makes one bundle per language (VITE_LANGUAGE, scripts/build.mjs),
// so each carries only its own language's words. Tests and `npm run dev` get English unless
// VITE_LANGUAGE=es is set.
import type { Language } from '../shared/languages.js';

/** A constant, so the other language's words are left out of each bundle. */
export const language: Language = import.meta.env.VITE_LANGUAGE === 'es' ? 'es' : 'en';
