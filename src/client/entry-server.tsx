// Build-time entry: renders each page to HTML so visitors see it before any script runs.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app';
import { ServerPathContext } from './router';
import { notFoundTitle, productName, shareCard, site } from './content';

export { notFoundTitle, productName, shareCard, site };

export function renderPage(path: string): string {
  return renderToString(
    <StrictMode>
      <ServerPathContext value={path}>
        <App />
      </ServerPathContext>
    </StrictMode>,
  );
}
