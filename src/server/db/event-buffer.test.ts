import { describe, expect, it, vi } from 'vitest';
import { EVENT_BACKLOG_MAX, EVENT_WRITE_BATCH_MAX, EVENT_WRITE_DELAY_MS, EventBuffer, rowsOf } from './event-buffer.js';
import { StoreUnavailableError } from './database-errors.js';
import type { EventRow } from './events-repository.js';

const row: EventRow = { name: 'page_view', pageName: 'home', params: '{"page_name":"home"}', createdAt: null };
const rows = (count: number) => Array.from({ length: count }, () => row);

describe('EventBuffer', () => {
  it('holds events for a moment, then calls for one write of everything that arrived meanwhile', () => {
    vi.useFakeTimers();
    try {
      const onDue = vi.fn();
      const buffer = new EventBuffer(onDue);
      void buffer.add(rows(2));
      void buffer.add(rows(3));
      expect(buffer.due).toBe(false);
      vi.advanceTimersByTime(EVENT_WRITE_DELAY_MS);
      expect(onDue).toHaveBeenCalledTimes(1);
      expect(buffer.due).toBe(true);
      expect(rowsOf(buffer.take())).toHaveLength(5);
      expect(buffer.due).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it(`splits a large backlog into writes of at most ${EVENT_WRITE_BATCH_MAX} rows, whole calls each`, () => {
    const buffer = new EventBuffer(() => undefined);
    for (let call = 0; call < 100; call += 1) void buffer.add(rows(50));
    buffer.drain();
    const sizes: number[] = [];
    while (buffer.due) sizes.push(rowsOf(buffer.take()).length);
    expect(sizes).toEqual([2000, 2000, 1000]);
    expect(buffer.empty).toBe(true);
  });

  it(`refuses events past ${EVENT_BACKLOG_MAX} waiting, so memory stays bounded while the database is away`, async () => {
    const buffer = new EventBuffer(() => undefined);
    void buffer.add(rows(EVENT_BACKLOG_MAX - 1));
    void buffer.add(rows(1));
    await expect(buffer.add(rows(1))).rejects.toBeInstanceOf(StoreUnavailableError);
    buffer.drain();
    buffer.take();
    void buffer.add(rows(1)); // room again once a batch is taken for writing
    expect(buffer.due).toBe(true);
  });
});
