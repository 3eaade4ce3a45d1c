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

/**
 * Hydrates each island in a task of its own, in the page's order, so that no single task holds the
 * phone for all of them (docs/performance.md). An island is marked `data-hydrating` as React takes it:
 * until then a press in it is kept by start.ts and pressed again once it runs (IslandRoot).
 */
export function hydrateIslands(): void {
  const waiting = [...document.querySelectorAll<HTMLElement>('[data-island]')];
  // A message to itself is a task of its own, as React's scheduler uses: no timer's clamp or clock.
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const element = waiting.shift();
    if (!element) return channel.port1.close();
    hydrateIsland(element);
    channel.port2.postMessage(null);
  };
  channel.port2.postMessage(null);
}

function hydrateIsland(element: HTMLElement): void {
  const Component = islands[element.dataset.island as IslandName] as ComponentType<object> | undefined;
  if (!Component) return;
  const props = element.dataset.props ? (JSON.parse(element.dataset.props) as object) : {};
  element.setAttribute('data-hydrating', '');
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
