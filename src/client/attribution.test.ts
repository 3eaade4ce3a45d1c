// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { captureAttribution, LANDING_STORAGE_KEY, readAttribution } from './attribution';

describe('where the visit came from', () => {
  beforeEach(() => window.sessionStorage.clear());

  it('is read from the landing the starter noted, even after the visitor moved on', () => {
    window.sessionStorage.setItem(
      LANDING_STORAGE_KEY,
      JSON.stringify({ href: 'https://scamsavvy.example/spring?utm_source=sms&utm_campaign=launch', referrer: '' }),
    );
    captureAttribution(); // jsdom's own address has no tags: the note wins
    expect(readAttribution()).toEqual({ utmSource: 'sms', utmCampaign: 'launch', landingPath: '/spring' });
  });

  it("falls back to the page's own address when there is no usable note", () => {
    window.sessionStorage.setItem(LANDING_STORAGE_KEY, '{"href": 42}');
    captureAttribution();
    expect(readAttribution()).toEqual({ landingPath: window.location.pathname });
  });

  it('uses the same storage name as the starter, which cannot import it', () => {
    expect(readFileSync('src/client/start.ts', 'utf8')).toContain(`'${LANDING_STORAGE_KEY}'`);
  });
});
