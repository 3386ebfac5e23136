/**
 * The module graph stays a tree of layers: no import cycles anywhere in src/ (one type import from
 * the events to the position loader once tied twenty engine files into one cycle), and the
 * rules engines import nothing of the service around them (ESLint checks the purity rules).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(new URL('../../src', import.meta.url).pathname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return p.includes('generated') ? [] : sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Relative imports and re-exports (type-only ones included: they shape the design too). */
function importsOf(file: string, known: Set<string>): string[] {
  const src = readFileSync(file, 'utf8');
  return [...src.matchAll(/^(?:import|export)[^;]*?from\s+'(\.[^']+)'/gms)]
    .map((m) => resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')))
    .filter((d) => known.has(d));
}

/** Strongly connected components with more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('module graph', () => {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f, known)]));

  it('finds the modules (guards the scanner itself)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect([...graph.values()].flat().length).toBeGreaterThan(100);
    expect(cycles(new Map([['a', ['b']], ['b', ['a']], ['c', []]]))).toHaveLength(1);
  });

  it('has no import cycle in src/', () => {
    const found = cycles(graph).map((c) => c.map((f) => relative(SRC, f)).sort());
    expect(found).toEqual([]);
  });
});
