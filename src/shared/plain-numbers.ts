// How figures are written for people: 1,234, and "1 entry" or "2 entries".
export const number = (value: number): string => value.toLocaleString('en-US');

export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${number(count)} ${count === 1 ? one : many}`;
