// Lint rules, including the ones that keep the code's shape: three roots, server layers, no import circles (see docs/architecture.md).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const testFiles = ['**/*.test.ts', '**/*.test.tsx'];
// Every module of the tests: the tests themselves, their helpers, their fixtures and the browser journeys.
const clockedFiles = [
  ...testFiles.map((pattern) => `src/${pattern}`),
  'src/server/test/**',
  'src/server/db/test-fixtures/**',
  'e2e/**/*.ts',
];

// The server's features, lowest first: a feature may import a lower one, never a higher one.
// site/ (page serving, app links, health) is a leaf beside them that no feature imports.
const features = [
  'backups',
  'signups',
  'consent',
  'bounces',
  'suppressions',
  'ready',
  'broadcast',
  'webhooks',
  'api',
  'owner',
];
// messaging/ sits beneath every feature and above db/: what every message needs (transports, the
// provider-answer rules, tokens, the message log). It imports db/ and nothing above.
const messaging = 'messaging';
// jobs/ sits beside it: the one runner of the recurring work and the list of it (features declare
// nothing themselves; the app says what each job runs). It imports db/ and nothing above.
const jobs = 'jobs';

// Folders are paths (not globs) so that a zone also covers the folder's own files.
const serverPath = (name) => `src/server/${name}`;
const layerZones = [
  {
    target: serverPath('db'),
    from: [messaging, jobs, ...features, 'site'].map(serverPath).concat(serverPath('app.ts'), serverPath('index.ts')),
    message: 'db/ is the lowest layer: it imports no feature, not messaging/ and not the app that composes them.',
  },
  {
    target: serverPath(messaging),
    from: [...features, 'site'].map(serverPath),
    message:
      'messaging/ lies beneath every feature: it imports db/ and the top-level modules, never a feature or site/.',
  },
  {
    target: serverPath(jobs),
    from: [messaging, ...features, 'site'].map(serverPath),
    message:
      'jobs/ lies beneath every feature: it imports db/ and the top-level modules, never a feature, site/ or messaging/.',
  },
  ...features.map((feature, index) => ({
    target: serverPath(feature),
    from: [...features.slice(index + 1), 'site'].map(serverPath),
    message: `Features are layered ${features.join(' < ')} (site/ is a leaf): ${feature}/ never imports a higher one.`,
  })),
  {
    target: 'src/**/*-routes.ts',
    from: 'src/**/*-routes.ts',
    message: 'A route file never imports another route file: app.ts registers them all.',
  },
];

// The composition root: compose.ts builds the product (with compose-messaging.ts: the outbox's
// senders, the gate and the queue jobs; compose-reports.ts: what comes back after a send), app.ts
// and index.ts serve it, and the sending thread (sending-thread.ts, its worker) runs the server's own
// messages from the same parts.
const roots = 'app|index|compose|compose-messaging|compose-reports|sending-thread|sending-thread-worker';
const rootFiles = [
  'app.ts',
  'index.ts',
  'compose.ts',
  'compose-messaging.ts',
  'compose-reports.ts',
  'sending-thread.ts',
  'sending-thread-worker.ts',
];

// Only for code that is built and shipped (tests may build the whole app and use test helpers).
const shippedZones = [
  {
    target: `src/server/!(${roots}).ts`,
    from: [...features, 'site', messaging, jobs, 'db'].map(serverPath),
    message:
      "The server's top-level modules (config, errors, logger …) sit below db/ and every feature: they import neither.",
  },
  {
    target: [...features, 'site', messaging, jobs, 'db'].map(serverPath).concat(`src/server/!(${roots}).ts`),
    from: rootFiles.map(serverPath),
    message:
      'compose.ts builds the product, app.ts and index.ts serve it, the sending thread sends from it; the layers below them never import them.',
  },
  {
    // The broadcast feature's tables: the features below it, messaging/ and jobs/ reach them only
    // through what broadcast/ offers (they declare the interface; compose.ts and app.ts wire it).
    target: [...features.slice(0, features.indexOf('broadcast')), messaging, jobs].map(serverPath),
    from: [
      'broadcasts-repository.ts',
      'outbox-repository.ts',
      'outbox-reads.ts',
      'broadcast-pauses-repository.ts',
      'broadcast-senders-repository.ts',
    ].map((file) => serverPath(`db/${file}`)),
    message:
      "The broadcasts, their outbox, pauses and senders are broadcast/'s tables: a feature below it declares what it needs, and compose.ts hands it over.",
  },
  {
    target: ['src/server/!(test)/**', 'src/server/*', 'src/shared/**', 'src/cli/**'],
    from: serverPath('test'),
    message: 'Test helpers are not built into dist/: only tests import src/server/test/.',
  },
];

// Storage drivers and raw queries live in db/ only; elsewhere code uses the Db handle and its repositories.
const storageImports = [
  { name: 'better-sqlite3', message: 'Only src/server/db/ talks to the database driver.' },
  { name: 'pg', message: 'Only src/server/db/ talks to the database driver.' },
  {
    name: 'kysely',
    allowTypeImports: true,
    message:
      'Only src/server/db/ builds queries and picks dialects (SqliteDialect, PostgresDialect); elsewhere use the repositories.',
  },
];
const pageFiles = [
  'src/server/**/*-page.tsx',
  'src/server/**/*-pages.tsx',
  'src/server/**/*-layout.tsx',
  'src/server/**/signups-chart.tsx',
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'src/test-fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Resolves './x.js' to x.ts or x.tsx as TypeScript does.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The three roots and one direction (../shared/STYLE.md): shared imports from neither side,
  // the browser app never imports server code, and the server never imports browser code.
  restrictImports('src/shared/**', ['client', 'server', 'cli'], 'shared/ imports from neither side.'),
  restrictImports('src/client/**', ['server', 'cli'], 'The browser app never imports server or CLI code.'),
  restrictImports('src/server/**', ['client', 'cli'], 'The server never imports browser or CLI code.'),
  restrictImports('src/cli/**', ['client'], 'Owner commands use the server side, not the browser app.'),
  // No import circles. Tests are left out: nothing imports a test, so none can close a circle.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: testFiles,
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The server's layers: one rule setting per file set, because a later setting of a rule replaces an earlier one.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: testFiles,
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...layerZones, ...shippedZones] }] },
  },
  // Tests keep the features' layers; a db/ contract test may use a feature's helper to make its input.
  {
    files: testFiles.map((pattern) => `src/${pattern}`),
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: layerZones.filter((zone) => zone.target !== serverPath('db')) },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/db/**', 'src/server/test/**', ...testFiles],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: storageImports }] },
  },
  {
    files: pageFiles,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: storageImports,
          patterns: [
            {
              group: ['**/db/**'],
              allowTypeImports: true,
              message: 'Pages render what they are given: they import only types from db/.',
            },
          ],
        },
      ],
    },
  },
  // Tests take their "now" from the tests' clock, never from the machine's: a test that reads the
  // real clock passes or fails by the hour it runs at (docs/testing.md, "Time"; npm run test:clock).
  {
    files: clockedFiles,
    ignores: ['src/server/test/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Date.now()', 'new Date()'].map((call) => ({
          selector:
            call === 'Date.now()'
              ? "CallExpression[callee.object.name='Date'][callee.property.name='now']"
              : "NewExpression[callee.name='Date'][arguments.length=0]",
          message: `${call} reads the machine's clock: a test takes its clock from src/server/test/clock.ts (testClock, DAYTIME, or machineClock where nothing can be handed a clock).`,
        })),
      ],
    },
  },
  // The suppression list only grows (issue 54): a "no" is lifted by a 'lifted' row that names it
  // (db/suppressions-repository.ts), never deleted or rewritten, by any code that ships.
  {
    files: ['src/**/*.{ts,tsx}'],
    // The tests' modules have their own restricted syntax (the clock, above); they ship nothing.
    ignores: clockedFiles,
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['deleteFrom', 'updateTable'].map((method) => ({
          selector: `CallExpression[callee.property.name='${method}'][arguments.0.value=/^suppressions( |$)/]`,
          message: `The suppression list only grows: a "no" is lifted by appending a 'lifted' row (liftSuppressions, liftOwnPhoneMarks, liftRowsById in db/suppressions-repository.ts), never by ${method}.`,
        })),
      ],
    },
  },
  // Past 400 lines a file is split at its seam (docs/decisions/049-one-gate-first-steps.md). Named
  // exceptions: files generated from data, and rule tables, whose length is their rows. Tests hold many
  // cases of one behaviour over one world: 700.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: [
      // Generated by scripts/phone-zones.mjs from libphonenumber's data.
      'src/server/messaging/phone-zones-data.ts',
      // A rule table: SMTP_RULES, one row per kind of answer (docs/messaging.md).
      'src/server/messaging/smtp-answers.ts',
      ...testFiles,
      'e2e/**',
    ],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: [...testFiles, 'e2e/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 700 }] },
  },
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', '*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', fetch: 'readonly', setTimeout: 'readonly', URL: 'readonly' },
    },
  },
);

function restrictImports(files, folders, message) {
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: folders.flatMap((folder) => [`**/${folder}/**`, `**/src/${folder}/**`]), message }] },
      ],
    },
  };
}
