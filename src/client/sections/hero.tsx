// Spec section 2, hero: logo, 'Coming soon...', the description, the sign-up button and the carousel.
import { AppPreviewCarousel } from '../components/app-preview-carousel';
import { SignupButton } from '../components/signup-button';
import { hero, productName } from '../content';

export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-heading">
      <div className="container hero__layout">
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
        <AppPreviewCarousel />
      </div>
    </section>
  );
}
