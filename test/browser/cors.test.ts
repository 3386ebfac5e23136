/**
 * A web app on another origin uses the API from Chromium (issue 20, item 1): a page served by a
 * second local HTTP server (another port: another origin) creates a hot-seat match with fetch,
 * plays it with If-Match, Idempotency-Key and Prefer (preflighted requests), reads ETag,
 * Location, Preference-Applied, Idempotent-Replayed, X-Request-Id and the rate-limit headers
 * from script, reads a problem's body, and follows the match with an EventSource (as a
 * spectator: EventSource sends no Authorization) to its end. With a list of origins, a listed
 * page works and another page's fetch and EventSource are refused by the browser.
 * Skips, saying so, only when no Chromium is installed and CI is not set.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchChromium, serve, type Served } from './fixture.js';

const skip = browserSkipReason();
if (skip) console.warn(`[browser tests] skipping the CORS suite: ${skip}`);

/**
 * The web app: `call` is its fetch wrapper (what script can read of an answer: the status, the
 * headers the API exposes, the body), `follow` its EventSource. The API's base is in ?api=.
 */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Another origin</title>
<script>
const API = new URL(location.href).searchParams.get('api');
const READ = ['etag', 'location', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset',
  'preference-applied', 'idempotent-replayed', 'x-request-id', 'content-type'];
async function call(method, path, { token, body, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.authorization = 'Bearer ' + token;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(API + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const read = {};
  for (const name of READ) if (res.headers.get(name) !== null) read[name] = res.headers.get(name);
  return { status: res.status, headers: read, body: text ? JSON.parse(text) : null };
}
// var: a property of window, which the test reads.
var followed = { events: [], end: null, errors: 0, source: null };
function follow(id) {
  const source = new EventSource(API + '/v1/matches/' + id + '/stream');
  followed.source = source;
  source.addEventListener('match-event', (e) => followed.events.push(JSON.parse(e.data)));
  source.addEventListener('end', (e) => { followed.end = JSON.parse(e.data); source.close(); });
  source.addEventListener('error', () => { followed.errors++; });
}
</script>
<p>A web app on another origin.</p>`;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}

interface PageWindow {
  call(method: string, path: string, init?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  follow(id: string): void;
  followed: { events: { seq: number; type: string }[]; end: unknown; errors: number; source: EventSource | null };
}

/** A plain HTTP server for the page, on a free port of its own. */
async function pageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

const call = (page: Page, method: string, path: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  page.evaluate(([m, p, i]) => (window as unknown as PageWindow).call(m, p, i), [method, path, init] as const);

const DECKS = { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } };

describe.skipIf(skip !== null)('a web app on another origin, in Chromium', () => {
  let browser: Browser;
  let pages: Awaited<ReturnType<typeof pageServer>>;
  let other: Awaited<ReturnType<typeof pageServer>>;
  beforeAll(async () => {
    browser = await launchChromium();
    pages = await pageServer();
    other = await pageServer();
  });
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await other?.close();
  });

  /** The page from `origin`, talking to `api`; failing the test on a script error. */
  async function open(origin: string, api: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/?api=${encodeURIComponent(api)}`);
    expect(new URL(page.url()).origin).not.toBe(new URL(api).origin);
    return { page, context, errors };
  }

  describe('any origin (the default)', () => {
    let api: Served;
    beforeAll(async () => {
      api = await serve({ rateLimitPerMinute: 10_000 });
    });
    afterAll(async () => api?.close());

    it('plays a match with fetch (If-Match, Idempotency-Key, Prefer), reads the headers and problems, and follows it with EventSource', async () => {
      const { page, context, errors } = await open(pages.origin, api.url);
      try {
        const created = await call(page, 'POST', '/v1/matches', { body: { handle: 'alice', opponentHandle: 'bob', decks: DECKS } });
        expect(created.status).toBe(201);
        const id = created.body!.id as string;
        const tokens = created.body!.tokens as Record<'p1' | 'p2', string>;
        expect(created.headers.location).toBe(`/v1/matches/${id}`);
        expect(created.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(created.headers['x-ratelimit-limit']).toBe('10000');
        expect(Number(created.headers['x-ratelimit-remaining'])).toBeLessThan(10_000);
        expect(created.headers['x-ratelimit-reset']).toMatch(/^\d+$/);

        await page.evaluate((m) => (window as unknown as PageWindow).follow(m), id);

        let version = 0;
        for (let move = 0; move < 6; move++) {
          const view = await call(page, 'GET', `/v1/matches/${id}`);
          expect(view.status).toBe(200);
          version = view.body!.version as number;
          expect(view.headers.etag).toBe(`"${version}.spectator"`);
          const seat = (view.body!.game as { pending: { seat: 'p1' | 'p2' } }).pending.seat;
          const legal = await call(page, 'GET', `/v1/matches/${id}/legal-actions`, { token: tokens[seat] });
          const action = (legal.body!.actions as { action: unknown }[])[0]!.action;
          const headers = { 'if-match': view.headers.etag!, 'idempotency-key': `move-${move}`, prefer: 'return=minimal' };
          const played = await call(page, 'POST', `/v1/matches/${id}/actions`, { token: tokens[seat], body: { action }, headers });
          expect(played.status, JSON.stringify(played.body)).toBe(200);
          expect(played.headers['preference-applied']).toBe('return=minimal');
          expect(played.body!.version).toBeGreaterThan(version);
          expect(played.headers.etag).toBe(`"${played.body!.version}.${seat}"`);
          expect(played.headers['idempotent-replayed']).toBeUndefined();
          // The same request again (a retry after a lost answer): replayed, and the page can tell.
          const replayed = await call(page, 'POST', `/v1/matches/${id}/actions`, { token: tokens[seat], body: { action }, headers });
          expect(replayed.status).toBe(200);
          expect(replayed.headers['idempotent-replayed']).toBe('true');
          expect(replayed.body).toEqual(played.body);
          version = played.body!.version as number;
        }

        // A problem is readable too: a stale If-Match is a 409 with the current version.
        const stale = await call(page, 'POST', `/v1/matches/${id}/actions`, {
          token: tokens.p1,
          body: { action: { type: 'resign' } },
          headers: { 'if-match': '"1"' },
        });
        expect(stale.status).toBe(409);
        expect(stale.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(stale.body).toMatchObject({ code: 'version-conflict', version });
        expect(stale.headers.etag).toBe(`"${version}"`);

        // The stream brought every event so far, in order.
        await page.waitForFunction((v) => (window as unknown as PageWindow).followed.events.some((e) => e.seq === v), version, {
          timeout: 20_000,
        });
        // Resigning ends the game: the stream's last message says so, and the page closes it.
        const resigned = await call(page, 'POST', `/v1/matches/${id}/actions`, { token: tokens.p1, body: { action: { type: 'resign' } } });
        expect(resigned.status).toBe(200);
        const end = resigned.body!.version as number;
        await page.waitForFunction(() => (window as unknown as PageWindow).followed.end !== null, undefined, { timeout: 20_000 });
        const followed = await page.evaluate(() => {
          const f = (window as unknown as PageWindow).followed;
          return { seqs: f.events.map((e) => e.seq), end: f.end, errors: f.errors, state: f.source!.readyState };
        });
        expect(followed.seqs).toEqual(Array.from({ length: end }, (_, i) => i + 1));
        expect(followed.end).toEqual({ end: 'finished' });
        expect(followed.errors).toBe(0);
        expect(followed.state).toBe(2); // CLOSED
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });

  describe('a list of origins', () => {
    let api: Served;
    beforeAll(async () => {
      api = await serve({ corsOrigins: [pages.origin] });
    });
    afterAll(async () => api?.close());

    it('a listed page plays; another page cannot read an answer nor follow a stream', async () => {
      const listed = await open(pages.origin, api.url);
      let id = '';
      try {
        const created = await call(listed.page, 'POST', '/v1/matches', { body: { handle: 'carol', opponentHandle: 'dan', decks: DECKS } });
        expect(created.status).toBe(201);
        id = created.body!.id as string;
        const tokens = created.body!.tokens as Record<'p1' | 'p2', string>;
        const resigned = await call(listed.page, 'POST', `/v1/matches/${id}/actions`, {
          token: tokens.p1,
          body: { action: { type: 'resign' } },
          headers: { 'idempotency-key': 'r' },
        });
        expect(resigned.status).toBe(200);
        expect(listed.errors).toEqual([]);
      } finally {
        await listed.context.close();
      }

      const refused = await open(other.origin, api.url);
      try {
        const outcome = (init: { method: string; token?: string; body?: unknown }) =>
          refused.page.evaluate(
            ([path, i]) =>
              (window as unknown as PageWindow).call(i.method, path, i).then(
                (a) => `answered ${a.status}`,
                (e: Error) => `${e.name}: ${e.message}`,
              ),
            [`/v1/matches/${id}`, init] as const,
          );
        // A simple GET (no preflight) is sent, but its answer is kept from the script; a preflighted one is never sent.
        expect(await outcome({ method: 'GET' })).toMatch(/^TypeError: Failed to fetch/);
        expect(await outcome({ method: 'GET', token: 'x' })).toMatch(/^TypeError: Failed to fetch/);
        // EventSource: the browser fails the connection (error, CLOSED) and delivers nothing.
        await refused.page.evaluate((m) => (window as unknown as PageWindow).follow(m), id);
        await refused.page.waitForFunction(() => (window as unknown as PageWindow).followed.errors > 0, undefined, { timeout: 20_000 });
        const followed = await refused.page.evaluate(() => {
          const f = (window as unknown as PageWindow).followed;
          return { events: f.events.length, end: f.end, state: f.source!.readyState };
        });
        expect(followed).toEqual({ events: 0, end: null, state: 2 });
      } finally {
        await refused.context.close();
      }
    });
  });
});
