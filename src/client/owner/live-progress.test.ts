// @vitest-environment jsdom
// The owner's script against the markup the broadcast's page carries (its data-live and data-pause-*
// attributes, as src/server/owner/channel-pauses.tsx writes them): a channel pausing shows its
// notice with the reason and the provider's answer, without a reload; lifting it hides the notice.
import { afterEach, expect, it, vi } from 'vitest';

const PAGE = `
  <div class="pauses" aria-live="polite" data-pauses="">
    <div data-pause-channel="email" hidden="">
      <h2>Email paused since <time data-pause-field="since"></time> UTC</h2>
      <p data-pause-field="reason"></p>
      <p data-pause-answer="" hidden="">The provider’s answer: <q data-pause-field="answer"></q></p>
    </div>
    <div data-pause-channel="sms" hidden="">
      <h2>Text messages paused since <time data-pause-field="since"></time> UTC</h2>
      <p data-pause-field="reason"></p>
      <p data-pause-answer="" hidden="">The provider’s answer: <q data-pause-field="answer"></q></p>
    </div>
    <div data-pause-next="" hidden=""><a href="/owner/broadcasts/launch/resume">Resume sending…</a></div>
  </div>
  <section data-progress-url="/owner/broadcasts/launch/progress">
    <span data-live="state" data-state="sending">Sending</span>
    <p data-live="done">0 of 3</p>
    <p role="status" data-live-announce=""></p>
  </section>`;

const progress = (pauses: unknown[]) => ({
  name: 'launch',
  state: 'sending',
  stateLabel: 'Sending',
  percent: 33,
  fields: { done: '1 of 3' },
  pauses,
});

const element = (selector: string) => document.querySelector<HTMLElement>(selector);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

it('shows a paused channel’s notice as the progress reports it, and hides it once lifted', async () => {
  vi.useFakeTimers();
  document.body.innerHTML = PAGE;
  const answers = [
    progress([
      {
        channel: 'email',
        reason: 'The mail server refused our sign-in.',
        answer: '535 5.7.8 Authentication failed',
        pausedAt: '2026-11-24T09:03:00.000Z',
      },
    ]),
    progress([]),
  ];
  const fetch = vi.fn(async () => new Response(JSON.stringify(answers.shift()), { status: 200 }));
  vi.stubGlobal('fetch', fetch);
  vi.resetModules();
  await import('./live-progress');

  await vi.advanceTimersByTimeAsync(2_000);
  expect(fetch).toHaveBeenCalledWith('/owner/broadcasts/launch/progress', expect.anything());
  const email = element('[data-pause-channel="email"]');
  expect(email?.hidden).toBe(false);
  expect(email?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
    'Email paused since 2026-11-24 09:03 UTC The mail server refused our sign-in. The provider’s answer: 535 5.7.8 Authentication failed',
  );
  expect(element('[data-pause-channel="email"] [data-pause-answer]')?.hidden).toBe(false);
  expect(element('[data-pause-channel="email"] time')?.getAttribute('datetime')).toBe('2026-11-24T09:03:00.000Z');
  expect(element('[data-pause-channel="sms"]')?.hidden).toBe(true);
  expect(element('[data-pause-next]')?.hidden).toBe(false);
  expect(element('[data-live="done"]')?.textContent).toBe('1 of 3');

  await vi.advanceTimersByTimeAsync(2_000);
  expect(element('[data-pause-channel="email"]')?.hidden).toBe(true);
  expect(element('[data-pause-next]')?.hidden).toBe(true);
});
