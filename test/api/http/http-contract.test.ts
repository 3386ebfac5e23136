/**
 * HTTP details the contract promises (issue 34 items 12 and 21): authentication challenges, bodiless
 * 304s, 405 for unknown methods, auth before lookup, precondition comparison, Prefer parsing,
 * GraphQL's media type, the favicon.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { bearer, createHotSeat, pglite, useHarness } from '../helpers.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request with node:http, so nothing (supertest, fetch) hides a header or refuses a method. */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const r = http.request(base + path, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(body);
  });
}

describe('issue 34 item 12: what the server sends is what HTTP and the document say', () => {
  const h = useHarness(pglite);

  it('a 401 carries WWW-Authenticate: Bearer, with error="invalid_token" for a bad token (RFC 6750)', async () => {
    const missing = await raw(h.baseUrl(), 'GET', '/v1/me');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    const bad = await raw(h.baseUrl(), 'GET', '/v1/me', bearer('evp_nope'));
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });

  it('a 304 has no body, no Content-Length of one and no Content-Type', async () => {
    const m = await createHotSeat(h.http);
    const first = await raw(h.baseUrl(), 'GET', `/v1/matches/${m.id}`);
    const again = await raw(h.baseUrl(), 'GET', `/v1/matches/${m.id}`, { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers['content-length']).toBeUndefined();
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  it('an unknown method (QUERY) on a known path is 405 with Allow, not 400', async () => {
    const m = await createHotSeat(h.http);
    const r = await raw(h.baseUrl(), 'QUERY', `/v1/matches/${m.id}`);
    expect(r.status).toBe(405);
    expect(JSON.parse(r.text).code).toBe('method-not-allowed');
    expect(r.headers.allow).toBe('GET, HEAD');
  });

  it('the webhook routes ask for a token before they look the match up (401, not 404)', async () => {
    for (const [method, path] of [
      ['GET', '/v1/matches/no-such-match-00000000/webhooks'],
      ['POST', '/v1/matches/no-such-match-00000000/webhooks/wh_x/rotate-secret'],
      ['GET', '/v1/matches/no-such-match-00000000/webhooks/wh_x/deliveries'],
      ['DELETE', '/v1/matches/no-such-match-00000000/webhooks/wh_x'],
    ] as const) {
      const r = await raw(h.baseUrl(), method, path);
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(JSON.parse(r.text).code).toBe('missing-token');
    }
    const posted = await raw(
      h.baseUrl(),
      'POST',
      '/v1/matches/no-such-match-00000000/webhooks',
      { 'content-type': 'application/json' },
      JSON.stringify({ url: 'https://example.com/h', events: ['your-turn'] }),
    );
    expect(posted.status).toBe(401);
  });
});

describe('issue 34 item 12: the document lists what the transport answers', () => {
  const h = useHarness(pglite);

  it('413, 415 (operations with a body) and 414 (operations with a path parameter) are documented, and answered', async () => {
    const doc = (await h.http.get('/openapi.json').expect(200)).body;
    const create = doc.paths['/v1/matches'].post.responses;
    expect(create['413']).toEqual({ $ref: '#/components/responses/PayloadTooLarge' });
    expect(create['415']).toEqual({ $ref: '#/components/responses/UnsupportedMediaType' });
    expect(doc.paths['/v1/matches/{id}'].get.responses['414']).toEqual({ $ref: '#/components/responses/UriTooLong' });
    expect(doc.paths['/v1/me'].get.responses['401'].headers['WWW-Authenticate']).toBeDefined();
    expect((await raw(h.baseUrl(), 'POST', '/v1/matches', { 'content-type': 'text/plain' }, 'x')).status).toBe(415);
    expect(
      (await raw(h.baseUrl(), 'POST', '/v1/matches', { 'content-type': 'application/json' }, JSON.stringify({ pad: 'x'.repeat(300_000) })))
        .status,
    ).toBe(413);
    expect((await raw(h.baseUrl(), 'GET', `/v1/matches/${'a'.repeat(500)}`)).status).toBe(414);
  });

  it('match settings out of range are 400 validation-failed, as the document and docs/api.md say', async () => {
    const doc = (await h.http.get('/openapi.json').expect(200)).body;
    const r = await h.http.post('/v1/matches').send({
      handle: 'a',
      opponentHandle: 'b',
      decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-storm-shade' } },
      settings: { maxChainDepth: 0 },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation-failed');
    expect(doc.paths['/v1/matches'].post.responses['400'].description).toMatch(/out of range/);
    const { readFile } = await import('node:fs/promises');
    const api = await readFile(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    expect(api).not.toMatch(/a bad deck or settings: 422/);
  });
});

describe('issue 34 item 14: messages say what the route wanted', () => {
  const h = useHarness(pglite);

  it('a seat token on a player route is told a player token is needed, not "not a seat token of this match"', async () => {
    const m = await createHotSeat(h.http);
    const r = await h.http.get('/v1/me').set(bearer(m.tokens.p1)).expect(401);
    expect(r.body.code).toBe('invalid-token');
    expect(r.body.detail).not.toMatch(/seat token of this match/);
    expect(r.body.detail).toMatch(/player token/);
  });

  it('invalid-cursor on the account feed names its own cursor (after, Last-Event-ID), not a nextCursor it never sends', async () => {
    const p = await h.http.post('/v1/players').send({ handle: 'cursor-kim' }).expect(201);
    const r = await h.http.get('/v1/me/events?after=1-1').set(bearer(p.body.token)).expect(400);
    expect(r.body.code).toBe('invalid-cursor');
    expect(r.body.detail).not.toMatch(/nextCursor/);
    expect(r.body.detail).toMatch(/Last-Event-ID/);
  });
});

describe('issue 34 item 21: HTTP details', () => {
  const h = useHarness(pglite);
  const act = (m: { id: string; tokens: { p1: string } }, headers: Record<string, string>) =>
    h.http
      .post(`/v1/matches/${m.id}/actions`)
      .set({ ...bearer(m.tokens.p1), ...headers })
      .send({ action: { type: 'resign' } });

  it('a weak If-Match never matches (strong comparison, RFC 9110 §13.1.1): 409 version-conflict, nothing applied', async () => {
    const m = await createHotSeat(h.http);
    const r = await act(m, { 'if-match': `W/"${m.version}"` });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('version-conflict');
    expect(r.body.version).toBe(m.version);
    expect((await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.version).toBe(m.version);
  });

  it('If-Match: * is any current version: the action is applied', async () => {
    const m = await createHotSeat(h.http);
    const r = await act(m, { 'if-match': '*' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('finished');
  });

  it('a quoted Prefer: return="representation" is honoured (RFC 7240 allows a quoted value)', async () => {
    const m = await createHotSeat(h.http);
    const r = await act(m, { prefer: 'return="representation"' });
    expect(r.status).toBe(200);
    expect(r.headers['preference-applied']).toBe('return=representation');
    expect(r.body.match).toBeDefined();
  });

  it('GraphQL errors are application/graphql-response+json when the client accepts it', async () => {
    const r = await raw(
      h.baseUrl(),
      'POST',
      '/graphql',
      { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json;q=0.9' },
      JSON.stringify({ query: '{ nope }' }),
    );
    expect(r.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    expect(JSON.parse(r.text).errors.length).toBeGreaterThan(0);
    const plain = await raw(h.baseUrl(), 'POST', '/graphql', { 'content-type': 'application/json' }, JSON.stringify({ query: '{ nope }' }));
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
  });

  it("the document's info.version is the package version", async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect((await h.http.get('/openapi.json').expect(200)).body.info.version).toBe(pkg.version);
  });

  it('/favicon.ico answers 204, not a 404 on every watch page', async () => {
    const r = await raw(h.baseUrl(), 'GET', '/favicon.ico');
    expect(r.status).toBe(204);
    expect(r.headers['cache-control']).toMatch(/max-age/);
  });
});

describe('issue 34 item 13: the schemas are as strict as the server', () => {
  const h = useHarness(pglite);
  type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const schemas = async (): Promise<{ doc: Json; s: Json }> => {
    const doc = (await h.http.get('/openapi.json').expect(200)).body as Json;
    return { doc, s: doc.components.schemas };
  };

  it("webhook urls are format: uri; starter deck ids are the enum of the hosted games' starter decks", async () => {
    const { s } = await schemas();
    expect(s.WebhookRequestInput.properties.url.format).toBe('uri');
    expect(s.AccountWebhookRequestInput.properties.url.format).toBe('uri');
    const games = (await h.http.get('/v1/games').expect(200)).body.games as { id: string }[];
    const ids: string[] = [];
    for (const g of games)
      ids.push(...((await h.http.get(`/v1/games/${g.id}/decks`).expect(200)).body.decks as { id: string }[]).map((d) => d.id));
    const starter = (s.DeckSpecInput.anyOf as Json[]).find((o) => o.properties?.starter)?.properties.starter;
    expect([...starter.enum].sort()).toEqual([...ids].sort());
  });

  it("a challenge's settings are some game's settings (unknown keys refused, 400) as the schema says", async () => {
    const { s } = await schemas();
    const settings = s.CreateChallengeRequestInput.properties.settings;
    expect(settings.anyOf.length).toBeGreaterThanOrEqual(2);
    for (const one of settings.anyOf as Json[]) expect(one.additionalProperties).toBe(false);
    const p = await h.http.post('/v1/players').send({ handle: 'strict-cho' }).expect(201);
    const r = await h.http
      .post('/v1/challenges')
      .set(bearer(p.body.token))
      .send({ settings: { noSuchRule: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.code).toBe('validation-failed');
  });

  it('a PNG is format: binary; picture and event-page ETags are described as sent', async () => {
    const { doc } = await schemas();
    const png = doc.paths['/v1/matches/{id}/board.png'].get.responses['200'];
    expect(png.content['image/png'].schema.format).toBe('binary');
    const m = await createHotSeat(h.http);
    const tagOf = (res: Json) => doc.components.headers[String((res.headers.ETag.$ref as string).split('/').pop())].description as string;
    const events = await h.http.get(`/v1/matches/${m.id}/events`).expect(200);
    expect(events.headers.etag).toBe(`"${m.version}.spectator"`);
    expect(tagOf(doc.paths['/v1/matches/{id}/events'].get.responses['200'])).toMatch(/not this page/);
    const svg = await h.http.get(`/v1/matches/${m.id}/board.svg`).expect(200);
    expect(svg.headers.etag).toMatch(/^"\d+\.spectator\.svg\.r\d+"$/);
    expect(tagOf(doc.paths['/v1/matches/{id}/board.svg'].get.responses['200'])).toContain('<version>.<viewer>.<format>.r<renderer>');
  });
});
