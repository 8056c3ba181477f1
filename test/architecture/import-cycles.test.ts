// The library's modules import each other in one direction only (issue 28, item 9; docs/ARCHITECTURE.md):
// no file imports, even for types only, a file that imports it back. Shared types live in leaf modules
// (hooks/record.ts, hooks/thenable.ts, hooks/method-name.ts, dynamics/hook-context.ts, training/context.ts's
// TrainerHandle, native/batch-binding.ts, hooks/triggers/trigger-types.ts), so each folder reads top-down.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const LIB = resolve(__dirname, '../../lib');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

// A relative specifier ('./x.js', '../hooks/index.js') as the .ts file it names.
function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Every relative import and re-export of each file under lib, type-only ones included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(LIB)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles
      .map((ref) => ref.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveImport(file, specifier))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan): each is a set of files in a cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(relative(LIB, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('the checker finds a cycle where there is one', () => {
    const graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
    expect(cycles(graph).map((c) => c.length)).toEqual([3]);
  });

  it('no file under lib imports one that imports it back (types included)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });
});
