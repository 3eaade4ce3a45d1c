// Builds everything `npm start` serves: the browser app, the prerendered pages, the server.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildFingerprint } from './build-inputs.mjs';

const fingerprint = buildFingerprint();
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });
const bin = (name) => `node_modules/.bin/${name}`;

run(bin('vite'), ['build', '--logLevel', 'warn']);
run(bin('vite'), [
  'build',
  '--ssr',
  'src/client/entry-server.tsx',
  '--outDir',
  'dist/ssr',
  '--emptyOutDir',
  '--logLevel',
  'warn',
]);
run(process.execPath, ['scripts/prerender.mjs']);
run(process.execPath, ['scripts/compress.mjs', 'dist/client']);
run(bin('tsc'), ['-p', 'tsconfig.server.json']);

mkdirSync('dist', { recursive: true });
writeFileSync(
  'dist/build-info.json',
  `${JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }, null, 2)}\n`,
);
console.log('build complete: dist/');
