// Builds everything `npm start` serves: the browser app, the prerendered pages, the server. Says each
// stage as it starts, how long it took last time (dist/build-info.json; a first build gives this
// machine's figures from docs/commands.md), and how long it took now: a first build is never silent.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildFingerprint } from './build-inputs.mjs';
import { buildStages, lastBuildSeconds } from './build-stages.mjs';

const fingerprint = buildFingerprint();
const run = (command, args, env = {}) =>
  execFileSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
const bin = (name) => `node_modules/.bin/${name}`;

const stages = buildStages({ total: 7, lastSeconds: lastBuildSeconds(), log: (line) => console.log(line) });
const stage = stages.run;
const started = Date.now();

// The browser app and its prerender bundle, once per page mode (src/client/site-mode.ts) and language
// (src/client/language.ts): each page's script carries only its own page's code and words. The prerender
// step merges them into dist/client.
for (const [mode, language, suffix, words] of [
  ['coming-soon', 'en', '', 'The page before the launch, in English'],
  ['launched', 'en', '-launched', 'The page after the launch, in English'],
  ['coming-soon', 'es', '-es', 'The page before the launch, in Spanish'],
  ['launched', 'es', '-launched-es', 'The page after the launch, in Spanish'],
]) {
  const env = { VITE_SITE_MODE: mode, VITE_LANGUAGE: language };
  stage(`page${suffix}`, 'page', words, () => {
    run(bin('vite'), ['build', '--outDir', `dist/client${suffix}`, '--emptyOutDir', '--logLevel', 'warn'], env);
    run(
      bin('vite'),
      [
        'build',
        '--ssr',
        'src/client/entry-server.tsx',
        '--outDir',
        `dist/ssr${suffix}`,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      env,
    );
  });
}
// The link pages' script (Text size, the share panel), a bundle of its own: it shares no chunk with the page's.
stage('link-page', 'link-page', "The link pages' script", () =>
  run(bin('vite'), ['build', '--outDir', 'dist/client-link-page', '--emptyOutDir', '--logLevel', 'warn'], {
    VITE_BUILD: 'link-page',
  }),
);
stage('prerender', 'prerender', 'Writing the pages out, and compressing them', () => {
  run(process.execPath, ['scripts/prerender.mjs']);
  run(process.execPath, ['scripts/compress.mjs', 'dist/client']);
});
stage('server', 'server', 'The server and the commands', () => run(bin('tsc'), ['-p', 'tsconfig.server.json']));

mkdirSync('dist', { recursive: true });
writeFileSync(
  'dist/build-info.json',
  `${JSON.stringify({ fingerprint, builtAt: new Date().toISOString(), stageSeconds: stages.seconds }, null, 2)}\n`,
);
console.log(`build complete: dist/ (${((Date.now() - started) / 1000).toFixed(0)} s)`);
