// What the build is made from, and a fingerprint of it, so `npm start` rebuilds only when needed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const INPUTS = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'tsconfig.base.json',
  'tsconfig.server.json',
  'package-lock.json',
  'scripts/build.mjs',
  'scripts/prerender.mjs',
  'scripts/compress.mjs',
];

function* files(entry) {
  let stat;
  try {
    stat = statSync(entry);
  } catch {
    return;
  }
  if (stat.isFile()) {
    yield entry;
    return;
  }
  for (const name of readdirSync(entry).sort()) {
    if (/\.test\.tsx?$/.test(name)) continue;
    yield* files(path.join(entry, name));
  }
}

export function buildFingerprint(root = process.cwd()) {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(path.join(root, input))) {
      hash.update(path.relative(root, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}
