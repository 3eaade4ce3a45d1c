// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { beaconEvents, catchBeacons } from '../test/beacons';
import { StoreLinks } from './store-links';

describe('StoreLinks (the launched page)', () => {
  const beacons: string[] = [];
  // jsdom cannot follow a link; the browser tests follow them to the stores (e2e/launch-mode.spec.ts).
  const stayOnPage = (event: MouseEvent) => event.preventDefault();
  beforeEach(() => {
    catchBeacons(beacons);
    document.addEventListener('click', stayOnPage);
  });
  afterEach(() => {
    document.removeEventListener('click', stayOnPage);
    cleanup();
  });

  it("links to our own addresses for each store, never to a store's", () => {
    render(<StoreLinks location="hero_section" />);
    expect(screen.getByRole('link', { name: /App Store/ })).toHaveAttribute('href', '/app/ios');
    expect(screen.getByRole('link', { name: /Google Play/ })).toHaveAttribute('href', '/app/android');
    expect(screen.getByRole('link', { name: /App Store/ })).toHaveAccessibleName(
      'Get it on the App Store For iPhone and iPad',
    );
    expect(screen.getAllByRole('link')).toHaveLength(2);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it.each([
    ['App Store', 'ios'],
    ['Google Play', 'android'],
  ])('a press on %s records a download intent for %s from the landing page', async (store, platform) => {
    render(<StoreLinks location="hero_section" />);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await act(async () => {
        screen.getByRole('link', { name: new RegExp(store) }).click();
      });
      act(() => {
        vi.advanceTimersByTime(2000);
      });
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(beacons.length).toBeGreaterThan(0), { timeout: 10_000 });
    const events = beaconEvents(beacons);
    expect(events).toEqual([
      {
        name: 'download_intent',
        params: {
          page_name: 'home',
          page_language: 'en',
          platform,
          source: 'landing_page',
          location: 'hero_section',
          element_name: 'store_button',
        },
      },
    ]);
  });
});
