// The server's log settings: JSON lines (pino), with visitors' personal details never written.
import type { LoggerOptions } from 'pino';

/**
 * Paths whose values are replaced before a line is written. The code never logs a sign-up, but a
 * database error can carry the values it was given (PostgreSQL's `detail`: "Key (email_key)=(…)").
 */
export const REDACTED_PATHS = [
  'req.body',
  'body',
  'signup',
  'input',
  '*.email',
  '*.phone',
  '*.emailKey',
  '*.email_key',
  'err.detail',
  'err.parameters',
  'err.where',
  'err.cause.detail',
];

export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}
