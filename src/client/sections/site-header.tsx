// The page's banner: the ScamSavvy logo, and the Text size control (wired by the page's script).
import { TextSizeControl } from '../../shared/text-size-control.js';
import { Logo } from '../components/logo';

export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Logo />
        <TextSizeControl />
      </div>
    </header>
  );
}
