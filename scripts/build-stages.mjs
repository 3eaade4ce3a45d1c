// The build's stages, said as they go (scripts/build.mjs): what each is, how long it took last time
// here (dist/build-info.json) or, on a first build, on a small 2-core machine, and how long it took now.
import { readFileSync } from 'node:fs';

/** Seconds a stage takes on a small 2-core machine, for a first build (by kind of stage). */
export const TYPICAL_SECONDS = { page: 5, 'link-page': 2, prerender: 5, server: 30 };

/** Each stage's seconds in the last build here; nothing before the first. */
export function lastBuildSeconds(file = 'dist/build-info.json') {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).stageSeconds ?? {};
  } catch {
    return {};
  }
}

/** `run(id, kind, words, work)`: says the stage and its usual time, does it, says how long it took. */
export function buildStages({ total, lastSeconds, log, now = () => Date.now() }) {
  const seconds = {};
  let number = 0;
  return {
    seconds,
    run(id, kind, words, work) {
      number += 1;
      const usual = Math.max(1, Math.round(lastSeconds[id] ?? TYPICAL_SECONDS[kind]));
      log(`[${number}/${total}] ${words} (usually about ${usual} s)...`);
      const at = now();
      work();
      seconds[id] = (now() - at) / 1000;
      log(`[${number}/${total}] done in ${Math.round(seconds[id])} s`);
    },
  };
}
