// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { beaconEvents, catchBeacons } from '../test/beacons';
import { DownloadBadges } from './download-badges';
import { closeSignup } from './signup-dialog-host';

describe('DownloadBadges (spec section 1)', () => {
  const beacons: string[] = [];
  // The page loads the dialog's code on the first press; loaded here first, how long a busy machine
  // takes to compile it is not part of the test (a 1 s wait for the dialog once ran out in CI).
  beforeAll(async () => {
    await import('./signup-dialog');
  });
  beforeEach(() => {
    catchBeacons(beacons);
  });
  afterEach(() => {
    // The dialog lives in a root of its own (signup-dialog-host.tsx): closed here, while its page is.
    act(() => closeSignup());
    cleanup();
  });

  it('records a download intent for the platform, then opens the sign-up instead of a download', async () => {
    render(<DownloadBadges />);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await act(async () => {
        screen.getByRole('button', { name: 'Coming soon on Google Play' }).click();
      });
      act(() => {
        vi.advanceTimersByTime(2000);
      });
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(beacons.length).toBeGreaterThan(0), { timeout: 5000 });
    const events = beaconEvents(beacons);
    expect(events).toContainEqual({
      name: 'download_intent',
      params: {
        page_name: 'home',
        page_language: 'en',
        platform: 'android',
        source: 'landing_page',
        location: 'cta_section',
        element_name: 'store_badge',
      },
    });
    expect(events).toContainEqual({
      name: 'sign_up_start',
      params: { page_name: 'home', page_language: 'en', method: 'modal' },
    });
    expect(await screen.findByRole('dialog', { name: 'Get Notified When ScamSavvy Launches' })).toBeVisible();
  });
});
