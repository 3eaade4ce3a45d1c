// The page's banner: the ScamSavvy logo, the link to the page in the other language, and the Text size
// control (wired by the page's script). Above them, for a visitor whose browser asks first for the
// other language, an offer of that page: shown by the head's script before the first paint, never a
// redirect (shared/languages.ts LANGUAGE_HEAD_SCRIPT; issue 45).
import { LANGUAGE_TAGS } from '../../shared/languages.js';
import { TextSizeControl } from '../../shared/text-size-control.js';
import { Logo } from '../components/logo';
import { languageSwitch } from '../content';
import { language } from '../language';

export function SiteHeader() {
  const other = languageSwitch.to;
  return (
    <header className="site-header">
      <div className="container language-offer" lang={LANGUAGE_TAGS[other]} data-language-offer="">
        <p className="language-offer__text">{languageSwitch.offer.text}</p>
        <a
          className="button button--secondary language-offer__link"
          href={languageSwitch.href}
          hrefLang={LANGUAGE_TAGS[other]}
          data-language-choice={other}
        >
          {languageSwitch.offer.link}
        </a>
        <button type="button" className="language-offer__close" data-language-choice={language}>
          {languageSwitch.offer.close}
        </button>
      </div>
      <div className="container site-header__bar">
        <Logo />
        <div className="site-header__tools">
          <a
            className="language-link"
            href={languageSwitch.href}
            hrefLang={LANGUAGE_TAGS[other]}
            lang={LANGUAGE_TAGS[other]}
            aria-label={languageSwitch.label}
            data-language-choice={other}
          >
            {languageSwitch.text}
          </a>
          <TextSizeControl language={language} />
        </div>
      </div>
    </header>
  );
}
