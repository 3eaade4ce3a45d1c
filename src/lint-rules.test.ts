// Proves the lint rules that keep the code's shape fail when broken: each rule, one import it refuses and one it allows.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
// Snippets are linted as if they lived at a path in src/ (nothing is written); what they import must exist.
const eslint = new ESLint({ cwd: root });
// The circle fixtures are real files in a folder `eslint .` ignores, so they are linted with ignores off.
const eslintWithFixtures = new ESLint({ cwd: root, ignore: false });
const timeout = 60_000;

type Case = { name: string; filePath: string; code: string };
type RuleCases = { rule: string; message: RegExp; refused: Case[]; allowed: Case[] };

const zones = 'import-x/no-restricted-paths';
const imports = '@typescript-eslint/no-restricted-imports';
const roots = 'no-restricted-imports';

const rules: RuleCases[] = [
  {
    rule: zones,
    message: /db\/ is the lowest layer/,
    refused: [
      {
        name: 'db imports a feature',
        filePath: 'src/server/db/fixture.ts',
        code: "import '../owner/people-routes.js';",
      },
      { name: 'db imports site/', filePath: 'src/server/db/fixture.ts', code: "import '../site/site-routes.js';" },
      { name: 'db imports app.ts', filePath: 'src/server/db/fixture.ts', code: "import '../app.js';" },
      {
        name: 'db imports messaging',
        filePath: 'src/server/db/fixture.ts',
        code: "import '../messaging/message-log.js';",
      },
      { name: 'db imports jobs', filePath: 'src/server/db/fixture.ts', code: "import '../jobs/job-list.js';" },
    ],
    allowed: [
      {
        name: "a db contract test uses a feature's helper to make its input",
        filePath: 'src/server/db/fixture.test.ts',
        code: "import '../consent/subscriptions.js';",
      },
      {
        name: 'db imports its own files, config and shared',
        filePath: 'src/server/db/fixture.ts',
        code: "import './open-database.js';\nimport '../config.js';\nimport '../../shared/signup-schema.js';",
      },
    ],
  },
  {
    rule: zones,
    message:
      /Features are layered backups < signups < consent < bounces < suppressions < ready < broadcast < webhooks < api < owner/,
    refused: [
      {
        name: 'signups imports consent',
        filePath: 'src/server/signups/fixture.ts',
        code: "import '../consent/subscriptions.js';",
      },
      {
        name: 'consent imports broadcast',
        filePath: 'src/server/consent/fixture.ts',
        code: "import '../broadcast/broadcast-control.js';",
      },
      {
        name: 'broadcast imports owner',
        filePath: 'src/server/broadcast/fixture.ts',
        code: "import '../owner/owner-words.js';",
      },
      {
        name: 'owner imports site/',
        filePath: 'src/server/owner/fixture.ts',
        code: "import '../site/site-routes.js';",
      },
      {
        name: 'signups imports site/',
        filePath: 'src/server/signups/fixture.ts',
        code: "import '../site/health-routes.js';",
      },
      {
        name: 'suppressions imports broadcast',
        filePath: 'src/server/suppressions/fixture.ts',
        code: "import '../broadcast/broadcast-control.js';",
      },
      {
        name: 'backups imports signups',
        filePath: 'src/server/backups/fixture.ts',
        code: "import '../signups/signup-routes.js';",
      },
      {
        name: 'a consent test imports owner',
        filePath: 'src/server/consent/fixture.test.ts',
        code: "import '../owner/owner-words.js';",
      },
    ],
    allowed: [
      {
        name: 'backups imports db',
        filePath: 'src/server/backups/fixture.ts',
        code: "import '../db/database-copies.js';",
      },
      {
        name: 'signups imports db',
        filePath: 'src/server/signups/fixture.ts',
        code: "import '../db/open-database.js';",
      },
      {
        name: 'consent imports signups',
        filePath: 'src/server/consent/fixture.ts',
        code: "import '../signups/signup-routes.js';",
      },
      {
        name: 'owner imports suppressions',
        filePath: 'src/server/owner/fixture.ts',
        code: "import '../suppressions/way-back.js';",
      },
      {
        name: 'broadcast imports consent',
        filePath: 'src/server/broadcast/fixture.ts',
        code: "import '../consent/subscriptions.js';",
      },
      {
        name: 'owner imports broadcast',
        filePath: 'src/server/owner/fixture.ts',
        code: "import '../broadcast/broadcast-control.js';",
      },
      {
        name: 'app.ts imports every feature',
        filePath: 'src/server/app.ts',
        code: "import './owner/people-routes.js';\nimport './site/site-routes.js';",
      },
    ],
  },
  {
    rule: zones,
    message: /messaging\/ lies beneath every feature/,
    refused: [
      {
        name: 'messaging imports consent',
        filePath: 'src/server/messaging/fixture.ts',
        code: "import '../consent/subscriptions.js';",
      },
      {
        name: 'messaging imports broadcast',
        filePath: 'src/server/messaging/fixture.ts',
        code: "import '../broadcast/broadcast-control.js';",
      },
      {
        name: 'a messaging test imports bounces',
        filePath: 'src/server/messaging/fixture.test.ts',
        code: "import '../bounces/act-on-reports.js';",
      },
    ],
    allowed: [
      {
        name: 'messaging imports db and its own files',
        filePath: 'src/server/messaging/fixture.ts',
        code: "import '../db/open-database.js';\nimport './smtp-answers.js';",
      },
      {
        name: 'a feature imports messaging',
        filePath: 'src/server/signups/fixture.ts',
        code: "import '../messaging/link-tokens.js';",
      },
    ],
  },
  {
    rule: zones,
    message: /jobs\/ lies beneath every feature/,
    refused: [
      {
        name: 'jobs imports a feature',
        filePath: 'src/server/jobs/fixture.ts',
        code: "import '../backups/backup-schedule.js';",
      },
      {
        name: 'jobs imports messaging',
        filePath: 'src/server/jobs/fixture.ts',
        code: "import '../messaging/link-tokens.js';",
      },
    ],
    allowed: [
      {
        name: 'jobs imports db and its own files',
        filePath: 'src/server/jobs/fixture.ts',
        code: "import '../db/background-jobs-repository.js';\nimport './job-list.js';",
      },
      {
        name: 'a feature imports jobs',
        filePath: 'src/server/owner/fixture.ts',
        code: "import '../jobs/job-status.js';",
      },
    ],
  },
  {
    rule: zones,
    message: /A route file never imports another route file/,
    refused: [
      {
        name: 'a route file imports one beside it',
        filePath: 'src/server/signups/fixture-routes.ts',
        code: "import './signup-routes.js';",
      },
      {
        name: "a route file imports a lower feature's",
        filePath: 'src/server/owner/fixture-routes.ts',
        code: "import '../consent/link-pages/link-page-routes.js';",
      },
    ],
    allowed: [
      {
        name: 'a route file imports a service',
        filePath: 'src/server/owner/fixture-routes.ts',
        code: "import '../consent/subscriptions.js';",
      },
      {
        name: 'a route test imports its route file',
        filePath: 'src/server/signups/fixture-routes.test.ts',
        code: "import './signup-routes.js';",
      },
    ],
  },
  {
    rule: zones,
    message: /are broadcast\/'s tables/,
    refused: [
      {
        name: 'consent reads the broadcasts',
        filePath: 'src/server/consent/fixture.ts',
        code: "import '../db/broadcasts-repository.js';",
      },
      {
        name: 'bounces writes the pauses',
        filePath: 'src/server/bounces/fixture.ts',
        code: "import '../db/broadcast-pauses-repository.js';",
      },
      {
        name: 'suppressions reads the outbox',
        filePath: 'src/server/suppressions/fixture.ts',
        code: "import '../db/outbox-repository.js';",
      },
    ],
    allowed: [
      {
        name: 'broadcast/ reads its outbox',
        filePath: 'src/server/broadcast/fixture.ts',
        code: "import '../db/outbox-repository.js';",
      },
      {
        name: 'a test below seeds the outbox',
        filePath: 'src/server/suppressions/fixture.test.ts',
        code: "import '../db/outbox-repository.js';",
      },
      {
        name: 'a type of the table (a channel pause cause)',
        filePath: 'src/server/bounces/fixture.ts',
        code: "import type { PauseCause } from '../db/broadcast-pauses.table.js';",
      },
    ],
  },
  {
    rule: zones,
    message: /compose\.ts builds the product, app\.ts and index\.ts serve it/,
    refused: [
      { name: 'a feature imports app.ts', filePath: 'src/server/consent/fixture.ts', code: "import '../app.js';" },
      { name: 'a top-level module imports index.ts', filePath: 'src/server/fixture.ts', code: "import './index.js';" },
      {
        name: 'a feature imports compose.ts',
        filePath: 'src/server/broadcast/fixture.ts',
        code: "import '../compose.js';",
      },
    ],
    allowed: [
      {
        name: "a feature's test builds the app",
        filePath: 'src/server/consent/fixture.test.ts',
        code: "import '../app.js';",
      },
      { name: 'index.ts imports app.ts', filePath: 'src/server/index.ts', code: "import './app.js';" },
      { name: 'index.ts imports compose.ts', filePath: 'src/server/index.ts', code: "import './compose.js';" },
      {
        name: 'compose.ts imports a feature',
        filePath: 'src/server/compose.ts',
        code: "import './broadcast/broadcasts.js';",
      },
    ],
  },
  {
    rule: zones,
    message: /top-level modules .* sit below db\/ and every feature/,
    refused: [
      { name: 'config.ts imports db', filePath: 'src/server/config.ts', code: "import './db/open-database.js';" },
      {
        name: 'a top-level module imports a feature',
        filePath: 'src/server/fixture.ts',
        code: "import './signups/signup-routes.js';",
      },
    ],
    allowed: [
      {
        name: 'a top-level module imports another and shared',
        filePath: 'src/server/fixture.ts',
        code: "import './errors.js';\nimport '../shared/routes.js';",
      },
      {
        name: 'a top-level test imports db',
        filePath: 'src/server/fixture.test.ts',
        code: "import './db/open-database.js';",
      },
    ],
  },
  {
    rule: zones,
    message: /Test helpers are not built into dist/,
    refused: [
      {
        name: 'a feature imports a test helper',
        filePath: 'src/server/signups/fixture.ts',
        code: "import '../test/test-config.js';",
      },
      {
        name: 'a command imports a test helper',
        filePath: 'src/cli/fixture.ts',
        code: "import '../server/test/test-config.js';",
      },
    ],
    allowed: [
      {
        name: 'a test imports a test helper',
        filePath: 'src/server/signups/fixture.test.ts',
        code: "import '../test/test-config.js';",
      },
      {
        name: 'test helpers import each other',
        filePath: 'src/server/test/fixture.ts',
        code: "import './test-config.js';",
      },
    ],
  },
  {
    rule: imports,
    message: /Pages render what they are given: they import only types from db\//,
    refused: [
      {
        name: 'a -page.tsx',
        filePath: 'src/server/consent/fixture-page.tsx',
        code: "import { openDatabase } from '../db/open-database.js';\nexport const x = openDatabase;",
      },
      {
        name: 'a -pages.tsx',
        filePath: 'src/server/owner/fixture-pages.tsx',
        code: "import { openDatabase } from '../db/open-database.js';\nexport const x = openDatabase;",
      },
      {
        name: 'a -layout.tsx',
        filePath: 'src/server/owner/fixture-layout.tsx',
        code: "import { openDatabase } from '../db/open-database.js';\nexport const x = openDatabase;",
      },
      {
        name: 'signups-chart.tsx',
        filePath: 'src/server/owner/signups-chart.tsx',
        code: "import { openDatabase } from '../db/open-database.js';\nexport const x = openDatabase;",
      },
    ],
    allowed: [
      {
        name: 'a page imports a type',
        filePath: 'src/server/owner/fixture-page.tsx',
        code: "import type { Db } from '../db/open-database.js';\nexport type X = Db;",
      },
      {
        name: 'a page imports types inline',
        filePath: 'src/server/owner/fixture-pages.tsx',
        code: "import { type Db } from '../db/open-database.js';\nexport type X = Db;",
      },
    ],
  },
  {
    rule: imports,
    message: /Only src\/server\/db\//,
    refused: [
      {
        name: 'better-sqlite3 outside db',
        filePath: 'src/server/signups/fixture.ts',
        code: "import Database from 'better-sqlite3';\nexport const x = Database;",
      },
      { name: 'pg outside db', filePath: 'src/cli/fixture.ts', code: "import pg from 'pg';\nexport const x = pg;" },
      {
        name: 'SqliteDialect outside db',
        filePath: 'src/server/owner/fixture.ts',
        code: "import { SqliteDialect } from 'kysely';\nexport const x = SqliteDialect;",
      },
      {
        name: 'PostgresDialect outside db',
        filePath: 'src/server/fixture.ts',
        code: "import { PostgresDialect } from 'kysely';\nexport const x = PostgresDialect;",
      },
      {
        name: 'better-sqlite3 in backups (copies are db/database-copies.ts)',
        filePath: 'src/server/backups/fixture.ts',
        code: "import Database from 'better-sqlite3';\nexport const x = Database;",
      },
      {
        name: 'a page reaches the driver',
        filePath: 'src/server/owner/fixture-page.tsx',
        code: "import pg from 'pg';\nexport const x = pg;",
      },
    ],
    allowed: [
      {
        name: 'db imports the drivers and dialects',
        filePath: 'src/server/db/fixture.ts',
        code: "import Database from 'better-sqlite3';\nimport pg from 'pg';\nimport { PostgresDialect, SqliteDialect } from 'kysely';\nexport const x = [Database, pg, PostgresDialect, SqliteDialect];",
      },
      {
        name: 'a type from kysely elsewhere',
        filePath: 'src/server/signups/fixture.ts',
        code: "import type { Kysely } from 'kysely';\nexport type X = Kysely<object>;",
      },
      {
        name: 'a test opens the file itself',
        filePath: 'src/server/signups/fixture.test.ts',
        code: "import Database from 'better-sqlite3';\nexport const x = Database;",
      },
    ],
  },
  {
    rule: roots,
    message: /shared\/ imports from neither side|never imports (server|browser)|not the browser app/,
    refused: [
      { name: 'shared imports the client', filePath: 'src/shared/fixture.ts', code: "import '../client/content.js';" },
      { name: 'shared imports the server', filePath: 'src/shared/fixture.ts', code: "import '../server/config.js';" },
      {
        name: 'the client imports the server',
        filePath: 'src/client/fixture.ts',
        code: "import '../server/config.js';",
      },
      {
        name: 'the server imports the client',
        filePath: 'src/server/fixture.ts',
        code: "import '../client/content.js';",
      },
      {
        name: 'the server imports the CLI',
        filePath: 'src/server/fixture.ts',
        code: "import '../cli/cli-support.js';",
      },
      { name: 'the CLI imports the client', filePath: 'src/cli/fixture.ts', code: "import '../client/content.js';" },
    ],
    allowed: [
      { name: 'the client imports shared', filePath: 'src/client/fixture.ts', code: "import '../shared/routes.js';" },
      { name: 'the server imports shared', filePath: 'src/server/fixture.ts', code: "import '../shared/routes.js';" },
      { name: 'the CLI imports the server', filePath: 'src/cli/fixture.ts', code: "import '../server/config.js';" },
    ],
  },
  {
    rule: 'no-restricted-syntax',
    message: /reads the machine's clock: a test takes its clock from src\/server\/test\/clock\.ts/,
    refused: [
      {
        name: 'a test reads Date.now()',
        filePath: 'src/server/broadcast/fixture.test.ts',
        code: 'export const at = Date.now();',
      },
      {
        name: 'a test helper makes new Date()',
        filePath: 'src/server/test/fixture.ts',
        code: 'export const at = new Date();',
      },
      {
        name: 'a db test fixture makes new Date()',
        filePath: 'src/server/db/test-fixtures/fixture.ts',
        code: 'export const at = new Date();',
      },
      {
        name: 'a browser journey reads Date.now()',
        filePath: 'e2e/fixture.spec.ts',
        code: 'export const at = Date.now();',
      },
    ],
    allowed: [
      {
        name: "the tests' clock reads the machine's",
        filePath: 'src/server/test/clock.ts',
        code: 'export const at = Date.now();',
      },
      {
        name: 'a test makes a date of a given instant',
        filePath: 'src/server/broadcast/fixture.test.ts',
        code: "export const at = new Date('2026-06-10T20:00:00Z');",
      },
      {
        name: 'the product reads its clock',
        filePath: 'src/server/broadcast/fixture.ts',
        code: 'export const at = () => new Date();',
      },
    ],
  },
  {
    rule: 'no-restricted-syntax',
    message: /The suppression list only grows/,
    refused: [
      {
        name: 'a repository deletes from the suppression list',
        filePath: 'src/server/db/fixture.ts',
        code: "export const lift = (db: any) => db.deleteFrom('suppressions').where('id', '=', 1).execute();",
      },
      {
        name: 'a feature rewrites a row of it, under an alias',
        filePath: 'src/server/consent/fixture.ts',
        code: "export const edit = (db: any) => db.updateTable('suppressions as s').set({ reason: 'left' }).execute();",
      },
    ],
    allowed: [
      {
        name: 'a repository appends to it',
        filePath: 'src/server/db/fixture.ts',
        code: "export const add = (db: any) => db.insertInto('suppressions').values([]).execute();",
      },
      {
        name: 'a repository deletes from another table',
        filePath: 'src/server/db/fixture.ts',
        code: "export const drop = (db: any) => db.deleteFrom('sms_replies').execute();",
      },
    ],
  },
  {
    rule: 'max-lines',
    message: /File has too many lines/,
    refused: [
      { name: 'a module of 401 lines', filePath: 'src/server/consent/fixture.ts', code: lines(401) },
      { name: 'a script of 401 lines', filePath: 'scripts/fixture.mjs', code: lines(401) },
      { name: 'a test of 701 lines', filePath: 'src/server/consent/fixture.test.ts', code: lines(701) },
    ],
    allowed: [
      { name: 'a module of 400 lines', filePath: 'src/server/consent/fixture.ts', code: lines(400) },
      { name: 'a test of 700 lines', filePath: 'src/server/consent/fixture.test.ts', code: lines(700) },
      {
        name: 'the generated phone zones',
        filePath: 'src/server/messaging/phone-zones-data.ts',
        code: lines(900),
      },
      { name: 'the SMTP rule table', filePath: 'src/server/messaging/smtp-answers.ts', code: lines(900) },
    ],
  },
];

/** A module of `count` lines. */
function lines(count: number): string {
  return Array.from({ length: count }, (_, index) => `export const line${index} = ${index};`).join('\n');
}

async function messagesFor({ filePath, code }: Case) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  expect(result?.messages.filter((message) => message.fatal)).toEqual([]);
  return result?.messages ?? [];
}

describe.each(rules)('$rule: $message', ({ rule, message, refused, allowed }) => {
  it.each(refused)('refuses: $name', { timeout }, async (fixture) => {
    const messages = await messagesFor(fixture);
    expect(messages.filter((found) => found.ruleId === rule).map((found) => found.message)).toContainEqual(
      expect.stringMatching(message),
    );
  });

  it.each(allowed)('allows: $name', { timeout }, async (fixture) => {
    const messages = await messagesFor(fixture);
    expect(messages.filter((found) => found.ruleId === rule)).toEqual([]);
  });
});

describe('import-x/no-cycle', () => {
  const fixture = (name: string) => path.join(root, 'src/test-fixtures/lint', name);

  it('the fixtures exist (a renamed fixture would make the checks below pass vacuously)', () => {
    for (const name of ['cycle-a.ts', 'cycle-b.ts', 'cycle-view.tsx', 'cycle-label.ts', 'chain-a.ts', 'chain-b.ts']) {
      expect(existsSync(fixture(name)), name).toBe(true);
    }
  });

  it('refuses two files that import each other, and one through a .tsx file', { timeout }, async () => {
    const results = await eslintWithFixtures.lintFiles(
      ['cycle-a.ts', 'cycle-b.ts', 'cycle-view.tsx', 'cycle-label.ts'].map(fixture),
    );
    for (const result of results) {
      expect(
        result.messages.map((found) => found.ruleId),
        path.basename(result.filePath),
      ).toContain('import-x/no-cycle');
    }
  });

  it('allows a one-way chain', { timeout }, async () => {
    const results = await eslintWithFixtures.lintFiles(['chain-a.ts', 'chain-b.ts'].map(fixture));
    expect(results.flatMap((result) => result.messages)).toEqual([]);
  });

  it('`eslint .` skips the fixtures', { timeout }, async () => {
    expect(await eslint.isPathIgnored(fixture('cycle-a.ts'))).toBe(true);
  });
});

describe('the files the snippets import exist', () => {
  // A snippet importing a missing file is not resolved, so a zone would pass it silently.
  const imported = rules.flatMap(({ refused, allowed }) =>
    [...refused, ...allowed].flatMap(({ filePath, code }) =>
      [...code.matchAll(/from '(\.[^']+)'|import '(\.[^']+)'/g)].map((match) =>
        path.join(root, path.dirname(filePath), (match[1] ?? match[2] ?? '').replace(/\.js$/, '')),
      ),
    ),
  );

  it.each([...new Set(imported)])('%s', (file) => {
    expect(existsSync(`${file}.ts`) || existsSync(`${file}.tsx`), file).toBe(true);
  });
});
