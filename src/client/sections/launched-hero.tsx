// The hero's words once the app is out (SITE_MODE=launched): it is here, and where to get it. No sign-up.
import { hero } from '../content';
import { Island } from '../islands/island';
import { launchedHero } from '../launch-content';

export function LaunchedHeroText() {
  return (
    <div className="hero__text">
      <h1 className="hero__heading" id="hero-heading">
        {launchedHero.heading}
      </h1>
      {hero.description.map((paragraph) => (
        <p className="hero__description" key={paragraph}>
          {paragraph}
        </p>
      ))}
      <p className="hero__get-it">{launchedHero.getIt}</p>
      <Island name="store-links" props={{ location: 'hero_section' }} />
      <p className="hero__reassurance">{launchedHero.whichStore}</p>
    </div>
  );
}
