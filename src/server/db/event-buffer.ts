// Holds analytics events between the request and their write, so they reach the database in a few
// short transactions a second, whatever the traffic, instead of one per beacon.
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import { StoreUnavailableError } from './database-errors.js';
import { toEventRow, type EventRow } from './events-repository.js';

/** How long events wait to be written together: at most four event transactions a second. */
export const EVENT_WRITE_DELAY_MS = 250;
/** Rows per event transaction, so that one never holds the writer for long. */
export const EVENT_WRITE_BATCH_MAX = 2000;
/** Events waiting beyond this are refused, so memory stays bounded while the database is away. */
export const EVENT_BACKLOG_MAX = 20_000;

/** The events of one `recordEvents` call, settled together. */
export interface PendingEvents {
  rows: EventRow[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class EventBuffer {
  private pending: PendingEvents[] = [];
  private rowsWaiting = 0;
  private timer: NodeJS.Timeout | undefined;
  private delayPassed = false;
  private draining = false;

  /** `onDue` is called when the delay has passed: the writer then writes a batch when it is free. */
  constructor(private readonly onDue: () => void) {}

  /** A beacon's events, as either writer takes them: refused once the writer has closed, an empty batch at once. */
  record(events: AnalyticsEvent[], at: Date | undefined, writerClosed: boolean): Promise<void> {
    if (writerClosed) return Promise.reject(new Error('The sign-up store is closed.'));
    if (events.length === 0) return Promise.resolve();
    return this.add(events.map((event) => toEventRow(event, at)));
  }

  add(rows: EventRow[]): Promise<void> {
    if (this.rowsWaiting + rows.length > EVENT_BACKLOG_MAX) {
      return Promise.reject(
        new StoreUnavailableError(`more than ${EVENT_BACKLOG_MAX} analytics events are waiting to be written`),
      );
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ rows, resolve, reject });
      this.rowsWaiting += rows.length;
      if (this.delayPassed || this.draining || this.timer) return;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.delayPassed = true;
        this.onDue();
      }, EVENT_WRITE_DELAY_MS);
    });
  }

  /** Whether a batch should be written now: events wait and their delay has passed (or the writer is closing). */
  get due(): boolean {
    return this.pending.length > 0 && (this.delayPassed || this.draining);
  }

  get empty(): boolean {
    return this.pending.length === 0;
  }

  /** The next batch: whole calls, oldest first, up to EVENT_WRITE_BATCH_MAX rows (always at least one call). */
  take(): PendingEvents[] {
    let count = 0;
    let rows = 0;
    for (const next of this.pending) {
      if (count > 0 && rows + next.rows.length > EVENT_WRITE_BATCH_MAX) break;
      count += 1;
      rows += next.rows.length;
    }
    const batch = this.pending.splice(0, count);
    this.rowsWaiting -= rows;
    // What is left over stays due; once all is taken, the next event starts a new delay.
    if (this.pending.length === 0) this.delayPassed = false;
    return batch;
  }

  /** The writer is closing: everything waiting, and anything still added, is due at once. */
  drain(): void {
    this.draining = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

export function rowsOf(batch: PendingEvents[]): EventRow[] {
  return batch.flatMap((pending) => pending.rows);
}
