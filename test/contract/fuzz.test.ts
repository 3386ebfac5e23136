/**
 * Contract fuzz (schemathesis-style, with fast-check): for every operation of the committed
 * OpenAPI document, requests generated from its schemas (valid and invalid path, query, header
 * and body values; real and forged seat tokens; live, open and finished matches) are sent to the
 * real app on a random port. A response fails the run when it is a 5xx, has a status the document
 * does not list for that operation, or does not match what the document declares for it (an
 * error that is not problem+json, a body off its schema). Every distinct failure is reported
 * with one request that causes it.
 */
import http from 'node:http';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, STARTERS } from '../api/helpers.js';
import { anyText, headerText, invalidBody, oddCursors, oddNumbers, valid } from './arbitraries.js';
import { contractViolations, operations, type Operation, type Parameter } from './document.js';
import { useClient } from './client.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

interface Fixtures {
  ids: string[];
  tokens: string[];
}

function stringify(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function paramValue(p: Parameter, fx: Fixtures): fc.Arbitrary<string | undefined> {
  const name = p.name.toLowerCase();
  const omit = p.required ? [] : [fc.constant(undefined)];
  if (p.in === 'path') {
    return fc.oneof(
      { arbitrary: fc.constantFrom(...fx.ids), weight: 3 },
      valid(p.schema).map(stringify),
      anyText.filter((x) => x.length > 0),
    );
  }
  if (p.in === 'header') {
    return fc.oneof(
      ...omit,
      valid(p.schema)
        .map(stringify)
        .filter((x) => /^[\x20-\x7e]*$/.test(x))
        .map((x) => x.trim()),
      headerText,
    );
  }
  if (name === 'cursor') return fc.oneof(...omit, oddCursors);
  const type = (p.schema as { type?: string }).type;
  return fc.oneof(...omit, { arbitrary: valid(p.schema).map(stringify), weight: 3 }, type === 'integer' ? oddNumbers : anyText);
}

const authorization = (fx: Fixtures): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(...fx.tokens).map((t) => `Bearer ${t}`),
    fc.constantFrom(...fx.tokens).map((t) => `bEaReR  ${t}`),
    headerText.map((t) => `Bearer ${t}`),
    fc.constantFrom('Bearer', 'Basic dXNlcjpwYXNz', 'Bearer a b', ''),
    headerText,
  );

/** One generated request, as sent and as reported when it breaks the contract. */
interface FuzzRequest {
  operationId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: { raw: string; contentType: string } | undefined;
}

function requestFor(op: Operation, fx: Fixtures): fc.Arbitrary<FuzzRequest> {
  const params = op.parameters;
  const values = fc.tuple(...params.map((p) => paramValue(p, fx)));
  const extraQuery = fc.option(fc.tuple(fc.constantFrom('x', 'after', 'limit', 'text', '__proto__'), anyText), { nil: undefined });
  const auth = op.security.some((s) => 'seatToken' in s) ? authorization(fx) : fc.option(authorization(fx), { nil: undefined, freq: 4 });
  const body = op.body
    ? fc.oneof(
        { arbitrary: valid(op.body).map((v) => ({ raw: JSON.stringify(v), contentType: 'application/json' })), weight: 2 },
        { arbitrary: invalidBody(op.body), weight: 2 },
        ...(op.bodyRequired ? [] : [fc.constant(undefined)]),
      )
    : fc.constant(undefined);
  return fc.record({ values, extraQuery, auth, body }).map(({ values: vs, extraQuery: extra, auth: a, body: b }) => {
    const req: FuzzRequest = { operationId: op.operationId, method: op.method, path: op.path, query: {}, headers: {}, body: b };
    params.forEach((p, i) => {
      const v = vs[i];
      if (v === undefined) return;
      if (p.in === 'path') req.path = req.path.replace(`{${p.name}}`, encodeURIComponent(v));
      else if (p.in === 'query') req.query[p.name] = v;
      else req.headers[p.name] = v;
    });
    if (extra) req.query[extra[0]] = extra[1];
    if (a !== undefined) req.headers.authorization = a;
    return req;
  });
}

interface Answer {
  status: number;
  contentType: string | null;
  headers: Headers;
  text: string | null;
}

/** Seconds to wait for a status line: anything slower fails (as status 0). */
const ANSWER_WITHIN_S = 3;

/**
 * One request on its own connection (node:http, no keep-alive), so a stream left open ties up
 * nothing else. No status line within ANSWER_WITHIN_S seconds is reported as status 0.
 */
function send(baseUrl: string, req: FuzzRequest): Promise<Answer> {
  const qs = new URLSearchParams(req.query).toString();
  const headers: Record<string, string> = { ...req.headers };
  if (req.body) headers['content-type'] = req.body.contentType;
  return new Promise((resolve, reject) => {
    const r = http.request(`${baseUrl}${req.path}${qs ? `?${qs}` : ''}`, { method: req.method, headers, agent: false }, (res) => {
      const h = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
      const contentType = h.get('content-type');
      const answer = { status: res.statusCode ?? 0, contentType, headers: h };
      // A live stream never ends on its own: its status and headers are the answer.
      if (contentType?.startsWith('application/x-ndjson')) {
        res.destroy();
        resolve({ ...answer, text: null });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ ...answer, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    const timer = setTimeout(() => {
      r.destroy();
      resolve({ status: 0, contentType: null, headers: new Headers(), text: `no status line within ${ANSWER_WITHIN_S} s` });
    }, ANSWER_WITHIN_S * 1000);
    r.on('response', () => clearTimeout(timer));
    r.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    r.end(req.body?.raw);
  });
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`OpenAPI fuzz [${backend.name}] (seed ${SEED}, ${RUNS} runs per operation)`, () => {
    const s = useClient(backend);
    const fx: Fixtures = { ids: [], tokens: [] };
    beforeAll(async () => {
      const c = s.client;
      const decks = { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } };
      const live = await c.POST('/v1/matches', { body: { handle: 'fuzz-a', opponentHandle: 'fuzz-b', decks } });
      const open = await c.POST('/v1/matches', { body: { handle: 'fuzz-c', openSeat: true, decks: { p1: decks.p1 } } });
      const done = await c.POST('/v1/matches', { body: { handle: 'fuzz-d', opponentHandle: 'fuzz-e', decks } });
      const resigned = await c.POST('/v1/matches/{id}/actions', {
        params: { path: { id: done.data!.id } },
        headers: { Authorization: `Bearer ${done.data!.tokens.p1}` },
        body: { action: { type: 'resign' } },
      });
      expect(resigned.response.status).toBe(200);
      fx.ids.push(live.data!.id, open.data!.id, done.data!.id, 'no-such-match');
      fx.tokens.push(live.data!.tokens.p1!, live.data!.tokens.p2!, open.data!.token, done.data!.tokens.p2!);
    });

    for (const op of operations) {
      it(`${op.operationId}: no 5xx, no undocumented status, responses as documented`, async () => {
        const failures = new Map<string, FuzzRequest & { status: number }>();
        await fc.assert(
          fc.asyncProperty(requestFor(op, fx), async (req) => {
            const res = await send(s.baseUrl, req);
            const problems = contractViolations(op, res);
            if (res.status >= 500 || res.status === 0)
              problems.unshift(`server error or no answer (${res.status}): ${res.text?.slice(0, 200)}`);
            if (problems.length === 0) return;
            for (const p of problems) {
              const signature = p.replace(/: .*$/s, '');
              if (!failures.has(signature)) failures.set(signature, { ...req, status: res.status, detail: p } as never);
            }
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
        expect([...failures.values()], `seed ${SEED}`).toEqual([]);
      });
    }
  });
}
