// The ScamSavvy mark and wordmark. The mark (0.6 kB) is written into the page as a data address: one
// request fewer before the first paint on a slow line (docs/performance.md).
import logoMark from '../assets/logo.svg?inline';
import { productName } from '../content';

export function Logo() {
  return (
    <span className="logo">
      <img className="logo__mark" src={logoMark} alt="" width={56} height={56} />
      <span className="logo__name">{productName}</span>
    </span>
  );
}
