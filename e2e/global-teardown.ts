// Removes the run's temporary database.
import { rmSync } from 'node:fs';

export default function globalTeardown(): void {
  const file = process.env.E2E_DATABASE_FILE;
  if (!file) return;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}
