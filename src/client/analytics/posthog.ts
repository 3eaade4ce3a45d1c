// PostHog product analytics and session recording, loaded from the PostHog host with its official snippet.
import { posthogAssetsOrigin } from '../../shared/public-config.js';
import type { AnalyticsProvider } from './analytics-provider';
import { removeProviderStorage } from './analytics-provider';
import { loadScript } from './load-script';
import { normaliseEmail, personProperties } from './person';

interface PostHog {
  capture(event: string, properties?: Record<string, unknown>): void;
  identify(distinctId: string, properties?: Record<string, unknown>): void;
  opt_out_capturing(): void;
  opt_in_capturing(): void;
  reset(): void;
}

type PostHogStub = unknown[] & Partial<PostHog> & { _i?: unknown[]; __SV?: number };

declare global {
  interface Window {
    posthog?: PostHogStub;
  }
}

/** The calls we make before array.js arrives; the stub queues them and PostHog replays them. */
const STUB_METHODS = ['capture', 'identify', 'opt_out_capturing', 'opt_in_capturing', 'reset', 'register'] as const;

/**
 * PostHog's official snippet, unminified: a stand-in array that records calls, and the init
 * settings that array.js picks up from `_i` when it has loaded.
 */
function installStub(key: string, config: Record<string, unknown>): void {
  const stub: PostHogStub = window.posthog ?? [];
  if (stub.__SV) return;
  window.posthog = stub;
  stub._i = [];
  for (const method of STUB_METHODS) {
    (stub as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => stub.push([method, ...args]);
  }
  stub._i.push([key, config, undefined]);
  stub.__SV = 1;
}

/** The live PostHog once array.js has run, the stub before. */
function client(): Partial<PostHog> {
  return window.posthog ?? {};
}

export function posthogProvider(key: string, host: string): AnalyticsProvider {
  let loading: Promise<void> | undefined;
  return {
    name: 'PostHog',
    load() {
      if (loading) {
        client().opt_in_capturing?.();
        return loading;
      }
      installStub(key, {
        api_host: host,
        person_profiles: 'identified_only',
        // Our own events only: no automatic page views, clicks or surveys.
        capture_pageview: false,
        capture_pageleave: false,
        autocapture: false,
        disable_surveys: true,
        // Recordings never show what anyone typed.
        session_recording: { maskAllInputs: true },
        persistence: 'localStorage+cookie',
      });
      loading = loadScript(`${posthogAssetsOrigin(host)}/static/array.js`);
      return loading;
    },
    page(view) {
      client().capture?.('page_view', { ...view });
    },
    track(event) {
      client().capture?.(event.name, { ...event.params });
    },
    identify(person) {
      client().identify?.(normaliseEmail(person.email), personProperties(person));
    },
    disable() {
      client().opt_out_capturing?.();
      client().reset?.();
      removeProviderStorage(['ph_'], ['ph_', '__ph']);
    },
  };
}
