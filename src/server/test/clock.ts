// The tests' clock: the one test module that reads the machine's clock. Every other test module takes
// its "now" from here, so no test passes or fails by the hour it runs at (lint refuses Date.now() and
// new Date() without an argument in the others; docs/testing.md, "Time").

/**
 * A Wednesday, 4 p.m. in New York and 10 a.m. in Honolulu: daytime for texts in every US zone under
 * every state's rule (messaging/text-hours.ts), far from a daylight-saving change.
 */
export const DAYTIME = '2026-06-10T20:00:00Z';

/**
 * The setting that puts the product's text-hours rules at DAYTIME whatever the machine's clock says
 * (TEST_TEXT_CLOCK, tests only): spread into every environment a test builds settings from.
 */
export const DAYTIME_TEXTS = { TEST_TEXT_CLOCK: DAYTIME } as const;

/** A clock a test hands to the product (the store's `now`, a job's, a webhook check's) and moves itself. */
export interface TestClock {
  (): Date;
  /** The clock's time in milliseconds. */
  ms(): number;
  /** Moves the clock on (or back, with a negative number). */
  advance(ms: number): void;
  /** Sets the clock to an instant. */
  set(at: Date | string | number): void;
}

/** A clock standing still at `start` until the test moves it. */
export function testClock(start: Date | string | number = DAYTIME): TestClock {
  let at = new Date(start).getTime();
  if (Number.isNaN(at)) throw new Error(`testClock: not a time: ${String(start)}`);
  const clock = (() => new Date(at)) as TestClock;
  clock.ms = () => at;
  clock.advance = (ms) => {
    at += ms;
  };
  clock.set = (next) => {
    at = new Date(next).getTime();
  };
  return clock;
}

/**
 * The machine's clock, for what no clock can be handed to: a time PostgreSQL stamps with its own
 * now() (the spec's "data store's server time"), a process the test started (the built server, a
 * command), a provider's stand-in signing "now", a unique name. Read it to bracket such a time
 * (before ≤ t ≤ after), never to time how long the product took: `npm run test:clock` runs the
 * suite at hours across the day, so nothing read here may change a test's outcome by the hour.
 */
export const machineClock = {
  now: (): Date => new Date(),
  ms: (): number => Date.now(),
};

/**
 * A clock that follows the machine's, `offsetMs` away from it: for a product part that measures
 * real waits (a lease, a retry) while the test places it days later or earlier.
 */
export function shiftedClock(offsetMs: number): () => Date {
  return () => new Date(Date.now() + offsetMs);
}

/**
 * The settings that put a process on this one's clock: `npm run test:clock` moves the clock with
 * libfaketime's variables, and TEST_TEXT_CLOCK moves the text rules'. A process a test starts with an
 * environment of its own carries them, so it keeps the test's hour.
 */
export function clockEnvironment(): Record<string, string> {
  const names = ['LD_PRELOAD', 'FAKETIME', 'FAKETIME_DONT_FAKE_MONOTONIC', 'TEST_TEXT_CLOCK'];
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}
