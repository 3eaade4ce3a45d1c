// Wires the Text size control (markup and styles: shared/text-size.tsx): a press sets the page's text to
// that size at once and remembers it on this device; another tab of the site follows.
import { isTextSize, TEXT_SIZE_STORAGE_KEY, type TextSize } from '../shared/text-size.js';
import { replayEarlyPressWithin } from './early-press';

function apply(control: Element, size: TextSize): void {
  document.documentElement.setAttribute('data-text-size', size);
  for (const choice of control.querySelectorAll<HTMLButtonElement>('[data-size]')) {
    choice.setAttribute('aria-pressed', String(choice.dataset.size === size));
  }
}

function current(): TextSize {
  const size = document.documentElement.getAttribute('data-text-size');
  return isTextSize(size) ? size : 'normal';
}

export function wireTextSize(): void {
  const control = document.querySelector('[data-text-size-control]');
  if (!control) return;
  apply(control, current());
  control.addEventListener('click', (event) => {
    const choice = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-size]') : null;
    const size = choice?.dataset.size;
    if (!isTextSize(size)) return;
    apply(control, size);
    try {
      if (size === 'normal') localStorage.removeItem(TEXT_SIZE_STORAGE_KEY);
      else localStorage.setItem(TEXT_SIZE_STORAGE_KEY, size);
    } catch {
      // storage blocked: the size holds for this page only
    }
  });
  window.addEventListener('storage', (event) => {
    if (event.key !== TEXT_SIZE_STORAGE_KEY) return;
    apply(control, isTextSize(event.newValue) ? event.newValue : 'normal');
  });
  replayEarlyPressWithin(control); // a press made before the page's script arrived
}
