/**
 * One scope rule for both APIs (issue 21, item 3): every GraphQL mutation and subscription needs
 * the scope its REST twin needs. The test walks the schema (introspection), so a field added
 * without a row in SCOPE_OF fails here; each field is then called with a player token holding
 * every scope but that one (refused: insufficient-scope) and with one holding it (not refused for
 * scope). PGlite only: scopes do not depend on the database.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../src/service/accounts/players.js';
import type { Scope } from '../../../src/persistence/types.js';
import { STARTERS, bearer, useHarness, pglite } from '../helpers.js';
import { gqlWsClient, subscribe } from '../../../bench/lib/graphql-ws.js';

/** What a test call needs: a match where the player holds p1, one of its webhooks, and an open match. */
interface Fixture {
  matchId: string;
  webhookId: string;
  /** One of the player's account webhooks. */
  accountWebhookId: string;
  /** Another's match with its second seat open, for joinMatch. */
  openMatchId: string;
  /** Challenges sent to the player (to accept, to decline) and one of its own (to cancel). */
  challenges: { accept: string; decline: string; cancel: string };
  /** Open tournaments: one the player organizes (to start, to cancel), one another organizes (to join, to withdraw from). */
  tournaments: { own: string; other: string };
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
  'Mutation.offerRematch': {
    scope: 'match:play',
    rest: 'POST /v1/matches/{id}/rematch',
    document: (f) => `mutation { offerRematch(matchId: "${f.matchId}") { status } }`,
  },
  'Mutation.declineRematch': {
    scope: 'match:play',
    rest: 'POST /v1/matches/{id}/rematch/decline',
    document: (f) => `mutation { declineRematch(matchId: "${f.matchId}") { status } }`,
  },
  'Mutation.acceptRematch': {
    scope: 'match:play',
    rest: 'POST /v1/matches/{id}/rematch/accept',
    document: (f) => `mutation { acceptRematch(matchId: "${f.matchId}") { id } }`,
  },
  'Mutation.claimRematchSeat': {
    scope: 'match:play',
    rest: 'POST /v1/matches/{id}/rematch/seat',
    document: (f) => `mutation { claimRematchSeat(matchId: "${f.matchId}") { token } }`,
  },
  'Mutation.registerWebhook': {
    scope: 'webhook:write',
    rest: 'POST /v1/matches/{id}/webhooks',
    document: (f) =>
      `mutation { registerWebhook(matchId: "${f.matchId}", webhook: { url: "https://example.com/hook", events: ["your-turn"] }) { secret } }`,
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
  'Mutation.registerAccountWebhook': {
    scope: 'webhook:write',
    rest: 'POST /v1/me/webhooks',
    document: () =>
      'mutation { registerAccountWebhook(webhook: { url: "https://example.com/account", events: ["your-turn"] }) { secret } }',
  },
  'Mutation.deleteAccountWebhook': {
    scope: 'webhook:write',
    rest: 'DELETE /v1/me/webhooks/{webhookId}',
    document: (f) => `mutation { deleteAccountWebhook(webhookId: "${f.accountWebhookId}") }`,
  },
  'Mutation.rotateAccountWebhookSecret': {
    scope: 'webhook:write',
    rest: 'POST /v1/me/webhooks/{webhookId}/rotate-secret',
    document: (f) => `mutation { rotateAccountWebhookSecret(webhookId: "${f.accountWebhookId}") { secret } }`,
  },
  'Mutation.redeliverAccountWebhook': {
    scope: 'webhook:write',
    rest: 'POST /v1/me/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    document: (f) => `mutation { redeliverAccountWebhook(webhookId: "${f.accountWebhookId}", deliveryId: "msg_${'0'.repeat(32)}") { id } }`,
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
  'Subscription.myEvents': {
    scope: 'match:read',
    rest: 'GET /v1/me/events',
    document: () => 'subscription { myEvents { type } }',
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
  'Mutation.createChallenge': {
    scope: 'match:create',
    rest: 'POST /v1/challenges',
    document: () => 'mutation { createChallenge(input: { to: "other-player" }) { id } }',
  },
  'Mutation.acceptChallenge': {
    scope: 'match:create',
    rest: 'POST /v1/challenges/{id}/accept',
    document: (f) => `mutation { acceptChallenge(id: "${f.challenges.accept}", deck: { starter: "${STARTERS[1]}" }) { match { id } } }`,
  },
  'Mutation.declineChallenge': {
    scope: 'match:create',
    rest: 'POST /v1/challenges/{id}/decline',
    document: (f) => `mutation { declineChallenge(id: "${f.challenges.decline}", reason: "later") { status } }`,
  },
  'Mutation.cancelChallenge': {
    scope: 'match:create',
    rest: 'POST /v1/challenges/{id}/cancel',
    document: (f) => `mutation { cancelChallenge(id: "${f.challenges.cancel}") { status } }`,
  },

  'Mutation.postSeek': {
    scope: 'match:create',
    rest: 'POST /v1/seeks',
    document: () =>
      `mutation { postSeek(input: { timeControl: { kind: "correspondence", daysPerMove: 3 }, deck: { starter: "${STARTERS[0]}" } }) { id } }`,
  },
  'Mutation.cancelSeek': {
    scope: 'match:create',
    rest: 'DELETE /v1/seeks/{seekId}',
    document: () => 'mutation { cancelSeek(seekId: "sk_none") { id } }',
  },
  'Mutation.createTournament': {
    scope: 'match:create',
    rest: 'POST /v1/tournaments',
    document: () =>
      'mutation { createTournament(input: { name: "Scoped Cup", format: "swiss", rounds: 2, timeControl: { kind: "correspondence", daysPerMove: 3 } }) { id } }',
  },
  'Mutation.joinTournament': {
    scope: 'match:create',
    rest: 'POST /v1/tournaments/{id}/join',
    document: (f) => `mutation { joinTournament(id: "${f.tournaments.other}", deck: { starter: "${STARTERS[1]}" }) { id } }`,
  },
  'Mutation.withdrawFromTournament': {
    scope: 'match:create',
    rest: 'POST /v1/tournaments/{id}/withdraw',
    document: (f) => `mutation { withdrawFromTournament(id: "${f.tournaments.other}") { id } }`,
  },
  'Mutation.startTournament': {
    scope: 'match:create',
    rest: 'POST /v1/tournaments/{id}/start',
    document: (f) => `mutation { startTournament(id: "${f.tournaments.own}") { status } }`,
  },
  'Mutation.cancelTournament': {
    scope: 'match:create',
    rest: 'POST /v1/tournaments/{id}/cancel',
    document: (f) => `mutation { cancelTournament(id: "${f.tournaments.own}") { status } }`,
  },
  'Mutation.createBulkPairing': {
    scope: 'match:create',
    rest: 'POST /v1/bulk-pairings',
    document: () =>
      'mutation { createBulkPairing(input: { pairs: [{ p1: "evp_x", p2: "evp_y" }], timeControl: { kind: "correspondence", daysPerMove: 3 } }) { id } }',
  },
  'Mutation.cancelBulkPairing': {
    scope: 'match:create',
    rest: 'POST /v1/bulk-pairings/{id}/cancel',
    document: () => 'mutation { cancelBulkPairing(id: "bp_none") { id } }',
  },
  'Mutation.submitAction': {
    scope: 'match:play',
    rest: 'POST /v1/matches/{id}/actions',
    document: (f) => `mutation { submitAction(matchId: "${f.matchId}", action: { type: "resign" }) { version } }`,
  },
};

/** Fields whose REST twins read webhooks are held to the same scope (a seat's: webhook:write; an account's: match:read). */
const READ_FIELDS: Record<string, Row> = {
  'EvonsMatch.webhooks': {
    scope: 'webhook:write',
    rest: 'GET /v1/matches/{id}/webhooks',
    document: (f) => `{ match(id: "${f.matchId}") { webhooks { id deliveries { id } } } }`,
  },
  'Query.myBulkPairings': {
    scope: 'match:create',
    rest: 'GET /v1/bulk-pairings',
    document: () => '{ myBulkPairings { id } }',
  },
  'Query.bulkPairing': {
    scope: 'match:create',
    rest: 'GET /v1/bulk-pairings/{id}',
    document: () => '{ bulkPairing(id: "bp_none") { id } }',
  },
  'Query.myWebhooks': {
    scope: 'match:read',
    rest: 'GET /v1/me/webhooks',
    document: () => '{ myWebhooks { id deliveries { id entryId } } }',
  },
};

type Problem = { extensions?: { code?: string } }[] | undefined;

describe('GraphQL scopes: each mutation and subscription needs its REST twin’s scope', () => {
  const h = useHarness(pglite, { webhooks: { worker: false } });
  let fixture: Fixture;
  /** A token per scope: every scope but that one, and that one alone (with match:read, which every read needs). */
  const without = new Map<Scope, string>();
  const withOnly = new Map<Scope, string>();

  beforeAll(async () => {
    const reg = await h.http.post('/v1/players').send({ handle: 'scoped' }).expect(201);
    const full = reg.body.token as string;
    const c = await h.http
      .post('/v1/matches')
      .set(bearer(full))
      .send({ opponentHandle: 'anon', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
      .expect(201);
    const hook = await h.http
      .post(`/v1/matches/${c.body.id}/webhooks`)
      .set(bearer(full))
      .send({ url: 'https://example.com/hook', events: ['your-turn'] })
      .expect(201);
    const accountHook = await h.http.post('/v1/me/webhooks').set(bearer(full)).send({ url: 'https://example.com/account' }).expect(201);
    const open = await h.http
      .post('/v1/matches')
      .send({ handle: 'opener', openSeat: true, decks: { p1: { starter: STARTERS[0] } } })
      .expect(201);
    const otherPlayer = (await h.http.post('/v1/players').send({ handle: 'other-player' }).expect(201)).body.token as string;
    const challenge = async (from: string, to: string) =>
      (await h.http.post('/v1/challenges').set(bearer(from)).send({ to }).expect(201)).body.id as string;
    const challenges = {
      accept: await challenge(otherPlayer, 'scoped'),
      decline: await challenge(otherPlayer, 'scoped'),
      cancel: await challenge(full, 'other-player'),
    };
    const tournament = async (organizer: string) =>
      (
        await h.http
          .post('/v1/tournaments')
          .set(bearer(organizer))
          .send({ name: 'Scopes', format: 'swiss', rounds: 2, timeControl: { kind: 'correspondence', daysPerMove: 3 } })
          .expect(201)
      ).body.id as string;
    const tournaments = { own: await tournament(full), other: await tournament(otherPlayer) };
    fixture = {
      matchId: c.body.id,
      webhookId: hook.body.id,
      accountWebhookId: accountHook.body.id,
      openMatchId: open.body.id,
      challenges,
      tournaments,
    };
    // The decision is p1's (the player's), so that myTurn has something to send at once.
    for (let i = 0; i < 20; i++) {
      const v = await h.http.get(`/v1/matches/${c.body.id}`).expect(200);
      if (v.body.game.pending.seat === 'p1') break;
      const legal = await h.http.get(`/v1/matches/${c.body.id}/legal-actions`).set(bearer(c.body.tokens.p2)).expect(200);
      await h.http
        .post(`/v1/matches/${c.body.id}/actions`)
        .set(bearer(c.body.tokens.p2))
        .send({ action: legal.body.actions[0].action })
        .expect(200);
    }
    for (const scope of SCOPES) {
      const minus = await h.http
        .post('/v1/me/tokens')
        .set(bearer(full))
        .send({ scopes: SCOPES.filter((s) => s !== scope) })
        .expect(201);
      without.set(scope, minus.body.token);
      const only = await h.http
        .post('/v1/me/tokens')
        .set(bearer(full))
        .send({ scopes: [...new Set<Scope>(['match:read', scope])] })
        .expect(201);
      withOnly.set(scope, only.body.token);
    }
  });

  const fieldsOf = async (type: 'Mutation' | 'Subscription'): Promise<string[]> => {
    const r = await h.http
      .post('/graphql')
      .send({ query: `{ __type(name: "${type}") { fields { name } } }` })
      .expect(200);
    return (r.body.data.__type.fields as { name: string }[]).map((f) => `${type}.${f.name}`);
  };

  /** The codes a document's errors carry, with `token`, over HTTP (mutations, queries) or WebSocket (subscriptions). */
  const codesOf = async (document: string, token: string): Promise<string[]> => {
    if (document.startsWith('subscription')) {
      const client = gqlWsClient(h.baseUrl(), token);
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
    const r = await h.http.post('/graphql').set(bearer(token)).send({ query: document });
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
