import { describe, expect, it } from 'vitest';
import { posthogAssetsOrigin, serialisePublicConfig } from './public-config.js';

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
