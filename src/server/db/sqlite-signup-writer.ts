// Sign-ups into an SQLite file through a writer thread: WAL, synchronous=FULL, and group commit for
// bursts. The event loop keeps serving requests while a commit is synced to disk.
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../worker-thread.js';
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import type { SignupInput } from '../../shared/signup-schema.js';
import { StoreUnavailableError } from './database-errors.js';
import { EventBuffer, rowsOf, type PendingEvents } from './event-buffer.js';
import { toSignupRow } from './signup-row.js';
import { newReferralCode } from '../../shared/referral.js';
import type { SignupAdded, SignupVia, SignupWriter, SignupWriterOptions } from './signup-writer.js';
import { isSqliteUnavailable, WRITER_ROW_INDEX } from './sqlite-shared.js';
import type * as Writer from './sqlite-shared.js';

interface PendingAdd {
  row: Writer.WriterRow;
  /** Id clashes met so far: the row is retried with a fresh id and link code, a couple of times at most. */
  clashes: number;
  resolve: (added: SignupAdded) => void;
  reject: (error: unknown) => void;
}

/** The writer thread: compiled JavaScript in production; in tests, run from the TypeScript source through tsx. */
function startWriter(file: string): Worker {
  return startWorkerThread(import.meta.url, 'sqlite-writer', { file });
}

/**
 * Writes go to a writer thread (started on the first write) with its own connection; reads go
 * through the main thread's (open-database.ts).
 * Sign-ups that arrive while a batch is being written form the next batch: group commit.
 * Analytics events share the writer but not the transactions: they wait a moment to be written
 * together, and take a turn only when no sign-up waits, or every other batch while some do.
 */
export class SqliteSignupWriter implements SignupWriter {
  private readonly newId: () => string;
  private readonly now: () => Date;
  private readonly confirmSignups: boolean;
  private writer: Worker | undefined;
  private pending: PendingAdd[] = [];
  private readonly inFlight = new Map<number, PendingAdd[]>();
  private readonly eventBuffer = new EventBuffer(() => this.flush());
  private readonly eventsInFlight = new Map<number, PendingEvents[]>();
  private lastSent: 'signups' | 'events' | undefined;
  private nextBatch = 1;
  private flushScheduled = false;
  private closed = false;
  private drained: (() => void) | undefined;

  constructor(
    private readonly file: string,
    { newId, now, confirmSignups }: SignupWriterOptions,
  ) {
    this.newId = newId;
    this.now = now;
    this.confirmSignups = confirmSignups;
  }

  add(input: SignupInput, via?: SignupVia): Promise<SignupAdded> {
    if (this.closed) return Promise.reject(new Error('The sign-up store is closed.'));
    const signup = toSignupRow(input, via);
    const now = this.now().toISOString();
    // In WRITER_COLUMNS order, then the confirmation's moment.
    const row: Writer.WriterRow = [
      this.newId(),
      signup.name,
      signup.phone,
      signup.email,
      signup.emailKey,
      signup.betaTesting ? 1 : 0,
      now,
      now,
      signup.utmSource,
      signup.utmMedium,
      signup.utmCampaign,
      signup.utmTerm,
      signup.utmContent,
      signup.referrer,
      signup.landingPath,
      signup.button,
      signup.source,
      signup.consentVersion,
      newReferralCode(),
      signup.referredBy,
      signup.language,
      // Then the moment it asks for a confirmation email (WRITER_ROW_INDEX.confirmAt), and its consent line's source and evidence.
      this.confirmSignups ? now : null,
      signup.consentSource,
      signup.consentEvidence,
    ];
    return new Promise((resolve, reject) => {
      this.pending.push({ row, clashes: 0, resolve, reject });
      this.scheduleFlush();
    });
  }

  recordEvents(events: AnalyticsEvent[], at?: Date): Promise<void> {
    return this.eventBuffer.record(events, at, this.closed);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Everything already accepted is written before the writer stops, events included.
    this.eventBuffer.drain();
    while (
      this.pending.length > 0 ||
      this.inFlight.size > 0 ||
      !this.eventBuffer.empty ||
      this.eventsInFlight.size > 0
    ) {
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        this.flush();
      });
    }
    if (this.writer) {
      const exited = new Promise((resolve) => this.writer?.once('exit', resolve));
      this.writer.postMessage({ close: true });
      await exited;
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /**
   * Sends what is waiting as one batch, unless a batch is still being written (it then goes next).
   * Events that are due go when no sign-up waits, or after a sign-up batch: a sign-up waits for at
   * most one short event transaction, and events are not held back for long by a stream of sign-ups.
   */
  private flush(): void {
    if (this.inFlight.size > 0 || this.eventsInFlight.size > 0) return;
    if (this.eventBuffer.due && (this.pending.length === 0 || this.lastSent === 'signups')) return this.sendEvents();
    if (this.pending.length > 0) return this.sendSignups();
    this.drained?.();
  }

  private sendSignups(): void {
    const batch = this.nextBatch++;
    const adds = this.pending;
    this.pending = [];
    this.inFlight.set(batch, adds);
    this.lastSent = 'signups';
    this.writer ??= this.startWriter();
    this.writer.postMessage({ batch, rows: JSON.stringify(adds.map((add) => add.row)) } satisfies Writer.WriterRequest);
  }

  private sendEvents(): void {
    const batch = this.nextBatch++;
    const calls = this.eventBuffer.take();
    this.eventsInFlight.set(batch, calls);
    this.lastSent = 'events';
    const rows = rowsOf(calls).map((row): Writer.EventWriterRow => [row.name, row.pageName, row.params, row.createdAt]);
    this.writer ??= this.startWriter();
    this.writer.postMessage({ batch, events: JSON.stringify(rows) } satisfies Writer.EventWriterRequest);
  }

  private startWriter(): Worker {
    const writer = startWriter(this.file);
    writer.on('message', (result: Writer.WriterResult | Writer.EventWriterResult) =>
      'events' in result ? this.settleEvents(result) : this.settle(result),
    );
    writer.on('error', (error) => {
      // The thread died: what it held fails (the callers get an error, not a false "saved"), and
      // the next sign-up starts a new thread.
      for (const adds of this.inFlight.values()) for (const add of adds) add.reject(error);
      for (const calls of this.eventsInFlight.values()) for (const call of calls) call.reject(error);
      this.inFlight.clear();
      this.eventsInFlight.clear();
      this.writer = undefined;
      this.flush();
    });
    return writer;
  }

  private settleEvents({ batch, events }: Writer.EventWriterResult): void {
    const calls = this.eventsInFlight.get(batch) ?? [];
    this.eventsInFlight.delete(batch);
    const failure =
      events === 'ok'
        ? undefined
        : isSqliteUnavailable(events.code)
          ? new StoreUnavailableError(events.message)
          : new Error(events.message);
    for (const call of calls) {
      if (failure) call.reject(failure);
      else call.resolve();
    }
    this.flush();
  }

  private settle({ batch, results }: Writer.WriterResult): void {
    const adds = this.inFlight.get(batch) ?? [];
    this.inFlight.delete(batch);
    adds.forEach((add, index) => {
      const result =
        'all' in results ? ({ ok: true, referralCode: results.all[index] ?? null } as const) : results[index];
      if (result?.ok) return add.resolve({ referralCode: result.referralCode });
      // A random 122-bit id or 60-bit link code clashing is next to impossible, but an existing record is
      // never overwritten, nor a sign-up lost: it is tried again with new ones.
      if (result && !result.ok && result.idClash && add.clashes < 2) {
        const row = [this.newId(), ...add.row.slice(1)];
        row[WRITER_ROW_INDEX.referralCode] = newReferralCode();
        this.pending.push({ ...add, row, clashes: add.clashes + 1 });
        return;
      }
      if (result && !result.ok && isSqliteUnavailable(result.code))
        return add.reject(new StoreUnavailableError(result.message));
      add.reject(new Error(result && !result.ok ? result.message : 'The sign-up was not written.'));
    });
    this.flush();
  }
}
