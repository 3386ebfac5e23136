/**
 * GraphQL abuse and error hygiene: alias and cost limits refuse expensive documents before they
 * run, the standard introspection query still loads, request errors carry codes, and an internal
 * failure says nothing about the server's insides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import supertest from 'supertest';
import { buildApp, type App } from '../../src/app.js';
import { openStore } from '../../src/persistence/index.js';
import type { MatchStore } from '../../src/persistence/types.js';
import { createHotSeat, startOn, backends, type Harness } from './helpers.js';
import { memoryDatabase } from '../persistence/pglite-template.js';

const gql = (h: Harness, query: string, variables?: Record<string, unknown>) =>
  h.http.post('/graphql').send({ query, ...(variables ? { variables } : {}) });

describe('GraphQL limits (PGlite)', () => {
  let h: Harness;
  let id: string;
  beforeAll(async () => {
    h = await startOn(backends[0]!);
    id = (await createHotSeat(h.http)).id;
  });
  afterAll(() => h.close());

  it('refuses thousands of aliases with too-many-aliases, before executing anything', async () => {
    const fields = Array.from({ length: 2000 }, (_, i) => `a${i}: events(limit: 500) { events { seq data } }`).join(' ');
    const res = await gql(h, `{ match(id: "${id}") { ${fields} } }`);
    expect(res.status).toBe(400);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toContain('too-many-aliases');
    expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
  });

  it('refuses a document over the cost budget with query-too-costly (lists counted by their limit)', async () => {
    const fields = Array.from({ length: 10 }, (_, i) => `a${i}: events(limit: 500) { events { seq type data } }`).join(' ');
    const res = await gql(h, `{ match(id: "${id}") { ${fields} } }`);
    expect(res.status).toBe(400);
    expect(res.body.data ?? null).toBeNull();
    const err = res.body.errors[0];
    expect(err.extensions.code).toBe('query-too-costly');
    expect(err.extensions.cost).toBeGreaterThan(err.extensions.maxCost);
  });

  it('counts a limit passed in variables', async () => {
    const q = `query Q($n: Int) { match(id: "${id}") { a: events(limit: $n) { events { seq type data } } b: events(limit: $n) { events { seq type data } } c: events(limit: $n) { events { seq type data } } d: events(limit: $n) { events { seq type data } } e: events(limit: $n) { events { seq type data } } f: events(limit: $n) { events { seq type data } } } }`;
    const small = await gql(h, q, { n: 5 });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
    const big = await gql(h, q, { n: 500 });
    expect(big.body.errors[0].extensions.code).toBe('query-too-costly');
  });

  it('serves an ordinary full-board query within budget', async () => {
    const res = await gql(
      h,
      `{ match(id: "${id}") { version legalActions { text } events(limit: 100) { events { seq type } } ... on EvonsMatch { board { name zone card { owner facing covered currentDef face { name } } } graveyards { p1 { face { name } } p2 { face { name } } } } } }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.match.board).toHaveLength(49);
  });

  it('answers the standard introspection query in full', async () => {
    const res = await gql(h, getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }));
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
    expect(res.body.data.__schema.types.length).toBeGreaterThan(10);
  });

  it('gives parse and validation errors a code', async () => {
    const parse = await gql(h, '{ match(id: "x" ');
    expect(parse.status).toBe(400);
    expect(parse.body.errors[0].extensions.code).toBe('graphql-parse-failed');
    const invalid = await gql(h, `{ match(id: "${id}") { noSuchField } }`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].extensions.code).toBe('graphql-validation-failed');
    const badVariable = await gql(h, 'query Q($n: Int) { matches(limit: $n) { matches { id } } }', { n: 'lots' });
    expect(badVariable.status).toBe(400);
    expect(badVariable.body.errors[0].extensions.code).toBe('graphql-validation-failed');
  });
});

describe('GraphQL internal errors', () => {
  let app: App;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await openStore(memoryDatabase());
    // A store whose history query fails the way a driver does: with internals in its message.
    const store: MatchStore = Object.create(opened.store, {
      listMatches: {
        value: async () => {
          throw new Error('Invalid `prisma.match.findMany()` invocation in /srv/app/src/persistence/prisma-store.ts:212:7 connection reset');
        },
      },
    });
    app = await buildApp({ store, logger: false });
    await app.ready();
    close = async () => {
      await app.close();
      await opened.close();
    };
  });
  afterAll(() => close());

  it('hides the message and says internal, with the request id', async () => {
    const res = await supertest(app.server)
      .post('/graphql')
      .set('x-request-id', 'req-graphql-internal-1')
      .send({ query: '{ matches(handle: "alice") { matches { id } } }' });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/prisma|\/srv\/|\.ts|connection reset/i);
    const err = res.body.errors[0];
    expect(err.extensions.code).toBe('internal');
    expect(err.extensions.requestId).toBe('req-graphql-internal-1');
    expect(err.message).toContain('req-graphql-internal-1');
  });
});
