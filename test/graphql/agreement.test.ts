/**
 * The comparer of test/graphql/contract-agreement.test.ts on small hand-made pairs: it finds each
 * kind of disagreement, and finds none in a pair that agrees.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildSchema } from 'graphql';
import { compareType, shapeOf } from './agreement.js';

const schema = buildSchema(/* GraphQL */ `
  type Query {
    thing(id: ID!, limit: Int): Thing
  }
  enum Kind {
    a
    b
  }
  type Inner {
    x: Float!
  }
  type Thing {
    id: ID!
    count: Int
    kind: Kind!
    "a or b"
    label: String!
    tags: [String!]!
    inner: Inner!
    extra: String
  }
  input ThingInput {
    name: String!
    size: Int
  }
`);

const agreeing = z.object({
  id: z.string(),
  count: z.number().int().nullable(),
  kind: z.enum(['a', 'b']),
  label: z.enum(['a', 'b']),
  tags: z.array(z.string()),
  inner: z.object({ x: z.number() }),
  extra: z.string().optional(),
});

const problemsOf = (zod: z.ZodType, type = 'Thing', io: 'input' | 'output' = 'output', allow = {}) =>
  compareType(schema, type, shapeOf(zod, io), io, allow).problems;

describe('the GraphQL/Zod comparer', () => {
  it('finds nothing in a pair that agrees', () => {
    expect(problemsOf(agreeing)).toEqual([]);
    expect(problemsOf(z.strictObject({ name: z.string(), size: z.number().int().optional() }), 'ThingInput', 'input')).toEqual([]);
  });

  it('finds a field on one side only, either side', () => {
    expect(problemsOf(agreeing.extend({ more: z.boolean() }))).toEqual(['Thing.more: a Zod field (object) without a GraphQL field']);
    expect(problemsOf(agreeing.omit({ extra: true }))).toEqual([
      expect.stringMatching(/^Thing\.extra: a GraphQL field without a Zod field/),
    ]);
  });

  it('finds nullability that differs, both ways', () => {
    expect(problemsOf(agreeing.extend({ count: z.number().int() }))).toEqual([
      'Thing.count: nullable in GraphQL, but Zod never gives null',
    ]);
    expect(problemsOf(agreeing.extend({ id: z.string().nullable() }))).toEqual([
      'Thing.id: non-null in GraphQL, but Zod lets it be null or absent',
    ]);
    expect(problemsOf(agreeing.extend({ tags: z.array(z.string().nullable()) }))).toEqual([
      'Thing.tags[]: non-null in GraphQL, but Zod lets it be null or absent',
    ]);
  });

  it('finds optionality that differs in an input', () => {
    expect(problemsOf(z.strictObject({ name: z.string().optional(), size: z.number().int().optional() }), 'ThingInput', 'input')).toEqual([
      'ThingInput.name: non-null in GraphQL, but Zod lets it be absent',
    ]);
    expect(problemsOf(z.strictObject({ name: z.string(), size: z.number().int() }), 'ThingInput', 'input')).toEqual([
      'ThingInput.size: nullable in GraphQL, but Zod requires it',
    ]);
  });

  it('finds scalar kinds that differ, nested objects included', () => {
    expect(problemsOf(agreeing.extend({ inner: z.object({ x: z.number().int() }) }))).toEqual(['Inner.x: Zod integer, GraphQL Float']);
    expect(problemsOf(agreeing.extend({ count: z.number().nullable() }))).toEqual(['Thing.count: Zod number, GraphQL Int']);
    expect(problemsOf(agreeing.extend({ tags: z.array(z.boolean()) }))).toEqual(['Thing.tags[]: Zod boolean, GraphQL String']);
    expect(problemsOf(agreeing.extend({ tags: z.string() }))).toEqual(['Thing.tags: a list in GraphQL, a string in Zod']);
  });

  it('finds enum values that differ, and a String that does not name an enum value', () => {
    expect(problemsOf(agreeing.extend({ kind: z.enum(['a', 'c']) }))).toEqual(['Thing.kind: enum Kind has a, b; Zod a, c']);
    expect(problemsOf(agreeing.extend({ label: z.enum(['a', 'b', 'c']) }))).toEqual([
      "Thing.label: a String for Zod's enum (a, b, c); its description does not name c",
    ]);
  });

  it('reads unions as every branch: a field required only where every branch has it', () => {
    const union = z.union([agreeing.extend({ extra: z.string() }), agreeing.omit({ extra: true })]);
    expect(problemsOf(union)).toEqual([]);
    expect(problemsOf(z.union([agreeing, agreeing.extend({ kind: z.literal('c') })]))).toEqual([
      'Thing.kind: enum Kind has a, b; Zod a, b, c',
    ]);
  });

  it("compares a field's arguments as an input", () => {
    expect(problemsOf(z.strictObject({ id: z.string(), limit: z.number().int().optional() }), 'Query.thing', 'input')).toEqual([]);
    expect(problemsOf(z.strictObject({ limit: z.number().int() }), 'Query.thing', 'input')).toEqual([
      expect.stringMatching(/^Query_thing\.id: a GraphQL field without a Zod field/),
      'Query_thing.limit: nullable in GraphQL, but Zod requires it',
    ]);
  });

  it('accepts a difference only where it is allowed, and says which allowances it used', () => {
    const zod = agreeing.extend({ more: z.boolean(), count: z.number().int() }).omit({ extra: true });
    const r = compareType(schema, 'Thing', shapeOf(zod, 'output'), 'output', {
      only: { 'Thing.more': 'REST only', 'Thing.extra': 'GraphQL only' },
      shaped: { 'Thing.count': 'typed otherwise on purpose' },
    });
    expect(r.problems).toEqual([]);
    expect([...r.used].sort()).toEqual(['Thing.count', 'Thing.extra', 'Thing.more']);
  });
});
