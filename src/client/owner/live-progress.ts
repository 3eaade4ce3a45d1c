// The owner's own bundle (a separate Vite entry; the public page never loads it): keeps a
// broadcast's progress on the dashboard up to date without reloading. Every few seconds it asks the
// server for the figures, already written out, and puts each into the element that names it
// (data-live="email.sent"). A screen reader hears only a change of state, not every count, and a
// channel pausing: its notice (data-pause-channel, in a polite live region) is shown, filled and
// hidden here, with words the server already put in the page.

/** What /owner/broadcasts/NAME/progress answers (src/server/broadcast/broadcast-progress.ts). */
interface Progress {
  state: string;
  stateLabel: string;
  percent: number;
  fields: Record<string, string>;
  /** Channels a failure of ours paused: why, the provider's answer, since when (ISO, UTC). */
  pauses?: { channel: string; reason: string; answer: string | null; pausedAt: string }[];
}

const POLL_MS = 2_000;

function apply(section: HTMLElement, progress: Progress, announce: (text: string) => void): void {
  for (const element of section.querySelectorAll<HTMLElement>('[data-live]')) {
    const key = element.dataset.live ?? '';
    const value = key === 'state' ? progress.stateLabel : progress.fields[key];
    if (value !== undefined && element.textContent !== value) element.textContent = value;
  }
  const bar = section.querySelector<HTMLProgressElement>('[data-live-percent]');
  if (bar) bar.value = progress.percent;
  const state = section.querySelector<HTMLElement>('[data-state]');
  if (state && state.dataset.state !== progress.state) {
    state.dataset.state = progress.state;
    announce(`${progress.stateLabel}. ${progress.fields.done ?? ''}`);
  }
}

/** "2026-11-23 14:05", as the server writes a time on the owner's pages (shortTime). */
const shortTime = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** Sets an element's text only when it changed, so a live region does not read it out again. */
function setText(element: Element | null, text: string): void {
  if (element && element.textContent !== text) element.textContent = text;
}

function setHidden(element: HTMLElement | null, hidden: boolean): void {
  if (element && element.hidden !== hidden) element.hidden = hidden;
}

function applyPauses(region: HTMLElement, pauses: NonNullable<Progress['pauses']>): void {
  for (const notice of region.querySelectorAll<HTMLElement>('[data-pause-channel]')) {
    const pause = pauses.find((each) => each.channel === notice.dataset.pauseChannel);
    if (pause) {
      const since = notice.querySelector<HTMLTimeElement>('[data-pause-field="since"]');
      if (since && since.dateTime !== pause.pausedAt) since.dateTime = pause.pausedAt;
      setText(since, shortTime(pause.pausedAt));
      setText(notice.querySelector('[data-pause-field="reason"]'), pause.reason);
      setText(notice.querySelector('[data-pause-field="answer"]'), pause.answer ?? '');
      setHidden(notice.querySelector<HTMLElement>('[data-pause-answer]'), !pause.answer);
    }
    setHidden(notice, !pause);
  }
  setHidden(region.querySelector<HTMLElement>('[data-pause-next]'), pauses.length === 0);
}

function start(): void {
  const section = document.querySelector<HTMLElement>('[data-progress-url]');
  const url = section?.dataset.progressUrl;
  if (!section || !url) return;
  const region = section.querySelector<HTMLElement>('[data-live-announce]');
  const announce = (text: string) => {
    if (region) region.textContent = text;
  };
  const pauses = document.querySelector<HTMLElement>('[data-pauses]');
  let stopped = false;
  const poll = async () => {
    if (stopped) return;
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
      // Signed out, or idle too long (this poll never counts as activity): off to the sign-in page,
      // which says why.
      if (response.status === 401) {
        stopped = true;
        const body = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
        window.location.assign(body.error?.code === 'idle' ? '/owner/sign-in?idle=1' : '/owner/sign-in');
        return;
      }
      if (response.ok) {
        const progress = (await response.json()) as Progress;
        apply(section, progress, announce);
        if (pauses && progress.pauses) applyPauses(pauses, progress.pauses);
      }
    } catch {
      // The server is restarting or the network dropped: try again at the next tick.
    }
    if (!stopped) window.setTimeout(() => void poll(), POLL_MS);
  };
  window.setTimeout(() => void poll(), POLL_MS);
}

start();

// A module (Vite builds it as one; its test imports it): it exports nothing.
export {};
