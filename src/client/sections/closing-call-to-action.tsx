// Spec section 2, hidden by default: the closing call to action, opening the same dialog, and the store badges.
import { OptionalSection } from '../components/optional-section';
import { closingCallToAction, showSections } from '../content';
import { Island } from '../islands/island';

export function ClosingCallToAction() {
  return (
    <OptionalSection
      shown={showSections.closingCallToAction}
      id="closing-call-to-action"
      className="closing-cta"
      heading={closingCallToAction.heading}
    >
      <p className="section__intro">{closingCallToAction.text}</p>
      <Island name="signup-button" props={{ source: 'cta_section', label: closingCallToAction.signupButton }} />
      <Island name="download-badges" />
    </OptionalSection>
  );
}
