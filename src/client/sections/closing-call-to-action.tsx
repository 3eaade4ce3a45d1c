// Spec section 2, hidden by default: the closing call to action, opening the same dialog, and the store badges.
import type { ReactNode } from 'react';
import { OptionalSection } from '../components/optional-section';
import { closingCallToAction, showSections } from '../content';
import { Island } from '../islands/island';

/** The closing section behind its switch (`showSections.closingCallToAction`): a heading, a line, and what to press. */
export function ClosingSection({ heading, text, children }: { heading: string; text: string; children: ReactNode }) {
  return (
    <OptionalSection
      shown={showSections.closingCallToAction}
      id="closing-call-to-action"
      className="closing-cta"
      heading={heading}
    >
      <p className="section__intro">{text}</p>
      {children}
    </OptionalSection>
  );
}

export function ClosingCallToAction() {
  return (
    <ClosingSection heading={closingCallToAction.heading} text={closingCallToAction.text}>
      <Island name="signup-button" props={{ source: 'cta_section', label: closingCallToAction.signupButton }} />
      <Island name="download-badges" />
    </ClosingSection>
  );
}
