// How a column reads on either engine: SQLite keeps times as ISO 8601 text and flags as 0/1,
// PostgreSQL returns Dates and booleans. Repositories turn both into one shape.
export type Time = string | Date;
export type Flag = number | boolean;
/** A bigint id PostgreSQL returns as text, SQLite as a number. */
export type Id = number | string;

export type Engine = 'sqlite' | 'postgres';

export const iso = (value: Time): string => (value instanceof Date ? value.toISOString() : value);
export const isoOrNull = (value: Time | null): string | null => (value === null ? null : iso(value));
/** A sign-up id as we make them (a UUID): anything else names nobody, and PostgreSQL would refuse it as a uuid. */
export const isSignupId = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
export const isTrue = (value: Flag): boolean => value === true || value === 1;
