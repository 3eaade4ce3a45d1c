// @vitest-environment jsdom
// What each provider hands its vendor's script: the calls the official snippets queue until the script arrives.
import { afterEach, describe, expect, it } from 'vitest';
import { googleAnalytics } from './google-analytics';
import { LEAD_PARAMETERS, metaPixel } from './meta-pixel';
import { posthogProvider } from './posthog';

const person = { name: 'Ann Lee', email: ' Ann@Example.com', phone: '+15550102233' };
const view = {
  page_name: 'home',
  page_language: 'en' as const,
  page_title: 'ScamSavvy',
  page_location: 'https://scamsavvy.example/',
};

/** The script tags a provider added, by address. */
const scripts = () => Array.from(document.head.querySelectorAll('script'), (script) => script.src);

/** gtag.js and fbevents.js read Arguments objects; tests compare them as arrays. */
const asArrays = (entries: unknown[] | undefined) =>
  (entries ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));

afterEach(() => {
  document.head.innerHTML = '';
  delete window.dataLayer;
  delete window.gtag;
  delete window.fbq;
  delete window._fbq;
  delete window.posthog;
});

describe('Google Analytics 4', () => {
  it("loads gtag.js from Google's host and configures measurement without ads or automatic page views", () => {
    const provider = googleAnalytics('G-TEST1234');
    void provider.load();
    expect(scripts()).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-TEST1234']);
    const layer = asArrays(window.dataLayer);
    expect(layer[0]).toEqual(['consent', 'default', expect.objectContaining({ ad_storage: 'denied' })]);
    expect(layer[1]?.[0]).toBe('js');
    expect(layer[2]).toEqual([
      'config',
      'G-TEST1234',
      expect.objectContaining({ send_page_view: false, allow_google_signals: false }),
    ]);
    expect(Object.prototype.toString.call(window.dataLayer?.[0])).toBe('[object Arguments]');
  });

  it('pushes page views and events with their parameters, and has no way to receive a person', () => {
    const provider = googleAnalytics('G-TEST1234');
    void provider.load();
    provider.page(view);
    provider.track({ name: 'sign_up', params: { page_name: 'home', method: 'modal', beta_testing: true } });
    expect(asArrays(window.dataLayer).slice(3)).toEqual([
      ['event', 'page_view', view],
      ['event', 'sign_up', { page_name: 'home', method: 'modal', beta_testing: true }],
    ]);
    expect(provider.identify).toBeUndefined();
  });
});

describe('Meta Pixel', () => {
  it("queues init and a PageView with page_name, and loads fbevents.js from Facebook's host", () => {
    const provider = metaPixel('1234567890');
    void provider.load();
    provider.page(view);
    expect(scripts()).toEqual(['https://connect.facebook.net/en_US/fbevents.js']);
    expect(asArrays(window.fbq?.queue)).toEqual([
      ['set', 'autoConfig', false, '1234567890'],
      ['init', '1234567890'],
      ['track', 'PageView', { page_name: 'home', page_language: 'en' }],
    ]);
    expect(window.fbq?.disablePushState).toBe(true);
  });

  it('on a sign-up sends the advanced matching data, then Lead (value 2 USD) and CompleteRegistration', () => {
    const provider = metaPixel('1234567890');
    void provider.load();
    provider.identify?.(person);
    provider.track({ name: 'sign_up', params: { page_name: 'home', method: 'modal', beta_testing: false } });
    provider.track({ name: 'sign_up_start', params: { page_name: 'home', method: 'modal' } });
    expect(asArrays(window.fbq?.queue).slice(2)).toEqual([
      ['init', '1234567890', { em: 'ann@example.com', ph: '15550102233', fn: 'ann', ln: 'lee' }],
      ['track', 'Lead', { content_name: 'signup', content_category: 'user_registration', value: 2, currency: 'USD' }],
      ['track', 'CompleteRegistration'],
    ]);
    expect(LEAD_PARAMETERS.value).toBe(2);
  });
});

describe('PostHog', () => {
  it('loads array.js from the assets host and initialises with every input masked in recordings', () => {
    const provider = posthogProvider('phc_testtesttesttesttesttest', 'https://eu.i.posthog.com');
    void provider.load();
    expect(scripts()).toEqual(['https://eu-assets.i.posthog.com/static/array.js']);
    const [key, config] = (window.posthog?._i?.[0] ?? []) as [string, Record<string, unknown>];
    expect(key).toBe('phc_testtesttesttesttesttest');
    expect(config).toMatchObject({
      api_host: 'https://eu.i.posthog.com',
      capture_pageview: false,
      autocapture: false,
      session_recording: { maskAllInputs: true },
    });
  });

  it('a self-hosted PostHog serves its own scripts', () => {
    void posthogProvider('phc_testtesttesttesttesttest', 'https://ph.scamsavvy.example').load();
    expect(scripts()).toEqual(['https://ph.scamsavvy.example/static/array.js']);
  });

  it('captures the same events under the same names and identifies the person who signed up', () => {
    const provider = posthogProvider('phc_testtesttesttesttesttest', 'https://us.i.posthog.com');
    void provider.load();
    provider.page(view);
    provider.track({
      name: 'form_submission',
      params: { page_name: 'home', form_name: 'signup_modal', success: true },
    });
    provider.identify?.(person);
    expect(Array.from(window.posthog ?? [])).toEqual([
      ['capture', 'page_view', view],
      ['capture', 'form_submission', { page_name: 'home', form_name: 'signup_modal', success: true }],
      [
        'identify',
        'ann@example.com',
        { name: 'Ann Lee', first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com', phone: '+15550102233' },
      ],
    ]);
  });
});
