// What the backup commands say of a database or a copy: its people, and every table with its rows.
import { number, plural } from '../shared/plain-numbers.js';
import type { TableRows } from '../server/db/database-inspection.js';

/** "It holds 1,204 people:" and one line per table, the counts in a column. */
export function describeTables(tables: TableRows[]): string {
  const people = tables.find((table) => table.table === 'signups')?.rows ?? 0;
  const width = Math.max(...tables.map((table) => table.table.length), 10);
  const lines = tables.map((table) => `  ${table.table.padEnd(width)}  ${number(table.rows).padStart(9)}`);
  return [`It holds ${plural(people, 'person', 'people')}:`, ...lines].join('\n');
}
