/**
 * The client's typed problem codes (src/problem.ts) against what the server can send: every
 * `code` the service, the HTTP layer and the rules engines write (read from their sources), and
 * every code the OpenAPI document names. A new code on the server fails here until the client
 * knows it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_CODES, SERVICE_CODES } from '../src/index.js';
import { ERROR_CODES } from '../../../src/games/evons/errors.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const known = new Set<string>([...SERVICE_CODES, ...RULE_CODES]);

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.includes('generated'))
    .map((f) => ({ file: join(dir, f), text: readFileSync(join(ROOT, dir, f), 'utf8') }));
}

/** Codes as the server writes them: `code: 'x'`, ternaries of them, `problem(431, 'x'`, `err('X'`, `fail('X'`. */
function codesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bcode:\s*([^,\n}]+)/g)) {
    // In `code: cond === 'x' ? 'a' : 'b'` the codes are the branches, not the condition.
    const expr = m[1]!.includes('?') ? m[1]!.slice(m[1]!.indexOf('?')) : m[1]!;
    for (const q of expr.matchAll(/'([a-z][a-z-]+|[A-Z][A-Z_]+)'/g)) out.push(q[1]!);
  }
  // The call may be broken over lines (the formatter does it past 140 characters).
  for (const m of text.matchAll(/\bproblem\(\s*\d{3},\s*'([a-z-]+)'/g)) out.push(m[1]!);
  for (const m of text.matchAll(/\b(?:err|fail|illegal)\(\s*'([A-Z][A-Z_]+)'/g)) out.push(m[1]!);
  return out;
}

describe('problem codes', () => {
  const server = sources('src').flatMap(({ file, text }) => codesIn(text).map((code) => ({ file, code })));

  it('finds the codes in the server sources (guards the scanner)', () => {
    const codes = new Set(server.map((c) => c.code));
    for (const c of ['version-conflict', 'headers-too-large', 'shutting-down', 'NOT_YOUR_DECISION', 'ZONE_NOT_ADJACENT', 'ABORT_TOO_LATE'])
      expect(codes).toContain(c);
    expect(codes.size).toBeGreaterThan(50);
  });

  it('knows every code the server and its engines can send', () => {
    // Not problem codes: Zod's issue code in the replay-file parser, and the Node-style error
    // code the webhook address guard gives its own Error (never sent to a client).
    const notProblems = new Set(['custom', 'EPRIVATE']);
    const missing = server.filter((c) => !known.has(c.code) && !notProblems.has(c.code)).map((c) => `${c.file}: ${c.code}`);
    expect(missing).toEqual([]);
  });

  it("lists the Evons engine's reasons exactly as the engine exports them", () => {
    expect(RULE_CODES).toEqual(expect.arrayContaining([...ERROR_CODES]));
  });

  it('knows every code the OpenAPI Problem schema names', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'openapi/openapi.json'), 'utf8'));
    const described: string = doc.components.schemas.Problem.properties.code.description;
    // Words such as machine-readable are not codes; the illegal-action named there is a problem type.
    const named = [...described.matchAll(/\b([a-z]+(?:-[a-z]+)+)\b/g)]
      .map((m) => m[1]!)
      .filter((c) => !c.startsWith('machine-') && c !== 'illegal-action');
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((c) => !known.has(c))).toEqual([]);
  });

  // It once named 431 `request-header-fields-too-large`; the server sends `headers-too-large`.
  it('the codes the OpenAPI description names in backticks are ones the server sends', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'openapi/openapi.json'), 'utf8'));
    const headers = new Set(['no-store', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
    const named = [...(doc.info.description as string).matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)]
      .map((m) => m[1]!)
      .filter((c) => !headers.has(c));
    expect(named.filter((c) => !known.has(c))).toEqual([]);
  });
});
