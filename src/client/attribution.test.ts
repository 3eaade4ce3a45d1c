// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { captureAttribution, forgetReferralInAddress, LANDING_STORAGE_KEY, readAttribution } from './attribution';

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

  it("keeps a family member's code from ?ref= when it has the codes' form, and drops anything else", () => {
    const land = (query: string) => {
      window.sessionStorage.clear();
      window.sessionStorage.setItem(
        LANDING_STORAGE_KEY,
        JSON.stringify({ href: `https://scamsavvy.example/${query}`, referrer: '' }),
      );
      captureAttribution();
      return readAttribution().referredBy;
    };
    expect(land('?ref=7kq2m9x4hz3p')).toBe('7kq2m9x4hz3p');
    expect(land('?ref=rosa@example.com')).toBeUndefined();
    expect(land('?ref=7KQ2M9X4HZ3P')).toBeUndefined();
    expect(land('?utm_source=sms')).toBeUndefined();
  });

  it('takes the code out of the address bar, keeping the rest of the address and the history entry', () => {
    window.history.replaceState(null, '', '/?utm_source=sms&ref=7kq2m9x4hz3p#top');
    const entries = window.history.length;
    forgetReferralInAddress();
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/?utm_source=sms#top');
    expect(window.history.length).toBe(entries);
    window.history.replaceState(null, '', '/');
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
