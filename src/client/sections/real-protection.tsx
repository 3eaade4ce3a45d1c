// Spec section 2, hidden by default: 'Real Protection, Gentle Learning' and its five items.
import { OptionalSection } from '../components/optional-section';
import { realProtection, showSections } from '../content';

export function RealProtection() {
  return (
    <OptionalSection
      shown={showSections.realProtection}
      id="real-protection"
      className="real-protection"
      heading={realProtection.heading}
    >
      <ul className="check-list">
        {realProtection.items.map((item) => (
          <li className="check-list__item" key={item}>
            {item}
          </li>
        ))}
      </ul>
    </OptionalSection>
  );
}
