// The Text size control's markup and styles (its sizes and words: text-size.ts), for the landing page's
// header and the server's pages alike; the page's script wires it (client/text-size.ts).
import type { Language } from './languages.js';
import { TEXT_SIZES, textSizeWords } from './text-size.js';

/**
 * The sizes, and the control's own look (the chosen size is drawn from the page's attribute, so it is right
 * from the first paint; the script keeps aria-pressed in step for screen readers). The control is sized in px: it stays the same at every text
 * size (as a browser's own buttons do), so at 200% on a 320 px screen it still fits beside nothing else.
 */
export const TEXT_SIZE_STYLES = `
${TEXT_SIZES.filter((size) => size.percent !== 100)
  .map((size) => `html[data-text-size=${size.id}]{font-size:${size.percent}%}`)
  .join('\n')}
.text-size{display:none}
html[data-text-size] .text-size{display:flex;flex-wrap:wrap;align-items:center;gap:4px;margin:0;font-size:18px;line-height:1.2}
.text-size__label{font-weight:700;margin-right:4px;color:var(--ink,#1b2a3a)}
.text-size__choice{min-width:48px;min-height:48px;padding:4px 8px;border:2px solid var(--teal,#0b5563);border-radius:10px;background:#fff;color:var(--teal-dark,#083f4a);font:inherit;font-weight:800;cursor:pointer}
.text-size__choice:nth-of-type(2){font-size:22px}
.text-size__choice:nth-of-type(3){font-size:26px}
${TEXT_SIZES.map(
  (size) =>
    `html[data-text-size=${size.id}] .text-size__choice[data-size=${size.id}]{background:var(--teal,#0b5563);color:#fff}`,
).join('\n')}
.text-size__choice:hover{border-color:var(--teal-dark,#083f4a);text-decoration:underline}
.text-size__choice:focus-visible{outline:3px solid var(--ink,#1b2a3a);outline-offset:3px}
`;

/** The control's markup: a group of three toggle buttons; the page's script wires them (client/text-size.ts). */
export function TextSizeControl({ language }: { language: Language }) {
  const words = textSizeWords[language];
  return (
    <div className="text-size" role="group" aria-labelledby="text-size-label" data-text-size-control="">
      <span className="text-size__label" id="text-size-label">
        {words.group}
      </span>
      {TEXT_SIZES.map((size) => (
        <button
          key={size.id}
          type="button"
          className="text-size__choice"
          data-size={size.id}
          aria-label={`${size.label} ${words.names[size.id]}`}
          aria-pressed={size.id === 'normal'}
        >
          {size.label}
        </button>
      ))}
    </div>
  );
}
