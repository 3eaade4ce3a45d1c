// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The landing page as the bundle of a mode sees it (src/client/site-mode.ts reads VITE_SITE_MODE once). */
async function renderLandingPage(mode: 'coming-soon' | 'launched') {
  vi.stubEnv('VITE_SITE_MODE', mode);
  vi.resetModules();
  const { LandingPage } = await import('./landing-page');
  return render(<LandingPage />);
}

beforeEach(() => {
  // Reduced motion: the carousel stands still and nothing waits to fade in (jsdom has no matchMedia).
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('reduce'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('the landing page in each mode', () => {
  it('launched: says the app is here, with both store buttons, and has no way to sign up', async () => {
    const { container } = await renderLandingPage('launched');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ScamSavvy is here!');
    const hero = container.querySelector('.hero') as HTMLElement;
    expect(within(hero).getByRole('link', { name: /App Store/ })).toHaveAttribute('href', '/app/ios');
    expect(within(hero).getByRole('link', { name: /Google Play/ })).toHaveAttribute('href', '/app/android');
    // The carousel and the statistics stay.
    expect(screen.getByRole('region', { name: 'App previews' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '$16.6 Billion Lost to Scams' })).toBeInTheDocument();
    // Nothing anywhere, shown or hidden, mentions or opens a sign-up: no such button, no form, no dialog.
    const buttons = Array.from(container.querySelectorAll('button'), (button) => button.textContent ?? '');
    expect(buttons.filter((text) => /notify|protect my family|coming soon/i.test(text))).toEqual([]);
    expect(container.querySelector('form, [role="dialog"]')).toBeNull();
    expect(container.textContent).not.toMatch(/Notify Me|Coming soon/i);
    // The closing call to action (hidden by default) asks for the download instead.
    const closing = container.querySelector('#closing-call-to-action') as HTMLElement;
    expect(closing.querySelectorAll('a[href="/app/ios"], a[href="/app/android"]')).toHaveLength(2);
  });

  it('coming soon: the sign-up button, and no store button', async () => {
    const { container } = await renderLandingPage('coming-soon');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Coming soon...');
    expect(screen.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' })).toBeInTheDocument();
    expect(container.querySelectorAll('a[href^="/app"]')).toHaveLength(0);
  });
});
