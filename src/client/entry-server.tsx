// Build-time entry: renders each page to HTML so visitors see it before any script runs.
// Built once per mode and language (VITE_SITE_MODE, VITE_LANGUAGE, like the page's own bundle), so it
// renders that mode's page in that language.
import { StrictMode } from 'react';
import {
  LANGUAGE_HEAD_SCRIPT,
  LANGUAGE_HOMES,
  LANGUAGES,
  LANGUAGE_TAGS,
  OPEN_GRAPH_LOCALES,
} from '../shared/languages.js';
import { SHARED_PAGE_STYLES } from '../shared/page-styles.js';
import { TEXT_SIZE_HEAD_SCRIPT } from '../shared/text-size.js';
import { renderToString } from 'react-dom/server';
import { App } from './app';
import { notFoundTitle, productName, shareCard, site } from './content';
import { launchedSite } from './launch-content';
import { language } from './language';
import { launched } from './site-mode';

export {
  language,
  LANGUAGE_HEAD_SCRIPT,
  LANGUAGE_HOMES,
  LANGUAGES,
  LANGUAGE_TAGS,
  OPEN_GRAPH_LOCALES,
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
