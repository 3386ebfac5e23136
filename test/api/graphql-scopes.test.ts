/**
 * One scope rule for both APIs (issue 21, item 3): every GraphQL mutation and subscription needs
 * the scope its REST twin needs. The test walks the schema (introspection), so a field added
 * without a row in SCOPE_OF fails here; each field is then called with a player token holding
 * every scope but that one (refused: insufficient-scope) and with one holding it (not refused for
 * scope). PGlite only: scopes do not depend on the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openStore } from '../../src/persistence/index.js';
import { SCOPES } from '../../src/service/players.js';
import type { Scope } from '../../src/persistence/types.js';
import { memoryDatabase } from '../persistence/pglite-template.js';
import { STARTERS, baseUrlOf, bearer, localHttp } from './helpers.js';
import { gqlWsClient, subscribe } from '../../bench/lib/graphql-ws.js';

/** What a test call needs: a match where the player holds p1, one of its webhooks, and an open match. */
interface Fixture {
  matchId: string;
  webhookId: string;
  /** Another's match with its second seat open, for joinMatch. */
  openMatchId: string;
}

interface Row {
  /** The scope the REST twin needs. */
  scope: Scope;
  /** The REST twin (for the reader; the scope is what counts). */
  rest: string;
  /** A document calling the field with arguments that pass every check but the scope. */
  document(f: Fixture): string;
}

/** Every Mutation and Subscription field, with its REST twin's scope. Add a row with each new field. */
const SCOPE_OF: Record<string, Row> = {
  'Mutation.registerWebhook': {
    scope: 'webhook:write',
    rest: 'POST /v1/matches/{id}/webhooks',
    document: (f) => `mutation { registerWebhook(matchId: "${f.matchId}", webhook: { url: "https://example.com/hook", events: ["your-turn"] }) { secret } }`,
  },
  'Mutation.deleteWebhook': {
    scope: 'webhook:write',
    rest: 'DELETE /v1/matches/{id}/webhooks/{webhookId}',
    document: (f) => `mutation { deleteWebhook(matchId: "${f.matchId}", webhookId: "${f.webhookId}") }`,
  },
  'Mutation.rotateWebhookSecret': {
    scope: 'webhook:write',
    rest: 'POST /v1/matches/{id}/webhooks/{webhookId}/rotate-secret',
    document: (f) => `mutation { rotateWebhookSecret(matchId: "${f.matchId}", webhookId: "${f.webhookId}") { secret } }`,
  },
  'Mutation.redeliverWebhook': {
    scope: 'webhook:write',
    rest: 'POST /v1/matches/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    document: (f) => `mutation { redeliverWebhook(matchId: "${f.matchId}", webhookId: "${f.webhookId}", deliveryId: "dl_none") { id } }`,
  },
  'Subscription.matchEvents': {
    scope: 'match:read',
    rest: 'GET /v1/matches/{id}/stream',
    document: (f) => `subscription { matchEvents(matchId: "${f.matchId}") { seq } }`,
  },
  'Subscription.myTurn': {
    scope: 'match:read',
    rest: 'GET /v1/me/matches?turn=mine',
    document: () => 'subscription { myTurn { id } }',
  },
  'Mutation.createMatch': {
    scope: 'match:create',
    rest: 'POST /v1/matches',
    document: () => `mutation { createMatch(input: { openSeat: true, decks: { p1: { starter: "${STARTERS[0]}" } } }) { id } }`,
  },
  'Mutation.joinMatch': {
    scope: 'match:create',
    rest: 'POST /v1/matches/{id}/join',
    document: (f) => `mutation { joinMatch(matchId: "${f.openMatchId}", input: { deck: { starter: "${STARTERS[1]}" } }) { seat } }`,
  },
  'Mutation.submitAction': {
    scope: 'match:play',
    rest: 'POST /v1/matches/{id}/actions',
    document: (f) => `mutation { submitAction(matchId: "${f.matchId}", action: { type: "resign" }) { version } }`,
  },
};

/** Fields whose REST twins read a seat's webhooks (webhook:write on REST) are held to it too. */
const READ_FIELDS: Record<string, Row> = {
  'EvonsMatch.webhooks': {
    scope: 'webhook:write',
    rest: 'GET /v1/matches/{id}/webhooks',
    document: (f) => `{ match(id: "${f.matchId}") { webhooks { id deliveries { id } } } }`,
  },
};

type Problem = { extensions?: { code?: string } }[] | undefined;

describe('GraphQL scopes: each mutation and subscription needs its REST twin’s scope', () => {
  let app: App;
  let http: Awaited<ReturnType<typeof localHttp>>;
  let base: string;
  let close: () => Promise<void>;
  let fixture: Fixture;
  /** A token per scope: every scope but that one, and that one alone (with match:read, which every read needs). */
  const without = new Map<Scope, string>();
  const withOnly = new Map<Scope, string>();

  beforeAll(async () => {
    const opened = await openStore(memoryDatabase());
    app = await buildApp({ store: opened.store, logger: false, webhooks: { worker: false } });
    await app.ready();
    http = await localHttp(app);
    base = await baseUrlOf(app);
    close = async () => {
      await app.close();
      await opened.close();
    };
    const reg = await http.post('/v1/players').send({ handle: 'scoped' }).expect(201);
    const full = reg.body.token as string;
    const c = await http.post('/v1/matches').set(bearer(full)).send({ opponentHandle: 'anon', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } }).expect(201);
    const hook = await http.post(`/v1/matches/${c.body.id}/webhooks`).set(bearer(full)).send({ url: 'https://example.com/hook', events: ['your-turn'] }).expect(201);
    const open = await http.post('/v1/matches').send({ handle: 'opener', openSeat: true, decks: { p1: { starter: STARTERS[0] } } }).expect(201);
    fixture = { matchId: c.body.id, webhookId: hook.body.id, openMatchId: open.body.id };
    // The decision is p1's (the player's), so that myTurn has something to send at once.
    for (let i = 0; i < 20; i++) {
      const v = await http.get(`/v1/matches/${c.body.id}`).expect(200);
      if (v.body.game.pending.seat === 'p1') break;
      const legal = await http.get(`/v1/matches/${c.body.id}/legal-actions`).set(bearer(c.body.tokens.p2)).expect(200);
      await http.post(`/v1/matches/${c.body.id}/actions`).set(bearer(c.body.tokens.p2)).send({ action: legal.body.actions[0].action }).expect(200);
    }
    for (const scope of SCOPES) {
      const minus = await http.post('/v1/me/tokens').set(bearer(full)).send({ scopes: SCOPES.filter((s) => s !== scope) }).expect(201);
      without.set(scope, minus.body.token);
      const only = await http.post('/v1/me/tokens').set(bearer(full)).send({ scopes: [...new Set<Scope>(['match:read', scope])] }).expect(201);
      withOnly.set(scope, only.body.token);
    }
  });
  afterAll(() => close());

  const fieldsOf = async (type: 'Mutation' | 'Subscription'): Promise<string[]> => {
    const r = await http.post('/graphql').send({ query: `{ __type(name: "${type}") { fields { name } } }` }).expect(200);
    return (r.body.data.__type.fields as { name: string }[]).map((f) => `${type}.${f.name}`);
  };

  /** The codes a document's errors carry, with `token`, over HTTP (mutations, queries) or WebSocket (subscriptions). */
  const codesOf = async (document: string, token: string): Promise<string[]> => {
    if (document.startsWith('subscription')) {
      const client = gqlWsClient(base, token);
      try {
        const s = subscribe(client, document);
        // A refused connection fails the subscription; an admitted one sends a first result (the fixture has one for each) or an error.
        for (let i = 0; i < 500 && s.error() === null && s.results.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
        s.dispose();
        const err = s.error() as Problem | { code?: number; reason?: string } | null;
        if (err && !Array.isArray(err)) return [String((err as { reason?: string }).reason)];
        return [...(err ?? []), ...s.results.flatMap((r) => r.errors ?? [])].map((e) => String(e.extensions?.code));
      } finally {
        await client.dispose();
      }
    }
    const r = await http.post('/graphql').set(bearer(token)).send({ query: document });
    return ((r.body.errors as Problem) ?? []).map((e) => String(e.extensions?.code));
  };

  it('every Mutation and Subscription field has a row in the table (and the table no stale one)', async () => {
    const fields = [...(await fieldsOf('Mutation')), ...(await fieldsOf('Subscription'))].sort();
    expect(Object.keys(SCOPE_OF).sort()).toEqual(fields);
  });

  for (const [field, row] of Object.entries({ ...SCOPE_OF, ...READ_FIELDS })) {
    it(`${field} needs ${row.scope} (as ${row.rest})`, async () => {
      expect(await codesOf(row.document(fixture), without.get(row.scope)!), 'a token without the scope').toContain('insufficient-scope');
      expect(await codesOf(row.document(fixture), withOnly.get(row.scope)!), 'a token with the scope').not.toContain('insufficient-scope');
    });
  }
});
