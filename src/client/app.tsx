// The page for a path, by the spec's routing rule: rendered to HTML at build time (and whole by
// `npm run dev`). In the built page only its islands are hydrated (decisions/038).
import { resolveRoute } from '../shared/routes.js';
import { LandingPage } from './pages/landing-page';
import { NotFoundPage } from './pages/not-found-page';

export function App({ path }: { path: string }) {
  return resolveRoute(path).kind === 'not-found' ? <NotFoundPage /> : <LandingPage />;
}
