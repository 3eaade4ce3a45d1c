// Wires the share panel (markup: shared/share-panel.tsx): "Tell a family member" opens the phone's own
// share sheet where there is one, or else the panel; "Copy the link" copies it and says so. Nothing is
// sent by our server to anyone: each way opens the person's own phone or computer.
import type { ShareMethod } from '../shared/analytics-constants.js';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission or API (an older phone, a page not served over HTTPS): the old way.
    const field = document.createElement('textarea');
    field.value = text;
    field.setAttribute('readonly', '');
    field.style.position = 'fixed';
    field.style.opacity = '0';
    document.body.append(field);
    field.select();
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    field.remove();
    return copied;
  }
}

/** `onShare`: told each time the person passes the link on, and how (for the `share` event). */
export function wireShare(root: Element, onShare: (method: ShareMethod) => void): void {
  const url = root.getAttribute('data-share') ?? '';
  // Its words, in the page's language, as the panel's markup carries them (shared/share-panel.tsx).
  const said = (name: string) => root.getAttribute(`data-share-${name}`) ?? '';
  const open = root.querySelector<HTMLButtonElement>('[data-share-open]');
  const panel = root.querySelector<HTMLElement>('[data-share-panel]');
  const copyItem = root.querySelector<HTMLElement>('[data-share-copy-item]');
  const status = root.querySelector<HTMLElement>('[data-share-status]');
  if (!open || !panel || !status || root.hasAttribute('data-share-wired')) return;
  root.setAttribute('data-share-wired', '');
  // With script: the button shows, the panel waits behind it, and Copy can work.
  open.hidden = false;
  panel.hidden = true;
  if (copyItem) copyItem.hidden = false;

  const showPanel = (shown: boolean) => {
    panel.hidden = !shown;
    open.setAttribute('aria-expanded', String(shown));
  };
  open.addEventListener('click', () => {
    if (typeof navigator.share !== 'function') return showPanel(panel.hidden);
    navigator.share({ title: said('title'), text: said('text'), url }).then(
      () => onShare('native'),
      (error: unknown) => {
        // Closing the share sheet is a choice, not a failure; anything else falls back to the panel.
        if ((error as { name?: string }).name !== 'AbortError') showPanel(true);
      },
    );
  });
  panel.addEventListener('click', (event) => {
    const way = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-share-method]') : null;
    const method = way?.dataset.shareMethod;
    if (method === 'sms' || method === 'email') return onShare(method);
    if (method !== 'copy') return;
    status.textContent = '';
    void copyText(url).then((copied) => {
      status.textContent = copied ? said('copied') : said('copy-failed');
      if (copied) onShare('copy');
    });
  });
}
