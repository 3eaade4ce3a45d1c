// The page's banner: the ScamSavvy logo.
import { Logo } from '../components/logo';

export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container">
        <Logo />
      </div>
    </header>
  );
}
