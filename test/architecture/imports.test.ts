/**
 * The module graph stays a tree of layers: no import cycles anywhere in src/ (one type import from
 * the events to the position loader once tied twenty engine files into one cycle), the rules
 * engines import nothing of the service around them (ESLint checks the purity rules), and the
 * layer leaks once removed stay removed (LAYER_RULES).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
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

/** The layer of a file: its folder under src/, or ROOT for the composition root (app.ts, server.ts, openapi-doc.ts). */
const ROOT = '(src/*.ts)';
const layerOf = (file: string): string => {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0]! : ROOT;
};

/** Imports that must not exist: [from layer, to layer, why]. */
const LAYER_RULES: [string, string, string][] = [
  ['config', 'persistence', 'the configuration reads the environment; the store interprets its own settings (DATA_DIR)'],
  ['replay', 'service', 'replay files and their verifier stand alone (npm run verify); the service writes them, not the reverse'],
  ['replay', 'persistence', 'replay files stand alone'],
  ['persistence', 'service', 'the store knows nothing of the service above it'],
  ['persistence', 'http', 'the store knows nothing of HTTP'],
  ['persistence', 'graphql', 'the store knows nothing of the APIs'],
  ['graphql', 'http', 'the two APIs share through src/contract and the service (GraphQL once imported REST\'s schemas, problem statuses and budgets)'],
  ['http', 'graphql', 'the two APIs share through src/contract and the service'],
  ['contract', 'http', 'the contract is what both APIs import'],
  ['contract', 'graphql', 'the contract is what both APIs import'],
  ...['service', 'http', 'graphql', 'persistence', 'config', 'contract', 'replay', 'pictures'].map(
    (layer): [string, string, string] => ['ai', layer, 'the computer player is pure: a seat\'s knowledge in, an action out, nothing of the service around it'],
  ),
  ['core', 'ai', 'the engines know nothing of the computer player that drives them'],
  ['games', 'ai', 'the engines know nothing of the computer player that drives them'],
  ...['ai', 'config', 'contract', 'core', 'games', 'graphql', 'http', 'persistence', 'pictures', 'replay', 'service'].map(
    (layer): [string, string, string] => [layer, ROOT, 'only the composition root assembles the app (http/openapi-doc.ts once imported app.ts)'],
  ),
];

/** Every import that breaks a rule, as "from → to (why)". */
function layerViolations(graph: Map<string, string[]>, rules: [string, string, string][]): string[] {
  const out: string[] = [];
  for (const [file, deps] of graph) {
    for (const dep of deps) {
      const rule = rules.find(([from, to]) => layerOf(file) === from && layerOf(dep) === to);
      if (rule) out.push(`${relative(SRC, file)} → ${relative(SRC, dep)} (${rule[2]})`);
    }
  }
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

  it('finds a layer violation when there is one (guards the rule check itself)', () => {
    const at = (f: string) => join(SRC, f);
    const sample = new Map([[at('http/x.ts'), [at('app.ts')]], [at('config/env.ts'), [at('persistence/database.ts'), at('http/cors.ts')]]]);
    expect(layerViolations(sample, LAYER_RULES)).toHaveLength(2);
    for (const [from, to] of LAYER_RULES) expect(new Set(files.map(layerOf)), `${from} → ${to}`).toContain(from);
  });

  it('keeps the layers apart: none of the imports LAYER_RULES forbids', () => {
    expect(layerViolations(graph, LAYER_RULES)).toEqual([]);
  });
});

describe('what the store keeps', () => {
  it('no HTTP status: an idempotency record is an accepted action\'s answer (the status_code column was dropped)', () => {
    const schema = readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8');
    const model = /model IdempotencyKey \{([^}]*)\}/.exec(schema)?.[1];
    expect(model).toBeDefined();
    expect(model).toContain('requestHash');
    expect(model).not.toMatch(/status/i);
  });
});
