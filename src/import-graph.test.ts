// No import circles anywhere in src/, type-only imports included: import-x/no-cycle (eslint.config.js)
// does not follow `import type` lines, and a circle of types still ties two modules together.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname);
const FIXTURES = path.join(SRC, 'test-fixtures', 'lint');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-fixtures' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative import of each file (static, type-only, re-exports and dynamic), resolved to a file. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const resolve = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined;
    const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
    return [`${base}.ts`, `${base}.tsx`, base].find((candidate) => known.has(candidate));
  };
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.map((imported) => resolve(file, imported.fileName));
      return [file, [...new Set(targets.filter((target): target is string => target !== undefined))]];
    }),
  );
}

/** The circles in the graph, each as the files around it (Tarjan's strongly connected components). */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(path.relative(SRC, member));
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const fixture = (...names: string[]) => names.map((name) => path.join(FIXTURES, name));

describe('the import graph', () => {
  it('has no circle in src/, counting type-only imports', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(circles(importGraph(files))).toEqual([]);
  });

  it('finds a circle made only of type imports', () => {
    expect(circles(importGraph(fixture('type-cycle-a.ts', 'type-cycle-b.ts')))).toEqual([
      ['test-fixtures/lint/type-cycle-a.ts', 'test-fixtures/lint/type-cycle-b.ts'],
    ]);
  });

  it('finds a circle through a .tsx file, and none in a one-way chain', () => {
    expect(circles(importGraph(fixture('cycle-label.ts', 'cycle-view.tsx', 'chain-a.ts', 'chain-b.ts')))).toEqual([
      ['test-fixtures/lint/cycle-label.ts', 'test-fixtures/lint/cycle-view.tsx'],
    ]);
  });
});
