// Test helper: a fresh SQLite file in a temporary folder, removed after the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

export function tempDatabaseFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-test-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'signups.db');
}
