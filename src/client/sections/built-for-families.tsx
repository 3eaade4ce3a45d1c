// Spec section 2, hidden by default: 'Built for Families Who Care' and its two cards.
import { OptionalSection } from '../components/optional-section';
import { builtForFamilies, showSections } from '../content';

export function BuiltForFamilies() {
  return (
    <OptionalSection
      shown={showSections.builtForFamilies}
      id="built-for-families"
      className="families"
      heading={builtForFamilies.heading}
    >
      <ul className="grid-list grid-list--two">
        {builtForFamilies.cards.map((card) => (
          <li className="card" key={card.title}>
            <h3 className="card__title">{card.title}</h3>
            <p className="card__text">{card.text}</p>
          </li>
        ))}
      </ul>
    </OptionalSection>
  );
}
