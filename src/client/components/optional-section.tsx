// A section the spec keeps in the page but hides until the owner's switch in content.ts turns it on.
import type { ReactNode } from 'react';

export interface OptionalSectionProps {
  shown: boolean;
  id: string;
  className: string;
  heading: string;
  children: ReactNode;
}

/** `hidden` keeps it out of sight and out of the accessibility tree, while its markup stays in the page. */
export function OptionalSection({ shown, id, className, heading, children }: OptionalSectionProps) {
  return (
    <section id={id} className={`section ${className}`} aria-labelledby={`${id}-heading`} hidden={!shown}>
      <div className="container">
        <h2 className="section__heading" id={`${id}-heading`}>
          {heading}
        </h2>
        {children}
      </div>
    </section>
  );
}
