// @vitest-environment jsdom
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shareWordsIn } from '../shared/share-content';

const shareWords = shareWordsIn.en;
import { SharePanel } from '../shared/share-panel';
import { wireShare } from './share';

const url = 'https://scamsavvy.example/?ref=7kq2m9x4hz3p';

/** The panel as the preferences page sends it (no script yet), wired, and what it reported. */
function panel() {
  document.body.innerHTML = renderToStaticMarkup(
    createElement(SharePanel, { url, headingLevel: 2, scripted: false, words: shareWords }),
  );
  const root = document.querySelector('[data-share]') as HTMLElement;
  const shared: string[] = [];
  wireShare(root, (method) => shared.push(method));
  const button = (name: string) =>
    Array.from(root.querySelectorAll('button')).find((element) => element.textContent === name) as HTMLButtonElement;
  return {
    root,
    shared,
    open: button(shareWords.button),
    copy: button(shareWords.copy),
    panel: root.querySelector('[data-share-panel]') as HTMLElement,
    status: root.querySelector('[role="status"]') as HTMLElement,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: undefined });
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('the share panel with script', () => {
  it('shows the button, hides the panel and shows Copy; wiring twice does not double the reports', async () => {
    const view = panel();
    wireShare(view.root, () => view.shared.push('again'));
    expect(view.open.hidden).toBe(false);
    expect(view.panel.hidden).toBe(true);
    expect(view.copy.closest('li')?.hidden).toBe(false);
    view.open.click();
    expect(view.panel.hidden).toBe(false);
    expect(view.open.getAttribute('aria-expanded')).toBe('true');
    (view.root.querySelector('[data-share-method="sms"]') as HTMLElement).dispatchEvent(
      new MouseEvent('click', { bubbles: true, cancelable: true }),
    );
    await settle();
    expect(view.shared).toEqual(['sms']);
  });

  it('copies with the Clipboard API and says "Copied"', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    const view = panel();
    view.open.click();
    view.copy.click();
    await settle();
    expect(writeText).toHaveBeenCalledWith(url);
    expect(view.status.textContent).toBe(shareWords.copied);
    expect(view.shared).toEqual(['copy']);
  });

  it('without any way to copy, says how to copy it by hand, and reports nothing', async () => {
    document.execCommand = () => false;
    const view = panel();
    view.copy.click();
    await settle();
    expect(view.status.textContent).toBe(shareWords.copyFailed);
    expect(view.shared).toEqual([]);
  });

  it("opens the phone's share sheet where there is one; closing it opens nothing, another failure opens the panel", async () => {
    const share = vi.fn((_data: ShareData): Promise<void> =>
      Promise.reject(Object.assign(new Error('closed'), { name: 'AbortError' })),
    );
    vi.stubGlobal('navigator', { ...navigator, share, clipboard: undefined });
    const view = panel();
    view.open.click();
    await settle();
    expect(share).toHaveBeenCalledWith({ title: shareWords.title, text: shareWords.text, url });
    expect(view.panel.hidden).toBe(true);
    expect(view.shared).toEqual([]);
    share.mockImplementationOnce(() => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' })));
    view.open.click();
    await settle();
    expect(view.panel.hidden).toBe(false);
    share.mockImplementationOnce(() => Promise.resolve());
    view.open.click();
    await settle();
    expect(view.shared).toEqual(['native']);
  });
});
