// How figures are written for people: 1,234, and "1 entry" or "2 entries".
export const number = (value: number): string => value.toLocaleString('en-US');

export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${number(count)} ${count === 1 ? one : many}`;

/** A file's size for people: 340 kB, 1.2 MB. */
export const fileSize = (bytes: number): string =>
  bytes < 1_000_000 ? `${Math.max(1, Math.round(bytes / 1000))} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
