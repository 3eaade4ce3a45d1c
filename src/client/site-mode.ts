// Which page this bundle is: coming soon (collects sign-ups) or launched (store buttons, no sign-ups).
// Fixed when the page is built: the build makes one bundle per mode (VITE_SITE_MODE, scripts/build.mjs),
// so each carries only its own page's code, and the server serves the one SITE_MODE names.
// Tests and `npm run dev` get the coming-soon page unless VITE_SITE_MODE=launched is set.

/** True in the launched page's bundle. A constant, so the other page's code is left out of each. */
export const launched: boolean = import.meta.env.VITE_SITE_MODE === 'launched';
