// The stylesheet of the pages links in messages open: the landing page's colours and sizes
// (src/client/styles/base.css), inline, so a page is one response with nothing else to fetch
// (the CSP allows inline styles). Sizes in rem, so browser text size and the Text size control work;
// spacing and headings grow no further than the screen allows, and a word too long for it breaks.
import { SHARED_PAGE_STYLES } from '../../../shared/page-styles.js';

export const linkPageStyles = `
:root{--ink:#1b2a3a;--muted:#3d4a59;--cream:#fff9f0;--sand:#f3ebdd;--teal:#0b5563;--teal-dark:#083f4a;--error:#9b1c15;--success:#1e6b3a;color-scheme:light}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif;font-size:1.25rem;line-height:1.6;color:var(--ink);background:var(--cream);overflow-wrap:anywhere}
.shell{max-width:40rem;margin:0 auto;padding:min(1rem,4vw)}
header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:0.5rem 1rem;padding:0.5rem 0 1rem}
header a{display:inline-flex;align-items:center;min-height:2.75rem;font-size:min(1.75rem,9vw);font-weight:800;color:var(--teal-dark);text-decoration:none}
header a:hover{text-decoration:underline}
main{background:#fff;border-radius:0.75rem;padding:min(1.5rem,5vw) min(1.25rem,4vw);box-shadow:0 0.25rem 1.5rem rgb(27 42 58 / 0.12)}
h1{font-size:min(1.875rem,10vw);line-height:1.2;margin:0 0 1rem}
h2{font-size:min(1.5rem,8vw);line-height:1.25;margin:0 0 0.75rem}
/* Headings break between words only; their sizes keep the longest word within a phone's width. */
h1,h2,h3{overflow-wrap:break-word}
p{margin:0 0 1rem}
a{color:var(--teal);text-decoration-thickness:0.1em;text-underline-offset:0.15em}
a:hover{color:var(--teal-dark);text-decoration-thickness:0.15em}
.link{display:inline-flex;align-items:center;min-height:2.75rem}
:focus-visible{outline:0.1875rem solid var(--ink);outline-offset:0.1875rem}
form{margin:0 0 1rem}
section{margin-top:2rem;padding-top:1.5rem;border-top:0.0625rem solid var(--sand)}
.button{display:inline-flex;align-items:center;justify-content:center;min-height:3rem;min-width:2.75rem;max-width:100%;padding:0.75rem 1.5rem;border:0.125rem solid var(--teal);border-radius:0.75rem;font:inherit;font-weight:700;line-height:1.3;text-align:center;text-decoration:none;cursor:pointer}
.button--primary{background:var(--teal);color:#fff}
.button--primary:hover{background:var(--teal-dark);border-color:var(--teal-dark);color:#fff}
.button--secondary{background:#fff;color:var(--teal)}
.button--secondary:hover{background:var(--sand);color:var(--teal-dark)}
.button--danger{background:#fff;color:var(--error);border-color:var(--error)}
.button--danger:hover{background:#fbeeed}
.actions{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
.actions form{margin:0}
fieldset{border:0;margin:0 0 1.5rem;padding:0;min-width:0}
legend{font-weight:700;margin-bottom:0.5rem;padding:0}
.choice{display:flex;align-items:center;gap:0.75rem;min-height:2.75rem;padding:0.375rem 0;cursor:pointer}
.choice input{flex:none;width:2.75rem;height:2.75rem;margin:0;accent-color:var(--teal);cursor:pointer}
.choice__note{margin:0 0 0.5rem 3.5rem;color:var(--muted);font-size:1.125rem}
.status{border-left:0.375rem solid var(--success);background:#eef7f1;padding:0.75rem 1rem;margin:0 0 1.5rem;font-weight:700}
.status p:last-child{margin:0}
.who{color:var(--muted)}
.field{margin:0 0 1.25rem}
.field label{display:block;font-weight:700;margin-bottom:0.25rem}
.field input{display:block;width:100%;max-width:24rem;min-height:3rem;padding:0.5rem 0.75rem;border:0.125rem solid var(--ink);border-radius:0.5rem;font:inherit;color:var(--ink);background:#fff}
.field input[aria-invalid=true]{border-color:var(--error);border-width:0.1875rem}
.hint{color:var(--muted);font-size:1.125rem;margin:0 0 0.5rem}
.field-error{color:var(--error);font-weight:700;margin:0 0 0.5rem}
.status--error{border-left-color:var(--error);background:#fbeeed}
footer{padding:1.5rem 0;color:var(--muted);font-size:1.125rem}
${SHARED_PAGE_STYLES}`;
