/**
 * docs/api.md's Pagination section is the one place that says how each list route pages (issue 20):
 * every operation of the OpenAPI document that takes `limit`, `cursor` or `after` is in exactly one
 * of its styles, and each style's answer has the continuation fields it names. New list routes use
 * the convention (cursor + limit → nextCursor), so they land in its row or this test fails.
 */
import { describe, expect, it } from 'vitest';
import { read } from './rule-ids.js';
import { operations, resolve } from '../contract/document.js';

type Json = Record<string, unknown>;

const api = read('docs/api.md');
const section = /\n## Pagination\n([\s\S]*?)\n## /.exec(api)?.[1] ?? '';

/** Style name → the "GET /path" routes its row lists. */
function styles(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || cells[1] === 'Style' || /^-+$/.test(cells[1]!)) continue;
    out.set(
      cells[1]!,
      [...cells[2]!.matchAll(/`(GET|POST) ([^`]+)`/g)].map((m) => `${m[1]} ${m[2]}`),
    );
  }
  return out;
}

/** The 200 answer's top-level properties. */
function answerFields(method: string, path: string): string[] {
  const op = operations.find((o) => o.method === method && o.path === path)!;
  const content = (op.responses['200']!.content ?? {}) as Record<string, { schema: Json }>;
  const schema = resolve<Json>(content['application/json']?.schema);
  return Object.keys((schema?.properties ?? {}) as Json);
}

describe('docs/api.md on pagination', () => {
  it('names one convention for new routes: cursor + limit → nextCursor', () => {
    expect(section, 'a "## Pagination" section').not.toBe('');
    expect(section).toContain('**`cursor` + `limit` → `nextCursor`**');
  });

  it('lists every paginated operation of the document under exactly one style', () => {
    const table = styles();
    expect([...table.keys()].length).toBeGreaterThanOrEqual(2);
    const paged = operations.filter((o) => o.parameters.some((p) => p.in === 'query' && ['limit', 'cursor', 'after'].includes(p.name)));
    expect(paged.length).toBeGreaterThan(0);
    for (const op of paged) {
      const key = `${op.method} ${op.path}`;
      const rows = [...table].filter(([, routes]) => routes.includes(key)).map(([style]) => style);
      expect(rows, `${key} (${op.operationId})`).toHaveLength(1);
    }
    // …and lists nothing that is not a paginated operation.
    const known = new Set(paged.map((o) => `${o.method} ${o.path}`));
    for (const routes of table.values()) for (const r of routes) expect(known, r).toContain(r);
  });

  it("each style's answer has the fields it names", () => {
    const table = styles();
    for (const route of table.get('cursor (the convention)') ?? []) {
      const [method, path] = route.split(' ') as [string, string];
      expect(answerFields(method, path), route).toContain('nextCursor');
    }
    for (const route of table.get('sequence offset') ?? []) {
      const [method, path] = route.split(' ') as [string, string];
      expect(answerFields(method, path), route).toEqual(expect.arrayContaining(['next', 'hasMore']));
    }
  });
});
