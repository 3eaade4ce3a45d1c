// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSENT_STORAGE_KEY, initialiseConsent, resetConsentState } from '../analytics/consent';
import { consentBanner } from '../consent-content';
import { footer } from '../content';
import { SiteFooter } from '../sections/site-footer';
import { ConsentBanner, listNames } from './consent-banner';

function Page() {
  return (
    <>
      <SiteFooter />
      <ConsentBanner />
    </>
  );
}

describe('ConsentBanner', () => {
  beforeEach(() => {
    window.localStorage.clear();
    resetConsentState();
  });
  afterEach(cleanup);

  it('shows nothing until the page knows a provider is switched on', () => {
    render(<Page />);
    expect(screen.queryByRole('button', { name: /^Accept/ })).toBeNull();
    expect(screen.queryByRole('button', { name: footer.cookieChoices })).toBeNull();
    act(() => initialiseConsent({ configured: [], providers: [], choice: null, mode: 'opt-in' }));
    expect(screen.queryByRole('button', { name: /^Accept/ })).toBeNull();
  });

  it('asks with two equal buttons, names the providers, and links to the privacy notice', () => {
    render(<Page />);
    act(() =>
      initialiseConsent({
        configured: ['Google Analytics', 'Meta Pixel'],
        providers: ['Google Analytics', 'Meta Pixel'],
        choice: null,
        mode: 'opt-in',
      }),
    );
    const region = screen.getByRole('region', { name: consentBanner.heading });
    expect(region).toHaveTextContent('cookies from Google Analytics and Meta Pixel');
    expect(region).toHaveTextContent('Nothing is switched on unless you say yes.');
    const accept = screen.getByRole('button', { name: /^Accept/ });
    const reject = screen.getByRole('button', { name: /^Reject/ });
    expect(accept.className).toBe(reject.className);
    expect(screen.getByRole('link', { name: consentBanner.privacyLink })).toHaveAttribute('href', '#privacy-notice');
  });

  it('remembers the choice, hides, and comes back from the footer link with focus', async () => {
    const user = userEvent.setup();
    render(<Page />);
    act(() => initialiseConsent({ configured: ['PostHog'], providers: ['PostHog'], choice: null, mode: 'opt-out' }));
    expect(screen.getByRole('region', { name: consentBanner.heading })).toHaveTextContent('You can say no');
    await user.click(screen.getByRole('button', { name: /^Reject/ }));
    expect(screen.queryByRole('region', { name: consentBanner.heading })).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(CONSENT_STORAGE_KEY) ?? '{}')).toMatchObject({ choice: 'rejected' });

    await user.click(screen.getByRole('button', { name: footer.cookieChoices }));
    const heading = screen.getByRole('heading', { name: consentBanner.heading });
    expect(heading).toHaveFocus();
    expect(screen.getByText(consentBanner.current.rejected)).toBeInTheDocument();
  });

  it('lists names the way people write them', () => {
    expect(listNames(['A'])).toBe('A');
    expect(listNames(['A', 'B'])).toBe('A and B');
    expect(listNames(['A', 'B', 'C'])).toBe('A, B and C');
    // The Spanish page's word (issue 45).
    expect(listNames(['A', 'B', 'C'], 'y')).toBe('A, B y C');
  });
});
