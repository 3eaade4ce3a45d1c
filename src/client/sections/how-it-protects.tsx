// Spec section 2, hidden by default: three feature cards that fade in on scroll, one after another.
import { FadeIn } from '../components/fade-in';
import { FeatureIcon } from '../components/feature-icon';
import { OptionalSection } from '../components/optional-section';
import { howItProtects, showSections } from '../content';

/** Each card starts this much later than the one before it. */
const STAGGER_MS = 150;

export function HowItProtects() {
  return (
    <OptionalSection
      shown={showSections.howItProtects}
      id="how-it-protects"
      className="features"
      heading={howItProtects.heading}
    >
      <ul className="grid-list grid-list--three">
        {howItProtects.cards.map((card, index) => (
          <li key={card.title}>
            <FadeIn delayMs={index * STAGGER_MS} className="card">
              <FeatureIcon name={card.icon} />
              <h3 className="card__title">{card.title}</h3>
              <p className="card__text">{card.text}</p>
            </FadeIn>
          </li>
        ))}
      </ul>
    </OptionalSection>
  );
}
