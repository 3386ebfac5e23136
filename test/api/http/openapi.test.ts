/** openapi/openapi.json is generated from the route schemas and committed; it must be current. */
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { renderOpenapi } from '../../../src/openapi-doc.js';
import { IF_MATCH_PATTERN } from '../../../src/http/openapi.js';
import { parseIfMatch } from '../../../src/http/routes/matches.js';
import { openStore } from '../../../src/persistence/index.js';
import { startApp } from '../helpers.js';
import { GAMES } from '../../../src/games/registry.js';
import { memoryDatabase } from '../../persistence/pglite-template.js';

describe('OpenAPI document', () => {
  it('its description is true: every hosted game by name, accounts (registered players, player tokens), webhooks and GraphQL create/join', async () => {
    const doc = JSON.parse(await readFile(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8')) as {
      info: { description: string };
      webhooks?: unknown;
    };
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
    const committed = await readFile(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8');
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
    typeof v?.$ref === 'string'
      ? (v.$ref as string)
          .slice(2)
          .split('/')
          .reduce((o: Json, k: string) => o[k], doc)
      : v;
  const ops = (doc: Json) =>
    Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
    );

  it("issue 20: the Evons create body offers maxChainDepth (default 8, null for no limit) in its settings and in a position's config", async () => {
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
        'createMatch',
        'getHealth',
        'getMatch',
        'getReadiness',
        'joinMatch',
        'replaceSeatToken',
        'listCards',
        'listDecks',
        'listEvents',
        'listGameCards',
        'listGameDecks',
        'listGames',
        'listLegalActions',
        'listMatches',
        'listMyMatches',
        'streamEvents',
        'submitAction',
        'registerWebhook',
        'listWebhooks',
        'deleteWebhook',
        'rotateWebhookSecret',
        'listWebhookDeliveries',
        'redeliverWebhook',
        'exportMatch',
        'exportPlayerMatches',
        'registerPlayer',
        'getPlayer',
        'getLeaderboard',
        'getMe',
        'listMyTokens',
        'createMyToken',
        'revokeMyToken',
        'getBoardSvg',
        'getBoardPng',
        'createChallenge',
        'getChallenge',
        'listMyChallenges',
        'acceptChallenge',
        'declineChallenge',
        'cancelChallenge',
        'postSeek',
        'listSeeks',
        'listMySeeks',
        'cancelSeek',
        'offerRematch',
        'acceptRematch',
        'declineRematch',
        'claimRematchSeat',
        'streamAccountEvents',
        'createFeedTicket',
        'registerAccountWebhook',
        'listAccountWebhooks',
        'deleteAccountWebhook',
        'rotateAccountWebhookSecret',
        'listAccountWebhookDeliveries',
        'redeliverAccountWebhook',
        'createTournament',
        'listTournaments',
        'getTournament',
        'getTournamentStandings',
        'exportTournamentStandingsCsv',
        'joinTournament',
        'withdrawFromTournament',
        'startTournament',
        'cancelTournament',
        'createBulkPairing',
        'listBulkPairings',
        'getBulkPairing',
        'cancelBulkPairing',
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
      expect(
        op.parameters.some((p: Json) => deref(doc, p).name === 'X-Request-Id'),
        where,
      ).toBe(true);
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
    expect(paths['/v1/matches/{id}/rematch/accept'].post.security).toEqual([{ seatToken: [] }, { playerToken: [] }]);
    expect(paths['/v1/players'].post.security).toEqual([]);
    expect(doc.components.securitySchemes.seatToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares the NDJSON and SSE stream, ETag/Location/Idempotent-Replayed, If-None-Match, If-Match with its pattern and Idempotency-Key', async () => {
    const doc = await load();
    const paths = doc.paths as Json;
    expect(Object.keys(paths['/v1/matches/{id}/stream'].get.responses['200'].content)).toEqual([
      'application/x-ndjson',
      'text/event-stream',
    ]);
    expect(paths['/v1/matches/{id}/stream'].get.parameters.map((p: Json) => p.name)).toContain('last-event-id');
    // The account feed's lines are its own messages (snapshot, entries, end), not a match's events.
    const feed = paths['/v1/me/events'].get.responses['200'].content;
    expect(Object.keys(feed)).toEqual(['application/x-ndjson', 'text/event-stream']);
    expect(feed['application/x-ndjson'].schema.oneOf.map((s: Json) => s.$ref)).toEqual([
      '#/components/schemas/FeedSnapshot',
      '#/components/schemas/FeedEntry',
      '#/components/schemas/FeedEnd',
    ]);
    for (const name of ['FeedSnapshot', 'FeedEntry', 'FeedEnd', 'FeedYourTurn']) expect(doc.components.schemas[name], name).toBeDefined();
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

/**
 * Every status an operation answers is in the document (issue 21 item 9: 15 operations could answer
 * 403 and 6 said so). Table-driven over the document itself: every operation that reads
 * Authorization is called with player tokens that lack a scope (token:write only, then match:read
 * only) until one is refused; each answer's status must be documented for that operation, and a
 * 403 must come (a scope is checked before anything else is looked up).
 */
describe('OpenAPI document: every answer a credential can get is documented (issue 21 item 9)', () => {
  type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const DECK = { starter: 'starter-verdant-quake' };
  /** A valid body for each operation that needs one (a new operation with a body must be added here). */
  const BODIES: Record<string, unknown> = {
    createMatch: { decks: { p1: DECK, p2: DECK } },
    joinMatch: { deck: DECK },
    submitAction: { action: { type: 'pass' } },
    registerWebhook: { url: 'https://example.com/hook', events: ['your-turn'] },
    registerAccountWebhook: { url: 'https://example.com/hook' },
    createMyToken: { scopes: ['match:read'] },
    createChallenge: {},
    acceptChallenge: { deck: DECK },
    declineChallenge: { reason: 'later' },
    postSeek: { timeControl: { kind: 'correspondence', daysPerMove: 3 }, deck: DECK },
    createTournament: { name: 'Cup', format: 'round-robin', timeControl: { kind: 'correspondence', daysPerMove: 3 } },
    joinTournament: {},
    createBulkPairing: { pairs: [{ p1: 'evp_x', p2: 'evp_y' }], timeControl: { kind: 'correspondence', daysPerMove: 3 } },
  };

  it('each operation that takes a token answers 403 to a token without its scope, and documents it', async () => {
    const h = await startApp(memoryDatabase());
    try {
      const doc = (await h.http.get('/openapi.json').expect(200)).body as Json;
      const player = async (handle: string) => (await h.http.post('/v1/players').send({ handle }).expect(201)).body.token as string;
      const full = await player('scope-owner');
      const limited = async (scopes: string[]) =>
        (await h.http.post('/v1/me/tokens').set('authorization', `Bearer ${full}`).send({ scopes }).expect(201)).body.token as string;
      const tokens = [await limited(['token:write']), await limited(['match:read'])];
      const id = (
        await h.http
          .post('/v1/matches')
          .send({ openSeat: true, decks: { p1: DECK } })
          .expect(201)
      ).body.id as string;
      const fill = (path: string) =>
        path
          .replace(
            '{id}',
            path.startsWith('/v1/challenges/')
              ? 'ch_none'
              : path.startsWith('/v1/tournaments/')
                ? 'tn_none'
                : path.startsWith('/v1/bulk-pairings/')
                  ? 'bp_none'
                  : id,
          )
          .replace('{webhookId}', 'wh_none')
          .replace('{deliveryId}', `msg_${'0'.repeat(32)}`)
          .replace('{tokenId}', 'tok_none')
          .replace('{seekId}', 'sk_none');

      const authed = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
        Object.entries(item as Json)
          .filter(([, op]) => (op as Json).security.some((s: Json) => 'playerToken' in s))
          .map(([method, op]) => ({ path, method, op: op as Json })),
      );
      expect(authed.length).toBeGreaterThanOrEqual(15);
      const undocumented: string[] = [];
      for (const { path, method, op } of authed) {
        const needsBody = op.requestBody?.required === true;
        if (needsBody) expect(BODIES, `a valid body for ${op.operationId}`).toHaveProperty(op.operationId);
        const statuses: number[] = [];
        for (const token of tokens) {
          const req = (h.http as unknown as Record<string, (p: string) => ReturnType<typeof h.http.get>>)[method]!(fill(path)).set(
            'authorization',
            `Bearer ${token}`,
          );
          const res = needsBody ? await req.send(BODIES[op.operationId] as object) : await req;
          statuses.push(res.status);
          if (!(String(res.status) in op.responses))
            undocumented.push(`${op.operationId} answered ${res.status} (${res.body?.code ?? ''})`);
          if (res.status === 403) break;
        }
        expect(statuses, `${op.operationId}: a token without its scope is refused`).toContain(403);
      }
      // A player's token in a match where the player has no seat: 403 no-seat (the fuzzer's find).
      const stranger = await player('scope-stranger');
      const act = await h.http
        .post(`/v1/matches/${id}/actions`)
        .set('authorization', `Bearer ${stranger}`)
        .send(BODIES.submitAction as object);
      expect([act.status, act.body.code]).toEqual([403, 'no-seat']);
      if (!('403' in doc.paths['/v1/matches/{id}/actions'].post.responses)) undocumented.push('submitAction answered 403 (no-seat)');
      expect(undocumented).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
