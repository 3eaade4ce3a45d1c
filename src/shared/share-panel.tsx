// "Know someone who should hear about this?": the markup of the share panel, the same after joining
// (the sign-up dialog's success view) and on the preferences page. The page's script wires it
// (client/share.ts): the button opens the phone's share sheet, or else the panel. Without script (the
// preferences page) the panel simply shows, with the link written out and its two links working.
import { createElement } from 'react';
import { shareLinks, type ShareWords } from './share-content.js';

/** The panel's look, for the landing page's dialog and the server's pages alike (sizes in rem: they grow with the text). */
export const SHARE_STYLES = `
.share{margin:1.5rem 0;padding-top:1.25rem;border-top:0.125rem solid var(--sand,#f3ebdd);text-align:left}
.share__prompt{font-size:1.375rem;line-height:1.3;margin:0 0 0.75rem;overflow-wrap:anywhere}
.share__button{width:100%}
.share__panel{margin-top:1rem}
.share__link{margin:0 0 0.75rem}
.share__url{font-weight:700;overflow-wrap:anywhere}
.share__ways{list-style:none;margin:0;padding:0;display:grid;gap:0.75rem}
.share__way{width:100%;min-height:2.75rem}
.share__status{min-height:1.6em;margin:0.75rem 0 0;font-weight:700;color:var(--success,#1e6b3a)}
`;

export interface SharePanelProps {
  /** The link to pass on (shareUrl: the site with the person's code). */
  url: string;
  /** The heading's level where the panel sits (3 inside the dialog, 2 on a page). */
  headingLevel: 2 | 3;
  /** Rendered by script (the dialog): the button shows and the panel waits behind it from the start. */
  scripted: boolean;
  /** The words, in the page's language (shareWordsIn). */
  words: ShareWords;
}

export function SharePanel({ url, headingLevel, scripted, words }: SharePanelProps) {
  const links = shareLinks(url, words);
  // The script's words (the share sheet's, and what Copy says) ride on the panel, in its language.
  return (
    <section
      className="share"
      aria-labelledby="share-heading"
      data-share={url}
      data-share-title={words.title}
      data-share-text={words.text}
      data-share-copied={words.copied}
      data-share-copy-failed={words.copyFailed}
    >
      {createElement(`h${headingLevel}`, { id: 'share-heading', className: 'share__prompt' }, words.prompt)}
      <button
        type="button"
        className="button button--primary share__button"
        aria-expanded="false"
        aria-controls="share-panel"
        hidden={!scripted}
        data-share-open=""
      >
        {words.button}
      </button>
      <div id="share-panel" className="share__panel" hidden={scripted} data-share-panel="">
        <p className="share__link">
          {words.yourLink} <span className="share__url">{url}</span>
        </p>
        <ul className="share__ways" aria-label={words.panelLabel}>
          <li>
            <a className="button button--secondary share__way" href={links.sms} data-share-method="sms">
              {words.sms}
            </a>
          </li>
          <li>
            <a className="button button--secondary share__way" href={links.email} data-share-method="email">
              {words.email}
            </a>
          </li>
          <li hidden={!scripted} data-share-copy-item="">
            <button type="button" className="button button--secondary share__way" data-share-method="copy">
              {words.copy}
            </button>
          </li>
        </ul>
        <p className="share__status" role="status" data-share-status="" />
      </div>
    </section>
  );
}
