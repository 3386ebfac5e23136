/**
 * CORS for web apps on other origins (issue 20, item 1), at the HTTP level: the preflight names
 * the methods and the request headers the API reads; answers expose the headers a client acts
 * on; problems carry the CORS headers too (4xx, 413, the router's own rejections, 429, 503 while
 * closing), so a page can read them; a plain OPTIONS stays a problem; a list of origins admits only
 * those and keeps Vary: Origin; `none` turns CORS off; credentials are never allowed.
 * The browser side (a page on another origin playing a match): test/browser/cors.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { buildApp, type App, type BuildAppOptions } from '../../../src/app.js';
import { openStore } from '../../../src/persistence/index.js';
import WebSocket from 'ws';
import { baseUrlOf, bearer, createHotSeat, expectProblem, localHttp, nextMove, pglite, useHarness, type Http } from '../helpers.js';
import { memoryDatabase } from '../../persistence/pglite-template.js';

const PAGE = 'https://app.example.com';

/** An app a test started itself (start), closed after it. */
interface Server {
  app: App;
  http: Http;
  close(): Promise<void>;
}

const started: Server[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});

/** The app on a fresh in-memory database (closed after the test unless told); `beforeReady` may add hooks (they must come before ready). */
async function start(
  opts: Omit<BuildAppOptions, 'store' | 'logger'> = {},
  beforeReady?: (app: App) => void,
  closeAfterEach = true,
): Promise<Server> {
  const opened = await openStore(memoryDatabase());
  const app = await buildApp({ store: opened.store, logger: false, ...opts });
  beforeReady?.(app);
  await app.ready();
  const s = {
    app,
    http: await localHttp(app),
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
  if (closeAfterEach) started.push(s);
  return s;
}

const list = (h: string | undefined) =>
  (h ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

function preflight(http: Http, path: string, method: string, headers: string, origin = PAGE) {
  return http.options(path).set({ origin, 'access-control-request-method': method, 'access-control-request-headers': headers });
}

/** What a page on `origin` may read of `res`: allowed at all, and the exposed headers. */
function expectReadable(res: { headers: Record<string, string> }, origin: string | '*' = '*') {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expect(list(res.headers.vary)).toContain('origin');
  return list(res.headers['access-control-expose-headers']);
}

const READ_HEADERS = [
  'authorization',
  'content-type',
  'if-match',
  'if-none-match',
  'idempotency-key',
  'prefer',
  'last-event-id',
  'x-request-id',
];
const EXPOSED = [
  'etag',
  'location',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'preference-applied',
  'idempotent-replayed',
  'x-request-id',
  'allow',
];

describe('CORS, any origin (the default)', () => {
  const h = useHarness(pglite, { rateLimitPerMinute: 1000 });

  it('a preflight is 204 with every method the routes answer, the request headers the API reads, a max age and no credentials', async () => {
    const m = await createHotSeat(h.http);
    const res = await preflight(
      h.http,
      `/v1/matches/${m.id}/actions`,
      'POST',
      'authorization,content-type,if-match,idempotency-key,prefer',
    ).expect(204);
    expect(res.text).toBe('');
    expectReadable(res);
    expect(list(res.headers['access-control-allow-methods']).sort()).toEqual(['delete', 'get', 'head', 'post']);
    expect(list(res.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(READ_HEADERS));
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    // The event stream (Last-Event-ID) and GraphQL have theirs too.
    await preflight(h.http, `/v1/matches/${m.id}/stream`, 'GET', 'last-event-id').expect(204);
    await preflight(h.http, '/graphql', 'POST', 'authorization,content-type').expect(204);
  });

  it('answers expose the headers a client acts on, and carry them: Location, ETag, Preference-Applied, Idempotent-Replayed, the rate limit, X-Request-Id', async () => {
    const created = await h.http
      .post('/v1/matches')
      .set('origin', PAGE)
      .send({
        handle: 'alice',
        opponentHandle: 'bob',
        decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } },
      })
      .expect(201);
    expect(expectReadable(created)).toEqual(expect.arrayContaining(EXPOSED));
    expect(created.headers.location).toBe(`/v1/matches/${created.body.id}`);
    const m = { id: created.body.id as string, tokens: created.body.tokens as { p1: string; p2: string } };
    const next = await nextMove(h, m.id, m.tokens);
    const act = () =>
      h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set({
          origin: PAGE,
          ...bearer(m.tokens[next.seat]),
          'if-match': `"${next.version}"`,
          'idempotency-key': 'k-1',
          prefer: 'return=minimal',
        })
        .send({ action: next.action })
        .expect(200);
    const first = await act();
    const again = await act();
    for (const r of [first, again]) {
      expect(expectReadable(r)).toEqual(expect.arrayContaining(EXPOSED));
      for (const h of ['etag', 'preference-applied', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id'])
        expect(r.headers[h], h).toBeTruthy();
    }
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('problems carry the CORS headers: 4xx, 405 with Allow, 413, the router rejections (bad URL, 414)', async () => {
    const m = await createHotSeat(h.http);
    const cases: [string, () => supertest.Test, number, string][] = [
      ['unknown match', () => h.http.get('/v1/matches/no-such-match'), 404, 'match-not-found'],
      ['unknown route', () => h.http.get('/v1/nothing-here'), 404, 'not-found'],
      ['bad body', () => h.http.post('/v1/matches').send({ handle: 7 }), 400, 'validation-failed'],
      [
        'stale If-Match',
        () =>
          h.http
            .post(`/v1/matches/${m.id}/actions`)
            .set(bearer(m.tokens.p1))
            .set('if-match', '"1"')
            .send({ action: { type: 'resign' } }),
        409,
        'version-conflict',
      ],
      ['no token', () => h.http.post(`/v1/matches/${m.id}/actions`).send({ action: { type: 'resign' } }), 401, 'missing-token'],
      ['text/plain', () => h.http.post('/v1/matches').set('content-type', 'text/plain').send('x'), 415, 'unsupported-media-type'],
      ['huge body', () => h.http.post('/v1/matches').send({ pad: 'x'.repeat(300 * 1024) }), 413, 'body-too-large'],
      ['method', () => h.http.delete(`/v1/matches/${m.id}`), 405, 'method-not-allowed'],
      ['bad URL', () => h.http.get('/v1/matches/%E0%A4%A'), 400, 'bad-url'],
      ['path too long', () => h.http.get(`/v1/matches/${'a'.repeat(1000)}`), 414, 'uri-too-long'],
    ];
    for (const [what, send, status, code] of cases) {
      const res = await send().set('origin', PAGE);
      expectProblem(res, status, code);
      expect(expectReadable(res), what).toEqual(expect.arrayContaining(EXPOSED));
    }
  });

  it('a 429 is readable with its Retry-After; preflights do not spend the budget', async () => {
    const { http } = await start({ rateLimitPerMinute: 2 });
    for (let i = 0; i < 5; i++) await preflight(http, '/v1/decks', 'GET', 'authorization').expect(204);
    for (let i = 0; i < 2; i++) await http.get('/v1/decks').set('origin', PAGE).expect(200);
    const limited = await http.get('/v1/decks').set('origin', PAGE);
    expectProblem(limited, 429, 'rate-limited');
    expect(expectReadable(limited)).toContain('retry-after');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('the 503 shutting-down of a closing server is readable, with its Retry-After', async () => {
    // Held in close() after the app's own preClose (which starts refusing), before the server stops listening.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let closing!: () => void;
    const isClosing = new Promise<void>((r) => (closing = r));
    const { app, http } = await start({}, (a) =>
      a.addHook('preClose', async () => {
        closing();
        await held;
      }),
    );
    const closed = app.close();
    await isClosing;
    const res = await http.get('/v1/decks').set('origin', PAGE);
    release();
    await closed;
    expectProblem(res, 503, 'shutting-down');
    expect(expectReadable(res)).toContain('retry-after');
  });

  it('a plain OPTIONS (no preflight headers) is no preflight: 405 with Allow on a known path, 404 elsewhere', async () => {
    const known = await h.http.options('/v1/matches');
    expectProblem(known, 405, 'method-not-allowed');
    expect(list(known.headers.allow).sort()).toEqual(['get', 'head', 'post']);
    expectProblem(await h.http.options('/v1/nothing-here'), 404, 'not-found');
    // An Origin alone (a browser's actual OPTIONS request after its preflight) is no preflight either.
    expectProblem(await h.http.options('/v1/matches').set('origin', PAGE), 405, 'method-not-allowed');
  });
});

describe('CORS, a list of origins', () => {
  it("admits the listed origins (reflected, Vary: Origin kept beside the routes' own Vary) and no other", async () => {
    const { http } = await start({ corsOrigins: [PAGE, 'http://localhost:5173'] });
    const m = await createHotSeat(http);
    const pre = await preflight(http, `/v1/matches/${m.id}/actions`, 'POST', 'authorization,content-type').expect(204);
    expectReadable(pre, PAGE);
    const view = await http
      .get(`/v1/matches/${m.id}`)
      .set({ origin: 'http://localhost:5173', ...bearer(m.tokens.p1) })
      .expect(200);
    expectReadable(view, 'http://localhost:5173');
    expect(list(view.headers.vary)).toEqual(expect.arrayContaining(['authorization', 'origin']));

    const other = 'https://evil.example';
    const refused = await preflight(http, `/v1/matches/${m.id}/actions`, 'POST', 'authorization', other);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    const read = await http.get(`/v1/matches/${m.id}`).set('origin', other).expect(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(list(read.headers.vary)).toContain('origin');
    const badUrl = await http.get('/v1/matches/%E0%A4%A').set('origin', other);
    expect(badUrl.headers['access-control-allow-origin']).toBeUndefined();
    // Without Origin (curl, a server): the API answers as ever, without CORS headers.
    expect((await http.get('/v1/decks').expect(200)).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS off (none)', () => {
  it('sends no CORS headers and does not answer preflights', async () => {
    const { http } = await start({ corsOrigins: 'none' });
    const pre = await preflight(http, '/v1/matches', 'POST', 'content-type');
    expectProblem(pre, 405, 'method-not-allowed');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await http.get('/v1/decks').set('origin', PAGE).expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toBeUndefined();
  });
});

describe('WebSockets follow CORS_ORIGINS (browsers apply no CORS to them, but send Origin)', () => {
  /** How a WebSocket upgrade to /graphql from `origin` ends: open, or the refusal's status and problem code. */
  async function upgrade(base: string, origin: string | undefined): Promise<'open' | { status: number; code: string }> {
    const url = `${base.replace(/^http/, 'ws')}/graphql`;
    const ws = new WebSocket(url, 'graphql-transport-ws', origin === undefined ? {} : { origin });
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        ws.close();
        resolve('open');
      });
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          // /graphql answers problems in GraphQL's shape (extensions.code), as its other refusals.
          const b = JSON.parse(body) as { code?: string; errors?: { extensions?: { code?: string } }[] };
          resolve({ status: res.statusCode ?? 0, code: b.code ?? b.errors?.[0]?.extensions?.code ?? '' });
        });
      });
      ws.once('error', reject);
    });
  }

  it("a list admits listed pages, the server's own origin and clients that send no Origin; another page gets 403 origin-not-allowed", async () => {
    const { app } = await start({ corsOrigins: [PAGE] });
    const base = await baseUrlOf(app);
    expect(await upgrade(base, PAGE)).toBe('open');
    expect(await upgrade(base, undefined)).toBe('open');
    expect(await upgrade(base, base)).toBe('open');
    expect(await upgrade(base, 'https://evil.example')).toEqual({ status: 403, code: 'origin-not-allowed' });
  });

  it("any origin (the default) admits every page; none admits only the server's own origin and clients without one", async () => {
    const any = await start();
    expect(await upgrade(await baseUrlOf(any.app), 'https://evil.example')).toBe('open');
    const none = await start({ corsOrigins: 'none' });
    const base = await baseUrlOf(none.app);
    expect(await upgrade(base, base)).toBe('open');
    expect(await upgrade(base, undefined)).toBe('open');
    expect(await upgrade(base, PAGE)).toEqual({ status: 403, code: 'origin-not-allowed' });
  });
});
