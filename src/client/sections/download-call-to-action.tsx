// Once launched (SITE_MODE=launched), the closing call to action asks for the download instead of a
// sign-up. Behind the same switch as the sign-up one (`showSections.closingCallToAction`).
import { Island } from '../islands/island';
import { downloadCallToAction } from '../launch-content';
import { ClosingSection } from './closing-call-to-action';

export function DownloadCallToAction() {
  return (
    <ClosingSection heading={downloadCallToAction.heading} text={downloadCallToAction.text}>
      <Island name="store-links" props={{ location: 'cta_section' }} />
    </ClosingSection>
  );
}
