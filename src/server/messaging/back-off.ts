// How long to wait before trying a message again: the one back-off every sender uses.

/** The delay before attempt `attempts + 1`: doubling from `base`, capped, with "equal jitter" (half fixed, half random). */
export function retryDelayMs(attempts: number, base: number, max: number, random: () => number = Math.random): number {
  const ceiling = Math.min(max, base * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
