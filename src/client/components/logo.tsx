// The ScamSavvy mark and wordmark.
import logoMark from '../assets/logo.svg';
import { productName } from '../content';

export function Logo() {
  return (
    <span className="logo">
      <img className="logo__mark" src={logoMark} alt="" width={56} height={56} />
      <span className="logo__name">{productName}</span>
    </span>
  );
}
