/** openapi/openapi.json is generated from the route schemas and committed; it must be current. */
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { renderOpenapi } from '../../src/http/openapi-doc.js';
import { IF_MATCH_PATTERN } from '../../src/http/openapi.js';
import { parseIfMatch } from '../../src/http/routes/matches.js';
import { openStore } from '../../src/persistence/index.js';
import { startApp } from './helpers.js';
import { GAMES } from '../../src/games/registry.js';
import { memoryDatabase } from '../persistence/pglite-template.js';

describe('OpenAPI document', () => {
  it('its description is true: every hosted game by name, accounts (registered players, player tokens), webhooks and GraphQL create/join', async () => {
    const doc = JSON.parse(await readFile(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as { info: { description: string }; webhooks?: unknown };
    const text = doc.info.description;
    expect(text).not.toMatch(/no accounts/i);
    for (const game of Object.values(GAMES)) expect(text, game.id).toContain(`**${game.name.split(' (')[0]}**`);
    expect(text).toContain('POST /v1/players');
    expect(text).toMatch(/player tokens/);
    expect(text).toContain('`webhooks` section');
    expect(doc.webhooks).toBeDefined();
    expect(text).toContain('`createMatch`');
  });

  it('the committed openapi/openapi.json equals what the code generates (run `npm run openapi`)', async () => {
    const committed = await readFile(new URL('../../openapi/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(await renderOpenapi());
  });

  it('is served at /openapi.json, documents problem+json errors, and /docs, /healthz, /readyz, /v1/cards and /v1/decks answer', async () => {
    const h = await startApp(memoryDatabase());
    try {
      const doc = (await h.http.get('/openapi.json').expect(200)).body;
      expect(doc.openapi).toBe('3.1.0');
      const post = doc.paths['/v1/matches/{id}/actions'].post;
      expect(Object.keys(post.responses['409'].content)).toEqual(['application/problem+json']);
      expect(post.security).toEqual([{ seatToken: [] }, { playerToken: [] }]);
      expect(doc.components.schemas.Problem).toBeDefined();
      await h.http.get('/docs/').expect(200);
      expect((await h.http.get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
      expect((await h.http.get('/readyz').expect(200)).body).toEqual({ status: 'ready' });
      const cards = (await h.http.get('/v1/cards').expect(200)).body;
      expect(cards.cards.length).toBeGreaterThan(0);
      const decks = (await h.http.get('/v1/decks').expect(200)).body;
      expect(decks.decks.map((d: { id: string }) => d.id)).toContain('starter-verdant-quake');
      const r = await h.http.get('/healthz');
      expect(r.headers['x-request-id']).toBeTruthy();
    } finally {
      await h.close();
    }
  });
});

describe('OpenAPI document: what the server reads and sends (issue 6 item 8)', () => {
  type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const load = async (): Promise<Json> => JSON.parse(await renderOpenapi());
  const deref = (doc: Json, v: Json): Json =>
    typeof v?.$ref === 'string' ? (v.$ref as string).slice(2).split('/').reduce((o: Json, k: string) => o[k], doc) : v;
  const ops = (doc: Json) =>
    Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })));

  it('issue 20: the Evons create body offers maxChainDepth (default 8, null for no limit) in its settings and in a position\'s config', async () => {
    const doc = await load();
    const body = deref(doc, doc.components.schemas.EvonsCreateMatchRequestInput);
    const setting = (schema: Json) => deref(doc, schema).properties.maxChainDepth as Json;
    for (const s of [setting(body.properties.settings), setting(deref(doc, body.properties.position).properties.config)]) {
      expect(s.default).toBe(8);
      expect(s.anyOf).toEqual([{ type: 'integer', minimum: 1, maximum: 1000 }, { type: 'null' }]);
      expect(s.description).toMatch(/rules-decisions/);
    }
  });

  it('gives every operation a stable camelCase operationId, security, and the 500/503 problems; servers are set; no schema carries $id', async () => {
    const doc = await load();
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(JSON.stringify(doc)).not.toContain('"$id"');
    const ids = ops(doc).map((o) => o.op.operationId);
    expect(ids.sort()).toEqual(
      [
        'createMatch', 'getHealth', 'getMatch', 'getReadiness', 'joinMatch', 'listCards', 'listDecks', 'listEvents',
        'listGameCards', 'listGameDecks', 'listGames', 'listLegalActions', 'listMatches', 'listMyMatches', 'streamEvents',
        'submitAction', 'registerWebhook', 'listWebhooks', 'deleteWebhook', 'rotateWebhookSecret', 'listWebhookDeliveries',
        'redeliverWebhook', 'exportMatch', 'exportPlayerMatches', 'registerPlayer', 'getPlayer', 'getLeaderboard', 'getMe', 'listMyTokens', 'createMyToken', 'revokeMyToken',
        'getBoardSvg', 'getBoardPng',
      ].sort(),
    );
    for (const { path, method, op } of ops(doc)) {
      const where = `${method} ${path}`;
      expect(Array.isArray(op.security), where).toBe(true);
      for (const status of ['500', '503']) {
        const res = deref(doc, op.responses[status]);
        expect(Object.keys(res.content), `${where} ${status}`).toEqual(['application/problem+json']);
      }
      expect(deref(doc, op.responses['503']).headers['Retry-After'], where).toBeDefined();
      for (const [status, r] of Object.entries(op.responses as Json)) {
        expect(deref(doc, r as Json).headers['X-Request-Id'], `${where} ${status}`).toBeDefined();
      }
      expect(op.parameters.some((p: Json) => deref(doc, p).name === 'X-Request-Id'), where).toBe(true);
      if (path !== '/healthz' && path !== '/readyz') {
        const limited = deref(doc, op.responses['429']);
        for (const h of ['Retry-After', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          expect(limited.headers[h], `${where} 429 ${h}`).toBeDefined();
        }
      }
    }
    const paths = doc.paths as Json;
    expect(paths['/v1/matches'].post.security).toEqual([{}, { playerToken: [] }]);
    expect(paths['/v1/matches/{id}'].get.security).toEqual([{}, { seatToken: [] }, { playerToken: [] }]);
    expect(paths['/v1/matches/{id}/actions'].post.security).toEqual([{ seatToken: [] }, { playerToken: [] }]);
    expect(paths['/v1/me/tokens'].get.security).toEqual([{ playerToken: [] }]);
    expect(paths['/v1/players'].post.security).toEqual([]);
    expect(doc.components.securitySchemes.seatToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares the NDJSON and SSE stream, ETag/Location/Idempotent-Replayed, If-None-Match, If-Match with its pattern and Idempotency-Key', async () => {
    const doc = await load();
    const paths = doc.paths as Json;
    expect(Object.keys(paths['/v1/matches/{id}/stream'].get.responses['200'].content)).toEqual(['application/x-ndjson', 'text/event-stream']);
    expect(paths['/v1/matches/{id}/stream'].get.parameters.map((p: Json) => p.name)).toContain('last-event-id');
    const created = paths['/v1/matches'].post.responses['201'];
    expect(Object.keys(created.headers)).toEqual(expect.arrayContaining(['ETag', 'Location']));
    const view = paths['/v1/matches/{id}'].get;
    expect(view.responses['200'].headers.ETag).toBeDefined();
    expect(view.responses['304'].headers.ETag).toBeDefined();
    expect(view.responses['304'].content).toBeUndefined();
    expect(view.parameters.map((p: Json) => p.name)).toContain('if-none-match');
    const act = paths['/v1/matches/{id}/actions'].post;
    expect(act.responses['200'].headers['Idempotent-Replayed']).toBeDefined();
    const ifMatch = act.parameters.find((p: Json) => p.name === 'if-match');
    expect(ifMatch.schema.pattern).toBe(IF_MATCH_PATTERN);
    expect(act.parameters.map((p: Json) => p.name)).toContain('idempotency-key');
  });

  it('the documented If-Match pattern accepts exactly what the server accepts', () => {
    const re = new RegExp(IF_MATCH_PATTERN);
    const accepts = (v: string) => {
      try {
        parseIfMatch(v);
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(fc.property(fc.stringMatching(re), (v) => accepts(v)));
    const near = fc.oneof(
      fc.string({ maxLength: 14 }),
      fc.tuple(fc.constantFrom('', ' ', 'W/', 'w/', '"'), fc.nat(), fc.constantFrom('', '"', '.p1"', ' ', 'x')).map((t) => t.join('')),
    );
    fc.assert(fc.property(near, (v) => accepts(v) === re.test(v)));
  });

  it('the rate-limit headers the document declares are the ones @fastify/rate-limit sends on a 429', async () => {
    const doc = await load();
    const opened = await openStore(memoryDatabase());
    const app = await buildApp({ store: opened.store, logger: false, rateLimitPerMinute: 1 });
    try {
      await app.ready();
      await supertest(app.server).get('/v1/cards').expect(200);
      const res = await supertest(app.server).get('/v1/cards').expect(429);
      const declared = Object.keys(doc.paths['/v1/cards'].get.responses['429'].headers).map((h) => h.toLowerCase());
      for (const h of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) {
        expect(res.headers[h], h).toBeDefined();
        expect(declared).toContain(h);
      }
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    } finally {
      await app.close();
      await opened.close();
    }
  });
});
