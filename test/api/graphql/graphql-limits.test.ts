/**
 * GraphQL abuse and error hygiene: alias and cost limits refuse expensive documents before they
 * run, the standard introspection query still loads, request errors carry codes, and an internal
 * failure says nothing about the server's insides.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Lexer, Source, TokenKind, getIntrospectionQuery } from 'graphql';
import type { MatchStore } from '../../../src/persistence/types.js';
import { createHotSeat, type Harness, useHarness, pglite } from '../helpers.js';
import { rawSocket, waitFor } from '../../../bench/lib/graphql-ws.js';

/** The documented caps (docs/api.md). */
const LIMITS = { maxDocumentBytes: 16 * 1024, maxTokens: 1_000, maxAliases: 30 };

/** The lexical tokens of a document, as graphql-js counts them against maxTokens. */
function tokens(doc: string): number {
  const lexer = new Lexer(new Source(doc));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
}

const gql = (h: Harness, query: string, variables?: Record<string, unknown>) =>
  h.http.post('/graphql').send({ query, ...(variables ? { variables } : {}) });

describe('GraphQL limits (PGlite)', () => {
  const h = useHarness(pglite);
  let id: string;
  beforeAll(async () => {
    id = (await createHotSeat(h.http)).id;
  });

  it('refuses many aliases with too-many-aliases, before executing anything', async () => {
    // 60 within the size and token caps (thousands were refused for their size alone).
    const fields = Array.from({ length: 60 }, (_, i) => `a${i}: events(limit: 500) { events { seq data } }`).join(' ');
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
    const res = await gql(
      h,
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }),
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
    expect(res.body.data.__schema.types.length).toBeGreaterThan(10);
  });

  it('refuses a document over 16 KiB with 413 query-too-large, before parsing it', async () => {
    const pad = '#'.repeat(LIMITS.maxDocumentBytes);
    const res = await gql(h, `{ __typename }\n${pad}`);
    expect(res.status).toBe(413);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'query-too-large', maxBytes: LIMITS.maxDocumentBytes });
    // Just under the cap is served (comments and whitespace are not tokens).
    const under = await gql(h, `{ __typename }\n${pad.slice(0, LIMITS.maxDocumentBytes - 20)}`);
    expect(under.status).toBe(200);
    expect(under.body.data).toEqual({ __typename: 'Query' });
  });

  it('refuses a document of more than 1,000 tokens with too-many-tokens', async () => {
    // A JSON argument of n numbers; lexed here to hit the cap exactly.
    const withTokens = (total: number) => {
      const doc = (n: number) => `mutation { submitAction(matchId: "x", action: [${'0 '.repeat(n)}]) { version } }`;
      const base = tokens(doc(0));
      const d = doc(total - base);
      expect(tokens(d)).toBe(total);
      return d;
    };
    const over = await gql(h, withTokens(LIMITS.maxTokens + 1));
    expect(over.status).toBe(400);
    expect(over.body.errors).toHaveLength(1);
    expect(over.body.errors[0].extensions).toMatchObject({ code: 'too-many-tokens', maxTokens: LIMITS.maxTokens });
    expect(over.body.errors[0].message).not.toMatch(/Syntax Error|more that/);
    const at = await gql(h, withTokens(LIMITS.maxTokens));
    expect(at.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).not.toContain('too-many-tokens');
    expect(at.body.errors[0].extensions.code).toBe('validation-failed');
  });

  it('counts __typename aliases toward the alias limit', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const over = await gql(h, aliases(LIMITS.maxAliases + 1));
    expect(over.status).toBe(400);
    expect(over.body.errors[0].extensions.code).toBe('too-many-aliases');
    expect((await gql(h, aliases(LIMITS.maxAliases))).status).toBe(200);
  });

  it('answers a syntax tree sent as the query with graphql-validation-failed, not JavaScript error text', async () => {
    const trees = [
      { kind: 'Document', definitions: [{ kind: 'OperationDefinition', operation: 'query' }] },
      {
        kind: 'Document',
        definitions: [
          {
            kind: 'OperationDefinition',
            operation: 'query',
            selectionSet: { kind: 'SelectionSet', selections: [{ kind: 'Field', name: { kind: 'Name', value: '__typename' } }] },
          },
        ],
      },
      { kind: 'Document' },
      [],
      null,
      42,
    ];
    for (const tree of trees) {
      const res = await gql(h, JSON.stringify(tree));
      expect(res.status, JSON.stringify(tree)).toBe(400);
      expect(res.body.errors[0].extensions.code, JSON.stringify(tree)).toBe('graphql-validation-failed');
      expect(JSON.stringify(res.body), JSON.stringify(tree)).not.toMatch(/Cannot read|undefined|TypeError/);
    }
  });

  it('over WebSocket: the same size and token caps; a syntax tree instead of text closes the socket with 4400', async () => {
    const base = h.baseUrl();
    const r = rawSocket(base);
    await r.opened;
    r.send({ type: 'connection_init', payload: {} });
    await waitFor(() => r.messages.some((m) => m.type === 'connection_ack'), 'the ack');
    const codeOf = async (id: string, query: string) => {
      r.send({ type: 'subscribe', id, payload: { query } });
      await waitFor(() => r.messages.some((m) => m.id === id), id);
      const m = r.messages.find((x) => x.id === id)!;
      expect(m.type).toBe('error');
      return (m.payload as { extensions: { code: string } }[])[0]!.extensions.code;
    };
    expect(await codeOf('big', `subscription { myTurn { id } }\n#${'x'.repeat(LIMITS.maxDocumentBytes)}`)).toBe('query-too-large');
    expect(await codeOf('tokens', `subscription { matchEvents(matchId: "x") { ${'seq '.repeat(LIMITS.maxTokens)} } }`)).toBe(
      'too-many-tokens',
    );
    r.send({
      type: 'subscribe',
      id: 'tree',
      payload: { query: { kind: 'Document', definitions: [{ kind: 'OperationDefinition', operation: 'subscription' }] } },
    });
    expect(await r.closed).toEqual({ code: 4400, reason: 'Invalid message: payload.query must be GraphQL text' });
    expect(JSON.stringify(r.messages)).not.toMatch(/Cannot read|is not iterable/);
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
  const h = useHarness(pglite, {
    // A store whose history query fails the way a driver does: with internals in its message.
    wrapStore: (store): MatchStore =>
      Object.create(store, {
        listMatches: {
          value: async () => {
            throw new Error(
              'Invalid `prisma.match.findMany()` invocation in /srv/app/src/persistence/prisma-store.ts:212:7 connection reset',
            );
          },
        },
      }),
  });

  it('hides the message and says internal, with the request id', async () => {
    const res = await h.http
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
