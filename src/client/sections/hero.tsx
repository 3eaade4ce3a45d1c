// Spec section 2, hero: logo, 'Coming soon...', the description, the sign-up button and the carousel.
// Once launched (SITE_MODE=launched), its words say the app is here, with the store buttons instead.
import { hero, productName } from '../content';
import { Island } from '../islands/island';
import { launched } from '../site-mode';
import { LaunchedHeroText } from './launched-hero';

export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-heading">
      <div className="container hero__layout">
        {launched ? <LaunchedHeroText /> : <ComingSoonText />}
        <Island name="carousel" />
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
      <Island name="signup-button" props={{ source: 'hero_section', label: hero.signupButton }} />
      <p className="hero__reassurance">{hero.reassurance}</p>
    </div>
  );
}
