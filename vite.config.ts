// Builds the browser app (and, with --ssr, the prerender module); also configures Vitest.
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import type { TestSequencerConstructor, TestSpecification } from 'vitest/node';

/**
 * The test files that take longest (`node scripts/slowest-tests.mjs`), started first where Vitest has
 * no timings of its own yet (a fresh clone: CI). Vitest then starts the largest files first, and a
 * long file started last ends the run alone (2026-11-29: restore-holds-every-path, a minute, began
 * at 472 s of 535).
 */
const SLOWEST_FILES = [
  'broadcast-processes.test',
  'broadcast-recovery.test',
  'backups.test',
  'link-page-routes.test',
  'broadcast-sender.test',
  'restore-holds-every-path.test',
  'owner-routes.test',
  'consent-repositories.contract.test',
  'restore-keeps-no.test',
  'backup-is-data.test',
];

/** Every test file. */
const TEST_FILES = ['src/**/*.test.{ts,tsx}'];
/** The test files that replace a module with `vi.mock`: each runs with modules of its own. */
const MOCKING_FILES = ['src/server/compose.test.ts', 'src/server/broadcast/broadcast-email.test.ts'];

/** Vitest's own order, with the slowest files moved to the front (only when running tests). */
async function slowestFirst(): Promise<TestSequencerConstructor> {
  const { BaseSequencer } = await import('vitest/node');
  const rank = (spec: TestSpecification) => {
    const at = SLOWEST_FILES.findIndex((name) => spec.moduleId.includes(`/${name}.`));
    return at === -1 ? SLOWEST_FILES.length : at;
  };
  return class SlowestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      return sorted
        .map((spec, index) => ({ spec, index }))
        .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
        .map(({ spec }) => spec);
    }
  };
}

export default defineConfig({
  plugins: [react()],
  build: {
    // Older phones too: iPhones that stop at iOS 14-15 and Android's Chrome from 2020 (docs/decisions/008).
    target: ['es2020', 'chrome87', 'edge88', 'firefox78', 'safari14'],
    outDir: 'dist/client',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // Every browser the page supports preloads modules itself; older Safari simply fetches them on import.
    modulePreload: { polyfill: false },
    // The prerender step reads which hashed files the page and its starter became.
    manifest: true,
    // The prerender bundle emits the files the static parts of the page name (the logo, the previews):
    // the browser's bundle no longer imports those parts (only the islands), so it would not.
    ssrEmitAssets: true,
    rolldownOptions: {
      // The page, the small starter that loads the page's script after the first paint, and the owner's
      // dashboard script (its own bundle: the public page never loads it).
      // The link pages' script is a build of its own (VITE_BUILD=link-page, scripts/build.mjs): built
      // beside the page's, it would share a chunk with it, one more request for the landing page.
      input:
        process.env.VITE_BUILD === 'link-page'
          ? { 'link-page': 'src/client/link-page.ts' }
          : { index: 'index.html', start: 'src/client/start.ts', owner: 'src/client/owner/live-progress.ts' },
      output: {
        codeSplitting: {
          groups: [
            // zod is needed only by the sign-up form (and the server): its own chunk, loaded with the dialog.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    // The API, and our store links (/app, /app/ios, /beta/android …), which the server answers.
    proxy: {
      '/api': 'http://localhost:3000',
      '^/(app|beta)(/(ios|android))?/?$': 'http://localhost:3000',
    },
  },
  test: {
    setupFiles: ['./vitest.setup.ts'],
    environment: 'node',
    // Limits catch hangs, not slowness: sized for 2 cores with another load beside them (docs/testing.md).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The suite waits more than it computes (databases, SMTP, timers: about 28% of two cores with two
    // workers), so at least four files run at once: 2 min 13 s instead of 4 min 57 s on 2 cores.
    maxWorkers: Math.max(4, availableParallelism()),
    ...(process.env.VITEST ? { sequence: { sequencer: await slowestFirst() } } : {}),
    // A worker keeps the modules it loaded for its next file: loading them anew for each file took a
    // fifth of the suite's time (decision 056). The files that replace a module (vi.mock) get a fresh
    // one each, as every file did before.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          isolate: false,
          include: TEST_FILES,
          exclude: [...configDefaults.exclude, ...MOCKING_FILES],
        },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING_FILES } },
    ],
  },
});
