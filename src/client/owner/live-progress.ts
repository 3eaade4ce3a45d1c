// The owner's own bundle (a separate Vite entry; the public page never loads it): keeps a
// broadcast's progress on the dashboard up to date without reloading. Every few seconds it asks the
// server for the figures, already written out, and puts each into the element that names it
// (data-live="email.sent"). A screen reader hears only a change of state, not every count.

/** What /owner/broadcasts/NAME/progress answers (src/server/broadcast/broadcast-progress.ts). */
interface Progress {
  state: string;
  stateLabel: string;
  percent: number;
  fields: Record<string, string>;
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

function start(): void {
  const section = document.querySelector<HTMLElement>('[data-progress-url]');
  const url = section?.dataset.progressUrl;
  if (!section || !url) return;
  const region = section.querySelector<HTMLElement>('[data-live-announce]');
  const announce = (text: string) => {
    if (region) region.textContent = text;
  };
  let stopped = false;
  const poll = async () => {
    if (stopped) return;
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
      // Signed out (or the session ran out): the page stops updating; a reload goes to the sign-in page.
      if (response.status === 401) {
        stopped = true;
        return;
      }
      if (response.ok) apply(section, (await response.json()) as Progress, announce);
    } catch {
      // The server is restarting or the network dropped: try again at the next tick.
    }
    if (!stopped) window.setTimeout(() => void poll(), POLL_MS);
  };
  window.setTimeout(() => void poll(), POLL_MS);
}

start();
