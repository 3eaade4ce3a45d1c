// Test support: wait until something a test server received matches, or fail saying how long and what came.

export async function waitForMatch<T>(
  items: () => T[],
  predicate: (item: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = performance.now() + timeoutMs; // a hang guard: the monotonic clock, not the hour
  for (;;) {
    const found = items().find(predicate);
    if (found) return found;
    if (performance.now() > deadline)
      throw new Error(`No matching ${what} arrived within ${timeoutMs} ms (${items().length} received).`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
