// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_CONFIG_ELEMENT_ID, type PublicConfig } from '../../shared/public-config.js';
import type { AnalyticsProvider } from './analytics-provider';
import { allowedProviders, bootAnalytics } from './analytics-boot';
import { readPublicConfig } from './read-public-config';
import { CONSENT_STORAGE_KEY, chooseConsent, resetConsentState } from './consent';
import { AnalyticsQueue } from './event-queue';

const everything: PublicConfig = {
  consentMode: 'opt-in',
  ga4: { measurementId: 'G-TEST1234' },
  posthog: { key: 'phc_testtesttesttesttesttest', host: 'https://us.i.posthog.com' },
  metaPixel: { pixelId: '1234567890' },
};

/** Stand-ins for the real providers: they load at once and count what they are asked. */
function standIns(config: PublicConfig, gpc: boolean) {
  return allowedProviders(config, gpc).map((real) => {
    const provider = {
      name: real.name,
      load: vi.fn(() => Promise.resolve()),
      page: vi.fn(),
      track: vi.fn(),
      disable: vi.fn(),
    } satisfies AnalyticsProvider;
    return provider;
  });
}

let made: ReturnType<typeof standIns> = [];
const providersFor = (config: PublicConfig, gpc: boolean) => (made = standIns(config, gpc));

function setGpc(on: boolean) {
  Object.defineProperty(navigator, 'globalPrivacyControl', { configurable: true, get: () => on });
}

const view = {
  kind: 'page',
  view: { page_name: 'home', page_language: 'en', page_title: 'T', page_location: 'http://x/' },
} as const;

describe('bootAnalytics', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    window.localStorage.clear();
    resetConsentState();
    setGpc(false);
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    document.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.remove();
  });

  it('turns analytics off with one warning when no provider is configured', () => {
    const queue = new AnalyticsQueue();
    queue.push(view);
    bootAnalytics(queue, { consentMode: 'opt-in' }, providersFor);
    expect(queue.status).toBe('off');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/no analytics provider is configured/);
  });

  it('in opt-in mode loads nothing before Accept, then loads every provider and replays', async () => {
    const queue = new AnalyticsQueue();
    queue.push(view);
    bootAnalytics(queue, everything, providersFor);
    expect(queue.status).toBe('waiting');
    expect(made.every((provider) => provider.load.mock.calls.length === 0)).toBe(true);

    chooseConsent('accepted');
    await vi.waitFor(() => expect(queue.status).toBe('ready'), { timeout: 10_000 });
    expect(made.map((provider) => provider.name)).toEqual(['Google Analytics', 'PostHog', 'Meta Pixel']);
    for (const provider of made) expect(provider.page).toHaveBeenCalledTimes(1);
    expect(JSON.parse(window.localStorage.getItem(CONSENT_STORAGE_KEY) ?? '{}')).toMatchObject({ choice: 'accepted' });
  });

  it('drops the queue on Reject and loads nothing', () => {
    const queue = new AnalyticsQueue();
    queue.push(view);
    bootAnalytics(queue, everything, providersFor);
    chooseConsent('rejected');
    expect(queue.status).toBe('off');
    expect(made.every((provider) => provider.load.mock.calls.length === 0)).toBe(true);
  });

  it('remembers a rejection on the next visit', () => {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ choice: 'rejected' }));
    const queue = new AnalyticsQueue();
    bootAnalytics(queue, everything, providersFor);
    expect(queue.status).toBe('off');
    expect(made.every((provider) => provider.load.mock.calls.length === 0)).toBe(true);
  });

  it('in opt-out mode loads at once, and switches every provider off on Reject', async () => {
    const queue = new AnalyticsQueue();
    bootAnalytics(queue, { ...everything, consentMode: 'opt-out' }, providersFor);
    await vi.waitFor(() => expect(queue.status).toBe('ready'), { timeout: 10_000 });
    chooseConsent('rejected');
    expect(queue.status).toBe('off');
    for (const provider of made) expect(provider.disable).toHaveBeenCalledTimes(1);
  });

  it('under Global Privacy Control keeps the pixel and the recorder off, whatever the choice', async () => {
    setGpc(true);
    const queue = new AnalyticsQueue();
    bootAnalytics(queue, everything, providersFor);
    expect(made.map((provider) => provider.name)).toEqual(['Google Analytics']);
    chooseConsent('accepted');
    await vi.waitFor(() => expect(queue.status).toBe('ready'), { timeout: 10_000 });
  });

  it('is off under Global Privacy Control when only the pixel and the recorder are configured', () => {
    setGpc(true);
    const queue = new AnalyticsQueue();
    bootAnalytics(queue, { ...everything, ga4: undefined }, providersFor);
    expect(queue.status).toBe('off');
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/Global Privacy Control/);
  });

  it('is off where the browser blocks storage', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    const queue = new AnalyticsQueue();
    bootAnalytics(queue, everything, providersFor);
    expect(queue.status).toBe('off');
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/blocks storage/);
  });
});

describe('readPublicConfig', () => {
  afterEach(() => document.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.remove());

  function writeConfig(text: string) {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = PUBLIC_CONFIG_ELEMENT_ID;
    element.textContent = text;
    document.head.append(element);
  }

  it('reads the settings the server wrote into the page', () => {
    writeConfig(JSON.stringify(everything));
    expect(readPublicConfig()).toEqual(everything);
  });

  it('falls back to no analytics, with a warning, when they are damaged', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    writeConfig('{"consentMode":"opt-in","ga4":{"measurementId":"<script>"}}');
    expect(readPublicConfig()).toEqual({ consentMode: 'opt-in' });
    expect(warn).toHaveBeenCalled();
  });

  it('means no analytics when the page carries none (the dev server)', () => {
    expect(readPublicConfig()).toEqual({ consentMode: 'opt-in' });
  });
});
