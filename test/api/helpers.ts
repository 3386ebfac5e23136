/**
 * Helpers for the API suites: the real app (buildApp) on the real store (PGlite in memory,
 * and PostgreSQL in a throw-away database when reachable; see test/persistence/backends.ts),
 * driven over HTTP with Supertest against app.server. Starting it: harness.ts (useHarness).
 */
import http from 'node:http';
import type { Response } from 'supertest';
import { expect } from 'vitest';
import type { Http } from './harness.js';

export * from './harness.js';

/** Checks `cond` every 20 ms, `tries` times at most; throws naming `what` when it never held. */
export async function waitFor(cond: () => boolean, what: string, tries = 500): Promise<void> {
  for (let i = 0; i < tries && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}

/** A supertest parser that keeps a body as raw bytes (pictures, exports): `.buffer(true).parse(binary)`. */
export const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

export const STARTERS = ['starter-verdant-quake', 'starter-storm-shade', 'starter-ember-tide'] as const;

export interface Created {
  id: string;
  tokens: { p1: string; p2: string };
  version: number;
}

export async function createHotSeat(http: Http, extra: Record<string, unknown> = {}): Promise<Created> {
  const res = await http
    .post('/v1/matches')
    .send({
      handle: 'alice',
      opponentHandle: 'bob',
      decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } },
      ...extra,
    })
    .expect(201);
  return { id: res.body.id, tokens: res.body.tokens, version: res.body.version };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A registered player: its handle and its token (every scope). */
export interface RegisteredPlayer {
  handle: string;
  token: string;
}

let registered = 0;

/**
 * Registers a player (a bot with `bot`) with a fresh handle: `prefix` and a number counted per
 * test process. The one registration helper of the API suites.
 */
export async function registerPlayer(http: Http, prefix: string, opts: { bot?: boolean } = {}): Promise<RegisteredPlayer> {
  const handle = `${prefix}${++registered}`;
  const res = await http
    .post('/v1/players')
    .send({ handle, ...(opts.bot ? { bot: true } : {}) })
    .expect(201);
  return { handle, token: res.body.token as string };
}

/** A GraphQL request over HTTP, as a seat (token) or a spectator (none). */
export function graphqlRequest(h: { http: Http }, query: string, variables: Record<string, unknown> = {}, token?: string) {
  const req = h.http.post('/graphql').send({ query, variables });
  return token ? req.set(bearer(token)) : req;
}

/** The deciding seat, the version and its first legal action. */
export async function nextMove(h: { http: Http }, id: string, tokens: Record<'p1' | 'p2', string>) {
  const v = await h.http.get(`/v1/matches/${id}`).expect(200);
  const seat = v.body.game.pending.seat as 'p1' | 'p2';
  const legal = await h.http.get(`/v1/matches/${id}/legal-actions`).set(bearer(tokens[seat])).expect(200);
  return { seat, version: v.body.version as number, action: legal.body.actions[0].action as Record<string, unknown> };
}

/** Small seeded PRNG (mulberry32) so a failing random match can be replayed from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function expectProblem(res: { status: number; headers: Record<string, string>; body: unknown }, status: number, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const b = res.body as { type: string; title: string; status: number; code: string };
  expect(b.status).toBe(status);
  expect(typeof b.type).toBe('string');
  expect(typeof b.title).toBe('string');
  if (code) expect(b.code).toBe(code);
  return b;
}

/**
 * Opens an NDJSON stream with node:http and collects its lines until it ends, counting the blank
 * keep-alive lines apart (the stream, revocation and seat-token suites).
 */
export function openStream<L = Record<string, unknown>>(base: string, path: string, token?: string) {
  const lines: L[] = [];
  let blank = 0;
  let buf = '';
  let status = 0;
  let contentType = '';
  let req!: http.ClientRequest;
  const ended = new Promise<void>((resolve, reject) => {
    req = http.get(base + path, { headers: token ? bearer(token) : {} }, (res) => {
      status = res.statusCode ?? 0;
      contentType = String(res.headers['content-type'] ?? '');
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim() === '') blank++;
          else lines.push(JSON.parse(line) as L);
        }
      });
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  return {
    lines,
    ended,
    status: () => status,
    contentType: () => contentType,
    blank: () => blank,
    close: () => {
      // A stream closed on purpose: its reset is not an error.
      ended.catch(() => undefined);
      req.destroy();
    },
  };
}
