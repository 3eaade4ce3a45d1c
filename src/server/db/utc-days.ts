// The UTC days a window of figures covers, the same for every query that counts per day.

/** The first UTC day (YYYY-MM-DD) that `days` days back from `now` covers. */
export function firstDay(now: Date, days: number): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  return start.toISOString().slice(0, 10);
}

/** The UTC day (YYYY-MM-DD) after `now`'s: the end, exclusive, of a window that ends today. */
export function dayAfter(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().slice(0, 10);
}
