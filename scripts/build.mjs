// Builds everything `npm start` serves: the browser app, the prerendered pages, the server.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildFingerprint } from './build-inputs.mjs';

const fingerprint = buildFingerprint();
const run = (command, args, env = {}) =>
  execFileSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
const bin = (name) => `node_modules/.bin/${name}`;

// The browser app and its prerender bundle, once per page mode (src/client/site-mode.ts) and language
// (src/client/language.ts): each page's script carries only its own page's code and words. The prerender
// step merges them into dist/client.
for (const [mode, language, suffix] of [
  ['coming-soon', 'en', ''],
  ['launched', 'en', '-launched'],
  ['coming-soon', 'es', '-es'],
  ['launched', 'es', '-launched-es'],
]) {
  const env = { VITE_SITE_MODE: mode, VITE_LANGUAGE: language };
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
}
// The link pages' script (Text size, the share panel), a bundle of its own: it shares no chunk with the page's.
run(bin('vite'), ['build', '--outDir', 'dist/client-link-page', '--emptyOutDir', '--logLevel', 'warn'], {
  VITE_BUILD: 'link-page',
});
run(process.execPath, ['scripts/prerender.mjs']);
run(process.execPath, ['scripts/compress.mjs', 'dist/client']);
run(bin('tsc'), ['-p', 'tsconfig.server.json']);

mkdirSync('dist', { recursive: true });
writeFileSync(
  'dist/build-info.json',
  `${JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }, null, 2)}\n`,
);
console.log('build complete: dist/');
