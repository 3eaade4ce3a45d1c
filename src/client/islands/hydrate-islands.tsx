// Hydrates each island of the prerendered page as its own root; the static sections are never touched.
import { startTransition, StrictMode, useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { replayEarlyPressWithin } from '../early-press';
import { islands, type IslandName } from './island-registry';

function IslandRoot({ element, children }: { element: HTMLElement; children: ReactNode }) {
  // This island is React's now: a button in it pressed while the page was loading is pressed again.
  useEffect(() => replayEarlyPressWithin(element), [element]);
  return children;
}

export function hydrateIslands(): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const Component = islands[element.dataset.island as IslandName] as ComponentType<object> | undefined;
    if (!Component) continue;
    const props = element.dataset.props ? (JSON.parse(element.dataset.props) as object) : {};
    // As a transition, hydration yields to the browser every few milliseconds: a tap is answered meanwhile.
    startTransition(() => {
      hydrateRoot(
        element,
        <StrictMode>
          <IslandRoot element={element}>
            <Component {...props} />
          </IslandRoot>
        </StrictMode>,
      );
    });
  }
}
