// Once launched (SITE_MODE=launched), the closing call to action asks for the download instead of a
// sign-up. Behind the same switch as the sign-up one (`showSections.closingCallToAction`).
import { OptionalSection } from '../components/optional-section';
import { showSections } from '../content';
import { Island } from '../islands/island';
import { downloadCallToAction } from '../launch-content';

export function DownloadCallToAction() {
  return (
    <OptionalSection
      shown={showSections.closingCallToAction}
      id="closing-call-to-action"
      className="closing-cta"
      heading={downloadCallToAction.heading}
    >
      <p className="section__intro">{downloadCallToAction.text}</p>
      <Island name="store-links" props={{ location: 'cta_section' }} />
    </OptionalSection>
  );
}
