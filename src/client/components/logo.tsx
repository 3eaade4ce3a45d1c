// The ScamSavvy mark and wordmark. The mark (0.6 kB) is drawn in the page itself, as inline SVG: no
// request, and no picture for the browser to open as a document of its own before the first paint
// (docs/performance.md). The header is static: React only ever renders it into the prerendered page.
import logoMark from '../assets/logo.svg?raw';
import { productName } from '../content';

/** The mark's own SVG, sized and hidden from assistive technology (the name beside it is read). */
const markup = logoMark
  .trim()
  .replace('<svg ', '<svg aria-hidden="true" focusable="false" ')
  .replace(/ width="\d+" height="\d+"/, ' width="56" height="56"');

export function Logo() {
  return (
    <span className="logo">
      <span className="logo__mark" dangerouslySetInnerHTML={{ __html: markup }} />
      <span className="logo__name">{productName}</span>
    </span>
  );
}
