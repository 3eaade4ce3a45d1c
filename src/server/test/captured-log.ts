// Test support: a pino logger whose lines a test reads back, parsed.
import { Writable } from 'node:stream';
import pino from 'pino';

export interface LogLine {
  level: number;
  msg: string;
  err?: string;
}

/** pino's numbers for the levels the tests look for. */
export const WARN = 40;
export const ERROR = 50;

/** A logger (with these options: the server's own, say), and every line it wrote so far: parsed, and as written. */
export function capturedLog(options: pino.LoggerOptions = {}): {
  lines: LogLine[];
  written: string[];
  logger: pino.Logger;
} {
  const lines: LogLine[] = [];
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()) as LogLine);
      done();
    },
  });
  return { lines, written, logger: pino(options, stream) };
}
