// Spec section 2, hidden by default: the closing call to action, opening the same dialog, and the store badges.
import { DownloadBadges } from '../components/download-badges';
import { OptionalSection } from '../components/optional-section';
import { SignupButton } from '../components/signup-button';
import { closingCallToAction, showSections } from '../content';

export function ClosingCallToAction() {
  return (
    <OptionalSection
      shown={showSections.closingCallToAction}
      id="closing-call-to-action"
      className="closing-cta"
      heading={closingCallToAction.heading}
    >
      <p className="section__intro">{closingCallToAction.text}</p>
      <SignupButton source="cta_section">{closingCallToAction.signupButton}</SignupButton>
      <DownloadBadges />
    </OptionalSection>
  );
}
