// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FADE_IN_THRESHOLD, FadeIn } from './fade-in';

let observers: { callback: IntersectionObserverCallback; options?: IntersectionObserverInit }[];
let reducedMotion: boolean;
let top: number;

beforeEach(() => {
  observers = [];
  reducedMotion = false;
  top = 2000; // below a 768 px window unless a test says otherwise
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        observers.push({ callback, options });
      }
      observe() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('reduce') && reducedMotion,
    addEventListener() {},
    removeEventListener() {},
  }));
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(
    () => ({ top, height: 100, bottom: top + 100, left: 0, right: 0, width: 0, x: 0, y: top }) as DOMRect,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function card() {
  return screen.getByText('Card').parentElement as HTMLElement;
}

function intersect() {
  act(() =>
    observers[0]?.callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver),
  );
}

describe('FadeIn (spec section 9)', () => {
  it('waits below the fold, then fades in up when 10% of it is visible, after its delay', () => {
    render(
      <FadeIn delayMs={300}>
        <p>Card</p>
      </FadeIn>,
    );
    expect(card()).toHaveClass('fade-in--waiting', 'fade-in--fade-in-up');
    expect(observers[0]?.options?.threshold).toBe(FADE_IN_THRESHOLD);
    expect(FADE_IN_THRESHOLD).toBe(0.1);
    intersect();
    expect(card()).toHaveClass('fade-in--animating', 'fade-in--fade-in-up');
    expect(card().style.animationDelay).toBe('300ms');
  });

  it('defaults to no delay', () => {
    render(
      <FadeIn>
        <p>Card</p>
      </FadeIn>,
    );
    expect(card().style.animationDelay).toBe('0ms');
  });

  it('leaves content already on screen as it is', () => {
    top = 100;
    render(
      <FadeIn>
        <p>Card</p>
      </FadeIn>,
    );
    expect(card()).toHaveClass('fade-in--shown');
    expect(observers).toHaveLength(0);
  });

  it('does not animate at all under reduced motion', () => {
    reducedMotion = true;
    render(
      <FadeIn>
        <p>Card</p>
      </FadeIn>,
    );
    expect(card()).toHaveClass('fade-in--shown');
    expect(card()).not.toHaveClass('fade-in--waiting');
    expect(observers).toHaveLength(0);
  });
});
