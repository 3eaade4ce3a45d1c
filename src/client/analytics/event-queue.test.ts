import { describe, expect, it, vi } from 'vitest';
import type { AnalyticsProvider, PageView, TrackedEvent } from './analytics-provider';
import { AnalyticsQueue, QUEUE_LIMIT, type AnalyticsCall } from './event-queue';

const view = (name: string): PageView => ({
  page_name: name,
  page_language: 'en',
  page_title: 'T',
  page_location: `https://x/${name}`,
});
const start: TrackedEvent = { name: 'sign_up_start', params: { page_name: 'home', method: 'modal' } };

/** A provider that writes down every call it receives, in order. */
function recordingProvider(name: string, load: () => Promise<void> = () => Promise.resolve()) {
  const calls: string[] = [];
  const provider: AnalyticsProvider = {
    name,
    load,
    page: (v) => calls.push(`page:${v.page_name}`),
    track: (event) => calls.push(`track:${event.name}`),
    identify: (person) => calls.push(`identify:${person.email}`),
  };
  return { provider, calls };
}

function quietLogger() {
  return { warn: vi.fn() };
}

describe('AnalyticsQueue', () => {
  it('holds calls until started, then replays them once, in order', async () => {
    const queue = new AnalyticsQueue(quietLogger());
    const { provider, calls } = recordingProvider('A');
    queue.push({ kind: 'page', view: view('home') });
    queue.push({ kind: 'track', event: start });
    queue.push({ kind: 'identify', person: { name: 'Ann Lee', email: 'a@b.co', phone: '5550102233' } });
    expect(calls).toEqual([]);

    await queue.start([provider]);
    expect(calls).toEqual(['page:home', 'track:sign_up_start', 'identify:a@b.co']);

    queue.push({ kind: 'page', view: view('faq') });
    expect(calls).toEqual(['page:home', 'track:sign_up_start', 'identify:a@b.co', 'page:faq']);
  });

  it('waits for the scripts to load before replaying', async () => {
    let finishLoading = () => {};
    const { provider, calls } = recordingProvider('A', () => new Promise<void>((resolve) => (finishLoading = resolve)));
    const queue = new AnalyticsQueue(quietLogger());
    queue.push({ kind: 'page', view: view('home') });
    const started = queue.start([provider]);
    queue.push({ kind: 'track', event: start });
    expect(calls).toEqual([]);
    finishLoading();
    await started;
    expect(calls).toEqual(['page:home', 'track:sign_up_start']);
  });

  it('drops the queue for good when analytics is unsupported, warning once', async () => {
    const logger = quietLogger();
    const queue = new AnalyticsQueue(logger);
    const { provider, calls } = recordingProvider('A');
    queue.push({ kind: 'page', view: view('home') });
    queue.turnOff('no analytics provider is configured');
    queue.turnOff('no analytics provider is configured');
    queue.push({ kind: 'track', event: start });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(/Analytics is off: no analytics provider is configured/);

    // Consent given later starts afresh: what was dropped is never replayed.
    await queue.start([provider]);
    expect(calls).toEqual([]);
    queue.push({ kind: 'page', view: view('later') });
    expect(calls).toEqual(['page:later']);
  });

  it('keeps a provider that throws from stopping the others', async () => {
    const logger = quietLogger();
    const queue = new AnalyticsQueue(logger);
    const broken: AnalyticsProvider = {
      name: 'Broken',
      load: () => Promise.resolve(),
      page: () => {
        throw new Error('boom');
      },
      track: () => {
        throw new Error('boom');
      },
    };
    const { provider, calls } = recordingProvider('Good');
    queue.push({ kind: 'page', view: view('home') });
    await queue.start([broken, provider]);
    queue.push({ kind: 'track', event: start });
    expect(calls).toEqual(['page:home', 'track:sign_up_start']);
    expect(logger.warn).toHaveBeenCalledWith('Analytics: Broken failed on a page call.', expect.any(Error));
  });

  it('leaves out a provider whose script fails to load, and serves the rest', async () => {
    const logger = quietLogger();
    const queue = new AnalyticsQueue(logger);
    const failing = recordingProvider('Blocked', () => Promise.reject(new Error('could not load')));
    const working = recordingProvider('Working');
    queue.push({ kind: 'page', view: view('home') });
    await queue.start([failing.provider, working.provider]);
    queue.push({ kind: 'track', event: start });
    expect(failing.calls).toEqual([]);
    expect(working.calls).toEqual(['page:home', 'track:sign_up_start']);
    expect(logger.warn).toHaveBeenCalledWith(
      'Analytics: Blocked could not load, so it gets no events.',
      expect.any(Error),
    );
  });

  it('gives up on a script that never answers', async () => {
    vi.useFakeTimers();
    try {
      const logger = quietLogger();
      const queue = new AnalyticsQueue(logger, 1000);
      const hanging = recordingProvider('Hanging', () => new Promise<void>(() => {}));
      queue.push({ kind: 'page', view: view('home') });
      const started = queue.start([hanging.provider]);
      await vi.advanceTimersByTimeAsync(1000);
      await started;
      expect(queue.status).toBe('off');
      expect(hanging.calls).toEqual([]);
      expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/no analytics provider could load/));
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores a start that finishes after the visitor said no', async () => {
    let finishLoading = () => {};
    const { provider, calls } = recordingProvider('A', () => new Promise<void>((resolve) => (finishLoading = resolve)));
    const queue = new AnalyticsQueue(quietLogger());
    queue.push({ kind: 'page', view: view('home') });
    const started = queue.start([provider]);
    queue.turnOff('the visitor rejected cookies');
    finishLoading();
    await started;
    queue.push({ kind: 'track', event: start });
    expect(queue.status).toBe('off');
    expect(calls).toEqual([]);
  });

  it('holds at most QUEUE_LIMIT calls while waiting, keeping the first', async () => {
    const queue = new AnalyticsQueue(quietLogger());
    const { provider, calls } = recordingProvider('A');
    for (let index = 0; index < QUEUE_LIMIT + 10; index++) {
      queue.push({ kind: 'page', view: view(`p${index}`) } satisfies AnalyticsCall);
    }
    await queue.start([provider]);
    expect(calls).toHaveLength(QUEUE_LIMIT);
    expect(calls[0]).toBe('page:p0');
  });
});
