import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventBatchSchema, type AnalyticsEvent } from '../../shared/analytics-events.js';
import { BATCH_LIMIT, createFirstPartyEvents, type Transport } from './first-party-events';

const view: AnalyticsEvent = { name: 'page_view', params: { page_name: 'home' } };

function recordingTransport() {
  const sent: { url: string; body: unknown }[] = [];
  const transport: Transport = {
    send(url, body) {
      sent.push({ url, body: JSON.parse(body) });
      return true;
    },
  };
  return { transport, sent };
}

describe('FirstPartyEvents', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends a burst of events as one batch the server accepts', () => {
    const { transport, sent } = recordingTransport();
    const events = createFirstPartyEvents(transport, 2000);
    events.add(view);
    events.add({ name: 'scroll_depth', params: { page_name: 'home', scroll_percentage: 25, section: 'hero' } });
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(2000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('/api/events');
    expect(eventBatchSchema.parse(sent[0]?.body).events.map((event) => event.name)).toEqual([
      'page_view',
      'scroll_depth',
    ]);
  });

  it('sends at once when the page is flushed (hidden or closing)', () => {
    const { transport, sent } = recordingTransport();
    const events = createFirstPartyEvents(transport, 2000);
    events.add(view);
    events.flush();
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(5000);
    expect(sent).toHaveLength(1);
  });

  it('never puts more than the server takes into one request', () => {
    const { transport, sent } = recordingTransport();
    const events = createFirstPartyEvents(transport, 2000);
    for (let index = 0; index < BATCH_LIMIT + 3; index++) events.add(view);
    events.flush();
    expect(sent.map((request) => (request.body as { events: unknown[] }).events.length)).toEqual([BATCH_LIMIT, 3]);
  });

  it('swallows a transport failure', () => {
    const events = createFirstPartyEvents(
      {
        send() {
          throw new Error('offline');
        },
      },
      2000,
    );
    events.add(view);
    expect(() => events.flush()).not.toThrow();
  });
});
