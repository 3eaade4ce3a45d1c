// Sends the page's events (names and non-personal parameters only) to our own server, without cookies.
import { EVENTS_ENDPOINT } from '../../shared/analytics-constants.js';
import type { AnalyticsEvent } from '../../shared/analytics-events.js';

/** Events wait this long for company, so a burst (a fast scroll) travels as one request. */
export const FLUSH_DELAY_MS = 2000;
/** The server takes at most 50 events a request. */
export const BATCH_LIMIT = 50;

export interface Transport {
  /** Returns false when the browser refused to queue the request. */
  send(url: string, body: string): boolean;
}

/** navigator.sendBeacon: survives the page closing; falls back to a keepalive fetch where it is missing. */
export const beaconTransport: Transport = {
  send(url, body) {
    const blob = new Blob([body], { type: 'application/json' });
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, blob)) return true;
    // credentials 'omit': no cookie travels with these requests, ours or anyone's.
    fetch(url, { method: 'POST', body: blob, keepalive: true, credentials: 'omit' }).catch(() => undefined);
    return true;
  },
};

export interface FirstPartyEvents {
  add(event: AnalyticsEvent): void;
  /** Sends what is waiting now (the page is being hidden or closed). */
  flush(): void;
  /** Flushes whenever the page is hidden: the last moment a phone reliably lets a page send anything. */
  flushWhenHidden(): void;
}

// A closure, not a class: the build's targets would turn class fields into helper code in the
// page's first script, which has almost no room left (docs/performance.md).
export function createFirstPartyEvents(
  transport: Transport = beaconTransport,
  delayMs = FLUSH_DELAY_MS,
): FirstPartyEvents {
  const pending: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    while (pending.length > 0) {
      const batch = pending.splice(0, BATCH_LIMIT);
      try {
        transport.send(EVENTS_ENDPOINT, JSON.stringify({ events: batch }));
      } catch {
        // Counting visits must never disturb the visit.
      }
    }
  };

  return {
    add(event) {
      pending.push(event);
      if (pending.length >= BATCH_LIMIT) flush();
      else timer ??= setTimeout(flush, delayMs);
    },
    flush,
    flushWhenHidden() {
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') flush();
      });
      window.addEventListener('pagehide', flush);
    },
  };
}
