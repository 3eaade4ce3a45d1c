import { describe, expect, it } from 'vitest';
import {
  hasProvider,
  parsePublicConfig,
  posthogAssetsOrigin,
  serialisePublicConfig,
  type PublicConfig,
} from './public-config.js';

const everything: PublicConfig = {
  consentMode: 'opt-out',
  ga4: { measurementId: 'G-TEST12345' },
  posthog: { key: 'phc_abcdefghijklmnopqrstuvwxyz', host: 'https://eu.i.posthog.com' },
  metaPixel: { pixelId: '1234567890' },
  emailConfirmation: true,
};

describe('parsePublicConfig', () => {
  it('reads back exactly what the server writes', () => {
    const confirmationOnly: PublicConfig = { consentMode: 'opt-in', emailConfirmation: true };
    for (const config of [everything, confirmationOnly, { consentMode: 'opt-in' } as PublicConfig]) {
      expect(parsePublicConfig(JSON.parse(serialisePublicConfig(config)))).toEqual({ config });
    }
  });

  it.each([
    ['not an object', []],
    ['a missing consent mode', { ga4: everything.ga4 }],
    ['an unknown consent mode', { consentMode: 'sometimes' }],
    ['an unknown setting', { consentMode: 'opt-in', extra: 1 }],
    ['a bad measurement id', { consentMode: 'opt-in', ga4: { measurementId: '<script>' } }],
    ['an extra provider field', { consentMode: 'opt-in', ga4: { measurementId: 'G-TEST12345', x: '1' } }],
    [
      'a PostHog host that is not http(s)',
      { consentMode: 'opt-in', posthog: { ...everything.posthog, host: 'javascript:alert(1)' } },
    ],
    [
      'a PostHog host that is not a URL',
      { consentMode: 'opt-in', posthog: { ...everything.posthog, host: 'nowhere' } },
    ],
    ['a pixel id that is a number', { consentMode: 'opt-in', metaPixel: { pixelId: 1234567890 } }],
    ['email confirmation written as false', { consentMode: 'opt-in', emailConfirmation: false }],
    ['email confirmation written as a string', { consentMode: 'opt-in', emailConfirmation: 'true' }],
    ['email confirmation written as a number', { consentMode: 'opt-in', emailConfirmation: 1 }],
    ['email confirmation written as null', { consentMode: 'opt-in', emailConfirmation: null }],
  ])('refuses %s', (_, value) => {
    expect(parsePublicConfig(value)).toHaveProperty('problem');
  });

  it('says whether any provider is switched on', () => {
    expect(hasProvider(everything)).toBe(true);
    expect(hasProvider({ consentMode: 'opt-in', metaPixel: { pixelId: '1234567890' } })).toBe(true);
    expect(hasProvider({ consentMode: 'opt-out' })).toBe(false);
    expect(hasProvider({ consentMode: 'opt-in', emailConfirmation: true })).toBe(false);
  });
});

describe('serialisePublicConfig', () => {
  it('can never close its <script> data block early', () => {
    const text = serialisePublicConfig({ consentMode: 'opt-in', ga4: { measurementId: '</script><script>x' } });
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text)).toMatchObject({ ga4: { measurementId: '</script><script>x' } });
  });
});

describe('posthogAssetsOrigin', () => {
  it("is PostHog Cloud's -assets twin, or the host itself when self-hosted", () => {
    expect(posthogAssetsOrigin('https://us.i.posthog.com')).toBe('https://us-assets.i.posthog.com');
    expect(posthogAssetsOrigin('https://eu.i.posthog.com/')).toBe('https://eu-assets.i.posthog.com');
    expect(posthogAssetsOrigin('https://ph.example.org')).toBe('https://ph.example.org');
  });
});
