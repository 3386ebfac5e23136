/**
 * fast-check arbitraries from the OpenAPI document's JSON schemas: values the schema accepts
 * (boundaries included, as schemathesis does) and values it may not (wrong types, out of range,
 * unknown fields, odd text), for path, query, header and body.
 */
import fc from 'fast-check';
import { resolve } from './document.js';

type Json = Record<string, unknown>;

const INT32_MAX = 2 ** 31 - 1;

/** A value the schema accepts. */
export function valid(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (!s || typeof s !== 'object') return fc.anything();
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alts = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (alts) return fc.oneof(...alts.map((a) => valid(a, depth + 1)));
  if (Array.isArray(s.allOf)) return valid(s.allOf[0], depth + 1);
  if (Array.isArray(s.type)) return fc.oneof(...(s.type as string[]).map((t) => valid({ ...s, type: t }, depth)));
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = typeof s.minimum === 'number' ? s.minimum : -1000;
      const max = typeof s.maximum === 'number' ? s.maximum : 1000;
      // Any value in range, and the boundaries themselves (however large).
      return fc.oneof(fc.integer({ min: Math.max(min, -INT32_MAX), max: Math.min(max, INT32_MAX) }), fc.constantFrom(min, max));
    }
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(typeof s.minimum === 'number' ? { min: s.minimum } : {}),
        ...(typeof s.maximum === 'number' ? { max: s.maximum } : {}),
      });
    case 'string': {
      const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
      const maxLength = typeof s.maxLength === 'number' ? s.maxLength : 40;
      if (typeof s.pattern === 'string') {
        return fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length >= minLength && x.length <= maxLength);
      }
      return fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 40)) });
    }
    case 'array': {
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.min(typeof s.maxItems === 'number' ? s.maxItems : 3, Math.max(minLength, 3));
      return fc.array(valid(s.items, depth + 1), { minLength, maxLength });
    }
    case 'object':
    default: {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = (s.required ?? []) as string[];
      // Deep in a schema, only what is required, so values stay small.
      const keys = Object.keys(props).filter((k) => depth < 4 || required.includes(k));
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const k of keys) model[k] = valid(props[k], depth + 1);
      return fc.record(model, { requiredKeys: required.filter((k) => k in model) });
    }
  }
}

/** Text a header can carry (visible ASCII and spaces, not at the ends: fetch trims those). */
export const headerText = fc
  .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 })
  .map((x) => x.trim());

/** Any text, control characters and NUL included. */
export const anyText = fc.string({ unit: 'binary', maxLength: 80 });

/** Numbers and near-numbers a query string may carry that an integer parameter may not accept. */
export const oddNumbers = fc.constantFrom(
  '-1',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '1e3',
  '1e400',
  '0x1f',
  '1.5',
  '',
  'NaN',
  'Infinity',
  '-0',
  '٣',
  '9'.repeat(40),
  ' 1',
  '1 ',
);

/** History cursors: base64url JSON [createdAt, id], crafted. */
export const oddCursors = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        '2026-01-01T00:00:00.000Z',
        '+275760-09-13T00:00:00.000Z',
        '-271821-04-20T00:00:00.000Z',
        '0000-01-01T00:00:00Z',
        '-000001-01-01T00:00:00Z',
        '9999-12-31T23:59:59.999Z',
        '+010000-01-01T00:00:00Z',
        '1',
        '0',
        'garbage',
      ),
      fc.oneof(fc.constantFrom('a', 'a\u0000b', '\u0000', '', "'; drop table matches; --", 'x'.repeat(300)), anyText),
    )
    .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
  fc.constantFrom('', '%', 'W10', 'bnVsbA', 'e30', 'WzEsMl0'),
  anyText,
);

/** A body the schema should refuse, or that is not even JSON. */
export function invalidBody(schema: unknown): fc.Arbitrary<{ raw: string; contentType: string }> {
  const json = (v: unknown) => ({ raw: JSON.stringify(v), contentType: 'application/json' });
  const base = valid(schema).filter((v): v is Json => !!v && typeof v === 'object' && !Array.isArray(v));
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map(json),
    base.chain((v) =>
      fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })).map(([k, x]) => json({ ...v, [k]: x })),
    ),
    base.chain((v) => {
      const keys = Object.keys(v);
      if (keys.length === 0) return fc.constant(json(v));
      return fc
        .tuple(fc.constantFrom(...keys), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)))
        .map(([k, x]) => json({ ...v, [k]: x }));
    }),
    fc
      .constantFrom('{', '', 'null', '[]', '{"a":', '\u0000', '{"action":{"type":"pass"}}x')
      .map((raw) => ({ raw, contentType: 'application/json' })),
    valid(schema).map((v) => ({ raw: JSON.stringify(v), contentType: 'text/plain' })),
    valid(schema).map((v) => ({ raw: JSON.stringify(v), contentType: 'application/x-www-form-urlencoded' })),
  );
}
