// Spec section 2, hidden by default: the founder's story.
import { OptionalSection } from '../components/optional-section';
import { founderStory, showSections } from '../content';

export function FounderStory() {
  return (
    <OptionalSection
      shown={showSections.founderStory}
      id="founder-story"
      className="founder"
      heading={founderStory.heading}
    >
      {founderStory.paragraphs.map((paragraph) => (
        <p className="founder__text" key={paragraph}>
          {paragraph}
        </p>
      ))}
    </OptionalSection>
  );
}
