// Spec section 2, hero: logo, 'Coming soon...', the description, the sign-up button and the carousel.
// Once launched (SITE_MODE=launched), its words say the app is here, with the store buttons instead.
import { AppPreviewCarousel } from '../components/app-preview-carousel';
import { SignupButton } from '../components/signup-button';
import { hero, productName } from '../content';
import { launched } from '../site-mode';
import { LaunchedHeroText } from './launched-hero';

export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-heading">
      <div className="container hero__layout">
        {launched ? <LaunchedHeroText /> : <ComingSoonText />}
        <AppPreviewCarousel />
      </div>
    </section>
  );
}

function ComingSoonText() {
  return (
    <div className="hero__text">
      <h1 className="hero__heading" id="hero-heading">
        <span className="visually-hidden">{productName}: </span>
        {hero.comingSoon}
      </h1>
      {hero.description.map((paragraph) => (
        <p className="hero__description" key={paragraph}>
          {paragraph}
        </p>
      ))}
      <SignupButton source="hero_section">{hero.signupButton}</SignupButton>
      <p className="hero__reassurance">{hero.reassurance}</p>
    </div>
  );
}
