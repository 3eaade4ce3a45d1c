import { describe, expect, it } from 'vitest';
import { buildStages, TYPICAL_SECONDS } from '../scripts/build-stages.mjs';

describe('the build says what it is doing', () => {
  it('names each stage as it starts, with the time it took last time here, then the time it took', () => {
    const lines: string[] = [];
    let clock = 0;
    const stages = buildStages({
      total: 2,
      lastSeconds: { server: 41.6 },
      log: (line: string) => lines.push(line),
      now: () => clock,
    });
    stages.run('page', 'page', 'The page before the launch, in English', () => (clock += 3_200));
    stages.run('server', 'server', 'The server and the commands', () => (clock += 12_000));
    expect(lines).toEqual([
      `[1/2] The page before the launch, in English (usually about ${TYPICAL_SECONDS.page} s)...`,
      '[1/2] done in 3 s',
      '[2/2] The server and the commands (usually about 42 s)...',
      '[2/2] done in 12 s',
    ]);
    // Kept for the next build's "usually".
    expect(stages.seconds).toEqual({ page: 3.2, server: 12 });
  });
});
