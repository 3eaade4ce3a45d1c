// Builds only if the sources changed since the last build; prints nothing to stdout (it may be piped).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { buildFingerprint } from './build-inputs.mjs';

let built;
try {
  built = JSON.parse(readFileSync('dist/build-info.json', 'utf8')).fingerprint;
} catch {
  built = undefined;
}

if (built !== buildFingerprint()) {
  process.stderr.write(
    built
      ? 'Sources changed since the last build: building, a line for each stage...\n'
      : 'No build yet: building, a line for each stage (a minute or two on a small machine)...\n',
  );
  // stdout goes to stderr, so `npm run --silent signups:export > file` stays clean.
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: ['ignore', 2, 2] });
}
