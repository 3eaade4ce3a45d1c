// Build-time entry: renders each page to HTML so visitors see it before any script runs.
// Built once per mode (VITE_SITE_MODE, like the page's own bundle), so it renders that mode's page.
import { StrictMode } from 'react';
import { SHARED_PAGE_STYLES } from '../shared/page-styles.js';
import { TEXT_SIZE_HEAD_SCRIPT } from '../shared/text-size.js';
import { renderToString } from 'react-dom/server';
import { App } from './app';
import { notFoundTitle, productName, shareCard, site } from './content';
import { launchedSite } from './launch-content';
import { launched } from './site-mode';

export {
  launched,
  launchedSite,
  notFoundTitle,
  productName,
  shareCard,
  site,
  TEXT_SIZE_HEAD_SCRIPT,
  SHARED_PAGE_STYLES,
};

export function renderPage(path: string): string {
  return renderToString(
    <StrictMode>
      <App path={path} />
    </StrictMode>,
  );
}
