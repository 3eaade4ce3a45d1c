// What the broadcast commands share: the context each runs in, its streams, and how numbers and
// refusals are written.
import type { Config } from '../../server/config.js';
import type { BroadcastControl } from '../../server/broadcast/broadcast-control.js';
import type { Rates } from '../../server/broadcast/start-rules.js';

export interface Output {
  out: { write(text: string): unknown; isTTY?: boolean };
  err: { write(text: string): unknown };
}

/** What a command has to work with. */
export interface Context {
  config: Config;
  control: BroadcastControl;
  output: Output;
  /** Writes a line of the audit log for what the command did (its owner: the command line). */
  audit: (entry: { subject: string; detail: string }) => Promise<void>;
}

/** The flags parseArgs read. */
export type Values = Record<string, string | boolean | undefined>;

/** A command asked for wrongly: the message, then the usage, and exit code 2. */
export class UsageError extends Error {}

export function positiveNumber(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new UsageError(`${flag} must be a number above 0, not "${String(value)}".`);
  return parsed;
}

/** --rate and --sms-rate, as the rates a sender takes. */
export function ratesOf(values: Values): Rates {
  const rate = positiveNumber(values.rate, '--rate');
  const smsRate = positiveNumber(values['sms-rate'], '--sms-rate');
  return { ...(rate ? { email: rate } : {}), ...(smsRate ? { sms: smsRate } : {}) };
}
