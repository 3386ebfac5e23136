/**
 * Hidden information through every read path, under every rules setting that changes what is
 * visible (R-FACE-12 coveredHitByArrow FLIP_OWNERSHIP, R-FACE-7 growthAutoReveal, R-CRED-1/2 +
 * R-FACE-4 low credits with many deferred reveals, R-PLAY-5 allowDirectBlockPlay, all together),
 * on both databases. For each seat token and anonymous: GET state, /events, /legal-actions?text=true,
 * GraphQL match { board graveyards legalActions { text } events }, and the problem bodies of
 * illegal moves, and the lean answers of actions played over the GraphQL WebSocket. The oracle (secrecy.ts) is the server's true state. The aggregate reads (profiles,
 * leaderboard, a player's export; REST and GraphQL) must not name the deck of an unfinished match.
 * The lobby's payloads (the account feed's snapshots and entries, challenges, seeks, rematch views,
 * tournaments on REST and GraphQL) hold no token but the caller's new one, no deck but an owner's own
 * seek label, no card, no seed.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { bearer, prng, registerPlayer, STARTERS, type Backend, type Harness, useHarness, waitFor } from '../helpers.js';
import { assertNoLeak, assertTextSafe, secretsFor } from './secrecy.js';
import { quotedIn } from './quoted.js';
import { execute, gqlWsClient, type Next } from '../../../bench/lib/graphql-ws.js';
import { defaultCardSet, pendingDecision, type GameState, type Seat, type Viewer } from '../../../src/games/evons/index.js';
import { FEED_KINDS } from '../../../src/service/live/account-feed.js';
import { parseSettings, resolveDeck } from '../../../src/service/lobby/lobby.js';
import { gameRuleset } from '../../../src/service/match/games.js';
import { deckLabel } from '../../../src/service/accounts/ratings.js';
import type { DeckSpec } from '../../../src/service/match/types.js';

const VIEWERS = ['p1', 'p2', 'spectator'] as const;
/** The account feed's tournament entries: the tournament case reaches and checks them. */
const TOURNAMENT_KINDS: readonly string[] = FEED_KINDS.filter((k) => k.startsWith('tournament-'));
/** Matches per configuration (raise locally for a deeper search: LEAK_MATCHES=5). */
const MATCHES = Number(process.env.LEAK_MATCHES ?? 1);
const MAX_ACTIONS = 200;

const CONFIGS: Record<string, object> = {
  'R-FACE-12 FLIP_OWNERSHIP': { coveredHitByArrow: 'FLIP_OWNERSHIP' },
  'R-FACE-7 growthAutoReveal': { growthAutoReveal: true },
  'R-CRED-1/2 R-FACE-4 low credits, deferred reveals': { startingCredits: 0, creditsPerTurn: 1 },
  'R-PLAY-5 allowDirectBlockPlay': { allowDirectBlockPlay: true },
  'all together': {
    coveredHitByArrow: 'FLIP_OWNERSHIP',
    growthAutoReveal: true,
    startingCredits: 2,
    creditsPerTurn: 1,
    allowDirectBlockPlay: true,
    handLimit: 3,
  },
};

const MATCH = /* GraphQL */ `
  query ($id: ID!, $after: Int) {
    match(id: $id) {
      id
      version
      status
      seat
      pending
      legalActions {
        type
        action
        text
      }
      events(after: $after, limit: 500) {
        events {
          seq
          type
          data
        }
      }
      ... on EvonsMatch {
        board {
          name
          card {
            id
            owner
            facing
            covered
            defId
            name
            face {
              defId
              name
            }
          }
        }
        graveyards {
          p1 {
            id
            defId
            name
          }
          p2 {
            id
            defId
            name
          }
        }
        removed {
          id
          defId
          name
        }
        hand {
          id
          defId
          name
        }
      }
    }
  }
`;

/** P1 controls (facing) two covered cards due at step 3: its own Pebble Imp and P2's Gravel Mole, flipped to it. */
const FLIPPED_POSITION = {
  format: 'evons-position/1',
  cardSetId: 'set00-placeholder',
  config: { coveredHitByArrow: 'FLIP_OWNERSHIP' },
  first: 'p1',
  turn: 3,
  active: 'p1',
  step: 'reveal',
  credits: { p1: 50, p2: 50 },
  cards: {
    k1: { def: 'pebble-imp', owner: 'p1' },
    k2: { def: 'gravel-mole', owner: 'p2' },
    k3: { def: 'seedling-sprite', owner: 'p1' },
    k4: { def: 'quarry-ram', owner: 'p2' },
    k5: { def: 'shale-crab', owner: 'p1' },
    k6: { def: 'shale-crab', owner: 'p2' },
  },
  board: {
    C3: { id: 'k1', facing: 'p1', covered: true },
    D3: { id: 'k2', facing: 'p1', covered: true },
  },
  hands: { p1: ['k3'], p2: ['k4'] },
  decks: { p1: ['k5'], p2: ['k6'] },
  graveyards: { p1: [], p2: [] },
  removed: [],
  revealDue: ['k1', 'k2'],
};

/**
 * The suite on one backend. Each backend has its own test file (leak.test.ts: PGlite,
 * leak.postgres.test.ts: PostgreSQL) so the two halves run in parallel on the two workers.
 */
export function leakSuite(backend: Backend): void {
  describe.skipIf(backend.skipReason !== null)(`secrecy on every read path [${backend.name}]`, () => {
    const h = useHarness(backend);

    const as = (req: ReturnType<Harness['http']['get']>, token: string | undefined) => (token ? req.set(bearer(token)) : req);
    const gql = (token: string | undefined, query: string, variables: Record<string, unknown>) =>
      as(h.http.post('/graphql').send({ query, variables }), token);
    const truth = async (id: string): Promise<GameState> => (await h.app.service.load(id, undefined)).state as GameState;

    /** Every read path for one viewer, checked against the true state. */
    async function sweep(id: string, tokens: Record<Seat, string>, viewer: Viewer, after: number, label: string): Promise<number> {
      const state = await truth(id);
      const s = secretsFor(state, viewer);
      const token = viewer === 'spectator' ? undefined : tokens[viewer];
      const got = await as(h.http.get(`/v1/matches/${id}`), token).expect(200);
      assertNoLeak(got.text, s, `${label} GET state ${viewer}`);
      const ev = await as(h.http.get(`/v1/matches/${id}/events?after=${after}&limit=500`), token).expect(200);
      assertNoLeak(ev.text, s, `${label} /events ${viewer}`);
      let texts = 0;
      if (viewer !== 'spectator') {
        const legal = await as(h.http.get(`/v1/matches/${id}/legal-actions?text=true`), token).expect(200);
        assertNoLeak(legal.text, s, `${label} legal ${viewer}`);
        for (const o of legal.body.actions as { action: unknown; text: string }[])
          assertTextSafe(state, s, o.action, o.text, `${label} legal text ${viewer}`);
        texts += legal.body.actions.length;
      }
      const g = await gql(token, MATCH, { id, after }).expect(200);
      expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
      assertNoLeak(g.text, s, `${label} GraphQL ${viewer}`);
      for (const o of g.body.data.match.legalActions as { action: unknown; text: string }[])
        assertTextSafe(state, s, o.action, o.text, `${label} GraphQL text ${viewer}`);
      return texts;
    }

    /**
     * Random moves by each seat with ids it may or may not know; the problem bodies must not name
     * hidden cards. Returns true if one happened to be legal (the match moved on).
     */
    async function illegal(id: string, tokens: Record<Seat, string>, rand: () => number, label: string): Promise<boolean> {
      const state = await truth(id);
      const ids = Object.keys(state.cards);
      const pickId = () => ids[Math.floor(rand() * ids.length)]!;
      for (const seat of ['p1', 'p2'] as const) {
        const s = secretsFor(state, seat);
        const tries = [
          { type: 'reveal', card: pickId() },
          { type: 'play', card: pickId(), cell: 'C3', covered: false },
          { type: 'discard', card: pickId() },
          { type: 'conflict', defender: pickId() },
        ];
        for (const action of tries) {
          const r = await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[seat])).send({ action });
          if (r.status === 200) return true;
          expect(r.status).toBeLessThan(500);
          assertNoLeak(r.text, s, `${label} problem for ${seat}`);
          assertTextSafe(state, s, action, r.text, `${label} problem for ${seat}`);
          const g = await gql(tokens[seat], 'mutation ($id: ID!, $a: JSON) { submitAction(matchId: $id, action: $a) { version } }', {
            id,
            a: action,
          }).expect(200);
          assertTextSafe(state, s, action, JSON.stringify(g.body.errors), `${label} GraphQL error for ${seat}`);
          if (!g.body.errors) return true;
        }
      }
      return false;
    }

    it('R-FACE-12 FLIP_OWNERSHIP: the controller of a flipped covered card gets a neutral reveal text on REST and GraphQL', async () => {
      const res = await h.http.post('/v1/matches').send({ position: FLIPPED_POSITION }).expect(201);
      const id: string = res.body.id;
      const tokens = res.body.tokens as Record<Seat, string>;
      const legal = await h.http.get(`/v1/matches/${id}/legal-actions?text=true`).set(bearer(tokens.p1)).expect(200);
      const texts = (legal.body.actions as { text: string }[]).map((a) => a.text);
      expect(texts).toContain('Reveal the covered card at D3');
      expect(texts).toContain('Reveal Pebble Imp');
      expect(texts.join('\n')).not.toContain('Gravel Mole');
      const g = await gql(tokens.p1, MATCH, { id, after: 0 }).expect(200);
      const gTexts = (g.body.data.match.legalActions as { text: string }[]).map((a) => a.text);
      expect(gTexts).toContain('Reveal the covered card at D3');
      expect(gTexts.join('\n')).not.toContain('Gravel Mole');
      for (const viewer of VIEWERS) await sweep(id, tokens, viewer, 0, 'flipped position');
      await illegal(id, tokens, prng(1), 'flipped position');
    });

    it("challenges show nobody the challenger's deck, nor any token, on REST and GraphQL, before and after the accept", async () => {
      const cy = await registerPlayer(h.http, 'cy-');
      const di = await registerPlayer(h.http, 'di-');
      const secrets = [STARTERS[1], STARTERS[2], cy.token, di.token];
      const FIELDS = 'id status challenger { handle } to { handle } allowed game timeControl rated seat settings declineReason matchId';
      const reads = async (id: string, extra: string[] = []): Promise<[string, string][]> => {
        const out: [string, string][] = [];
        for (const [who, token] of [
          ['anonymous', undefined],
          ['challenger', cy.token],
          ['challenged', di.token],
        ] as const) {
          const r = h.http.get(`/v1/challenges/${id}`);
          out.push([`GET challenge as ${who}`, (await (token ? r.set(bearer(token)) : r).expect(200)).text]);
          out.push([
            `GraphQL challenge as ${who}`,
            (await gql(token, `query ($id: ID!) { challenge(id: $id) { ${FIELDS} } }`, { id }).expect(200)).text,
          ]);
        }
        for (const [who, token] of [
          ['challenger', cy.token],
          ['challenged', di.token],
        ] as const) {
          for (const direction of ['in', 'out']) {
            out.push([
              `${direction} list of ${who}`,
              (await h.http.get(`/v1/me/challenges?direction=${direction}`).set(bearer(token)).expect(200)).text,
            ]);
            out.push([
              `GraphQL ${direction} list of ${who}`,
              (await gql(token, `{ myChallenges(direction: ${direction}) { challenges { ${FIELDS} } } }`, {}).expect(200)).text,
            ]);
          }
        }
        // A refused read would be clean for nothing: every answer here is data.
        for (const [label, body] of out) expect(JSON.parse(body).errors, label).toBeUndefined();
        return [...out, ...extra.map((t, i): [string, string] => [`answer ${i}`, t])];
      };
      const assertClean = (all: [string, string][], when: string, allowed: string[] = []) => {
        for (const [label, body] of all) {
          for (const x of secrets.filter((s) => !allowed.includes(s)))
            expect(body.includes(x), `${when}: ${label} holds ${x.slice(0, 12)}…`).toBe(false);
        }
      };
      const created = await h.http
        .post('/v1/challenges')
        .set(bearer(cy.token))
        .send({ to: di.handle, deck: { starter: STARTERS[1] } })
        .expect(201);
      const viaGql = await gql(
        cy.token,
        `mutation { createChallenge(input: { to: "${di.handle}", deck: { starter: "${STARTERS[1]}" } }) { ${FIELDS} } }`,
        {},
      ).expect(200);
      assertClean(await reads(created.body.id, [created.text, viaGql.text]), 'open');
      const acc = await h.http
        .post(`/v1/challenges/${created.body.id}/accept`)
        .set(bearer(di.token))
        .send({ deck: { starter: STARTERS[2] } })
        .expect(200);
      // The acceptor's answer holds its own seat token (and nothing else secret).
      assertClean([['accept answer', acc.text]], 'accept');
      assertClean(await reads(created.body.id), 'accepted, match running');
    });

    it("the lean answers over the GraphQL WebSocket (one socket per seat): each seat's events, pending decision and legal actions with their texts hold nothing hidden from it", async () => {
      const ACT = `mutation ($id: ID!, $a: JSON!, $v: Int) {
        submitAction(matchId: $id, action: $a, expectedVersion: $v) { version status pending events { seq type data } legalActions { type action text } }
      }`;
      const LEGAL = 'query ($id: ID!) { match(id: $id) { version legalActions { action text } } }';
      for (const [name, settings] of Object.entries(CONFIGS)) {
        const seed = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);
        const rand = prng(seed);
        const label = `ws ${name} seed ${seed}`;
        const created = await h.http
          .post('/v1/matches')
          .send({ settings, decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } } })
          .expect(201);
        const id: string = created.body.id;
        const tokens = created.body.tokens as Record<Seat, string>;
        const sockets = {
          p1: gqlWsClient(h.baseUrl(), tokens.p1, { persistent: true }),
          p2: gqlWsClient(h.baseUrl(), tokens.p2, { persistent: true }),
        };
        try {
          let state = await truth(id);
          let seat = pendingDecision(state)!.seat;
          type Option = { action: unknown; text: string };
          let known: Option[] | null = null;
          let version: number = created.body.version;
          for (let n = 0; n < MAX_ACTIONS; n++) {
            if (!known) {
              const l = await execute<{ match: { version: number; legalActions: { action: unknown; text: string }[] } }>(
                sockets[seat],
                LEGAL,
                { id },
              );
              assertNoLeak(JSON.stringify(l), secretsFor(state, seat), `${label} #${n} legal over ws`);
              known = l.data!.match.legalActions;
            }
            for (const o of known) assertTextSafe(state, secretsFor(state, seat), o.action, o.text, `${label} #${n} legal text`);
            const choice: Option = known[Math.floor(rand() * known.length)]!;
            type Answer = { version: number; status: string; pending: { seat: Seat } | null; legalActions: Option[] };
            const r: Next<{ submitAction: Answer }> = await execute<{ submitAction: Answer }>(sockets[seat], ACT, {
              id,
              a: choice.action,
              v: version,
            });
            expect(r.errors, `${label}: ${JSON.stringify(r.errors)}`).toBeUndefined();
            state = await truth(id);
            const s = secretsFor(state, seat);
            assertNoLeak(JSON.stringify(r), s, `${label} #${n} answer over ws to ${seat}`);
            const a: Answer = r.data!.submitAction;
            for (const o of a.legalActions) assertTextSafe(state, s, o.action, o.text, `${label} #${n} answer legal text`);
            version = a.version;
            if (a.status !== 'active' || !a.pending) break;
            if (a.pending.seat === seat) known = a.legalActions;
            else {
              expect(a.legalActions, `${label}: legal actions for a decision not the caller's`).toEqual([]);
              known = null;
              seat = a.pending.seat;
            }
          }
        } finally {
          await Promise.all([sockets.p1.dispose(), sockets.p2.dispose()]);
        }
      }
    });

    it('profiles, the leaderboard and the player export name no deck of an unfinished match (REST and GraphQL)', async () => {
      const ann = await registerPlayer(h.http, 'ann-');
      const bob = await registerPlayer(h.http, 'bob-');
      const text = (r: { text: string }) => r.text;
      /** Every public aggregate read about both players: profile, leaderboard, history export, on both APIs. */
      const publicReads = async (): Promise<[string, string][]> => {
        const reads: [string, string][] = [];
        for (const p of [ann, bob]) {
          reads.push([`GET /v1/players/${p.handle}`, text(await h.http.get(`/v1/players/${p.handle}`).expect(200))]);
          const g = await gql(
            undefined,
            'query ($h: String!) { player(handle: $h) { handle stats { played } favouriteDecks { game deck matches } } }',
            { h: p.handle },
          ).expect(200);
          expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
          reads.push([`GraphQL player ${p.handle}`, g.text]);
          const ex = await h.http
            .get(`/v1/players/${p.handle}/matches/export?events=true`)
            .buffer(true)
            .parse((r, done) => {
              let t = '';
              r.on('data', (c: Buffer) => (t += c.toString()));
              r.on('end', () => done(null, t));
            });
          expect(ex.status).toBe(200);
          reads.push([`export of ${p.handle}`, ex.body as string]);
        }
        for (const family of ['correspondence', 'live']) {
          reads.push([`GET /v1/leaderboard ${family}`, text(await h.http.get(`/v1/leaderboard?timeControl=${family}`).expect(200))]);
          const g = await gql(undefined, `{ leaderboard(timeControl: "${family}") { players { handle rating games } } }`, {}).expect(200);
          reads.push([`GraphQL leaderboard ${family}`, g.text]);
        }
        return reads;
      };
      const assertNoDeck = async (decks: string[], when: string) => {
        for (const [label, body] of await publicReads()) {
          for (const d of decks) expect(body.includes(d), `${when}: ${label} names ${d}: ${body.slice(0, 400)}`).toBe(false);
        }
      };

      const created = await h.http
        .post('/v1/matches')
        .set(bearer(ann.token))
        .send({ openSeat: true, decks: { p1: { starter: STARTERS[1] } } })
        .expect(201);
      const id: string = created.body.id;
      await assertNoDeck([STARTERS[1]], 'waiting');
      await h.http
        .post(`/v1/matches/${id}/join`)
        .set(bearer(bob.token))
        .send({ deck: { starter: STARTERS[2] } })
        .expect(200);
      await assertNoDeck([STARTERS[1], STARTERS[2]], 'active');
      // Once it is over the decks are public (the export publishes the lists), and the profile counts them.
      await h.http
        .post(`/v1/matches/${id}/actions`)
        .set(bearer(ann.token))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const pa = await h.http.get(`/v1/players/${ann.handle}`).expect(200);
      expect(pa.body.favouriteDecks).toEqual([{ game: 'evons', deck: STARTERS[1], matches: 1 }]);
      const pb = await gql(undefined, 'query ($h: String!) { player(handle: $h) { favouriteDecks { game deck matches } } }', {
        h: bob.handle,
      }).expect(200);
      expect(pb.body.data.player.favouriteDecks).toEqual([{ game: 'evons', deck: STARTERS[2], matches: 1 }]);
    });

    for (const [name, settings] of Object.entries(CONFIGS)) {
      it(`${name}: random matches leak nothing on any read path, to any seat or anonymous`, async () => {
        for (let m = 0; m < MATCHES; m++) {
          const seed = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000) + m;
          const rand = prng(seed);
          const label = `${name} seed ${seed}`;
          const created = await h.http
            .post('/v1/matches')
            .send({ settings, decks: { p1: { starter: STARTERS[m % 3] }, p2: { starter: STARTERS[(m + 1) % 3] } } })
            .expect(201);
          const id: string = created.body.id;
          const tokens = created.body.tokens as Record<Seat, string>;
          let version: number = created.body.version;
          let status = 'active';
          let swept = 0;
          for (let n = 0; status === 'active' && n < MAX_ACTIONS; n++) {
            // Random moves first (they may happen to be legal and move the match on).
            if (n % 10 === 3 && (await illegal(id, tokens, rand, `${label} #${n}`))) continue;
            const state = await truth(id);
            const seat = pendingDecision(state)!.seat;
            // The deciding seat's texts at every decision; the full sweep every other action.
            const legal = await h.http.get(`/v1/matches/${id}/legal-actions?text=true`).set(bearer(tokens[seat])).expect(200);
            const options = legal.body.actions as { action: unknown; text: string }[];
            for (const o of options) assertTextSafe(state, secretsFor(state, seat), o.action, o.text, `${label} #${n} legal text`);
            const choice = options[Math.floor(rand() * options.length)]!;
            // Both forms of the answer: the lean default with the next legal actions, and the whole view.
            const form = n % 2 === 0 ? { prefer: 'return=representation' } : {};
            const r = await h.http
              .post(`/v1/matches/${id}/actions${n % 2 === 0 ? '' : '?include=legal'}`)
              .set(bearer(tokens[seat]))
              .set(form)
              .send({ action: choice.action });
            expect(r.status, `${label}: ${JSON.stringify(r.body)}`).toBe(200);
            assertNoLeak(r.text, secretsFor(await truth(id), seat), `${label} action response`);
            version = r.body.version;
            status = n % 2 === 0 ? r.body.match.status : r.body.status;
            if (n % 2 === 0) {
              for (const viewer of VIEWERS) await sweep(id, tokens, viewer, swept, `${label} #${n}`);
              swept = version;
            }
          }
          if (status === 'active')
            await h.http
              .post(`/v1/matches/${id}/actions`)
              .set(bearer(tokens.p1))
              .send({ action: { type: 'resign' } })
              .expect(200);
          // The whole log for everyone once the game is over.
          for (const viewer of VIEWERS) await sweep(id, tokens, viewer, 0, `${label} end`);
        }
      });
    }
  });

  /**
   * The lobby's payloads (issue 23): the account feed (every snapshot and every kind of entry, to
   * both players and a third), challenge views and lists, seeks (public list: no deck; own list:
   * the deck's label only) and rematch views. None may carry a token (the answer that mints one
   * for its caller holds that one only), a deck (label or card list, except an owner's own seek
   * label), a card of any match (definition or instance id) or a running match's seed. A clock
   * of the harness's own moves the challenges past their expiry.
   */
  describe.skipIf(backend.skipReason !== null)(`secrecy of the lobby's payloads [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true, challenges: { perHour: 50 } });
    const gql = (token: string | undefined, query: string, variables: Record<string, unknown> = {}) => {
      const r = h.http.post('/graphql').send({ query, variables });
      return token ? r.set(bearer(token)) : r;
    };
    const evons = gameRuleset('evons');
    const labelOf = (spec: DeckSpec) => deckLabel(spec, resolveDeck(evons, spec, parseSettings(evons, {}), 'deck'));
    const CARD_DEFS = [...defaultCardSet().byId.keys()];
    const CHALLENGE =
      'id status challenger { handle } to { handle } allowed game timeControl rated seat settings declineReason matchId createdAt expiresAt';
    const SEEK =
      'id handle bot game timeControl { kind daysPerMove initialSeconds incrementSeconds } rated minRating maxRating createdAt expiresAt';

    /** An NDJSON account feed: its messages as they arrive. */
    function feed(token: string) {
      const messages: { type?: string; data?: Record<string, unknown> }[] = [];
      const raw: string[] = [];
      let buf = '';
      const req = http.get(`${h.baseUrl()}/v1/me/events`, { headers: bearer(token) }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let i: number;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (line.trim() === '') continue;
            raw.push(line);
            messages.push(JSON.parse(line));
          }
        });
      });
      req.on('error', () => {});
      return { messages, raw, kinds: () => messages.map((m) => m.type), close: () => req.destroy() };
    }

    /**
     * What no lobby payload may hold: every token seen, every deck label, every card definition id,
     * and every card instance id and seed of the matches (read from the server's true state).
     */
    const secret = { tokens: new Set<string>(), labels: new Set<string>(), matches: new Set<string>() };
    async function forbidden(): Promise<{ plain: string[]; quoted: string[] }> {
      const quoted = [...CARD_DEFS];
      const plain = [...secret.tokens, ...secret.labels];
      for (const id of secret.matches) {
        const state = (await h.app.service.load(id, undefined)).state as GameState;
        quoted.push(...Object.keys(state.cards));
        plain.push(state.seed);
      }
      return { plain, quoted };
    }
    /** `allowed`: what this payload may hold (a token minted for its caller, in that answer). */
    async function assertClean(label: string, text: string, allowed: string[] = []): Promise<void> {
      const { plain, quoted } = await forbidden();
      for (const x of plain)
        if (!allowed.includes(x)) expect(text.includes(x), `${label} holds ${x.slice(0, 14)}…: ${text.slice(0, 600)}`).toBe(false);
      const q = quotedIn(text);
      for (const x of quoted) expect(q(x), `${label} names the card ${x}: ${text.slice(0, 600)}`).toBe(false);
    }
    /** An owner's seek views: each deck is exactly its label; the rest holds no secret. */
    async function assertOwnSeeks(label: string, seeks: { id: string; deck?: string }[], labels: Map<string, string>): Promise<void> {
      for (const s of seeks) {
        expect(s.deck, `${label}: seek ${s.id}`).toBe(labels.get(s.id));
        await assertClean(`${label} (seek ${s.id} less its label)`, JSON.stringify({ ...s, deck: undefined }));
      }
    }
    /** A player whose token the leak checks look for. */
    async function secretPlayer(name: string) {
      const p = await registerPlayer(h.http, `lk-${name}-`);
      secret.tokens.add(p.token);
      return p;
    }

    it('the account feed (snapshots and every kind of entry, to both players and a third), challenge views and lists, seeks and rematch views hold no deck, card, seed or token', async () => {
      const decks = (await h.http.get('/v1/decks').expect(200)).body.decks as { id: string; cards: { card: string; count: number }[] }[];
      const listA: DeckSpec = { cards: decks.find((d) => d.id === STARTERS[1])!.cards };
      const listB: DeckSpec = { cards: decks.find((d) => d.id === STARTERS[0])!.cards };
      for (const spec of [listA, listB, ...STARTERS.map((starter) => ({ starter }))]) secret.labels.add(labelOf(spec));
      expect(secret.labels.size).toBe(5);

      const ann = await secretPlayer('ann');
      const bob = await secretPlayer('bob');
      const cy = await secretPlayer('cy');
      const feeds = { ann: feed(ann.token), bob: feed(bob.token), cy: feed(cy.token) };
      await waitFor(() => Object.values(feeds).every((f) => f.messages.length === 1), 'the snapshots');
      const answers: [string, string, string[]][] = [];
      const challenge = async (from: { token: string }, to: string, body: Record<string, unknown>) => {
        const r = await h.http
          .post('/v1/challenges')
          .set(bearer(from.token))
          .send({ to, ...body })
          .expect(201);
        answers.push([`challenge answer ${r.body.id}`, r.text, []]);
        return r.body.id as string;
      };

      // c1 (ann's card list): accepted; the match runs, then ann resigns.
      const c1 = await challenge(ann, bob.handle, { deck: listA });
      const acc = await h.http
        .post(`/v1/challenges/${c1}/accept`)
        .set(bearer(bob.token))
        .send({ deck: { starter: STARTERS[2] } })
        .expect(200);
      const m1 = acc.body.match.id as string;
      secret.matches.add(m1);
      const accToken = JSON.stringify(acc.body).match(/"token":"([^"]+)"/)?.[1];
      if (accToken) secret.tokens.add(accToken);
      answers.push(['accept answer', acc.text, accToken ? [accToken] : []]);
      await waitFor(() => feeds.ann.kinds().includes('match-started') && feeds.bob.kinds().includes('match-started'), 'the start');
      // The running match, as the snapshots show it.
      const running = { ann: feed(ann.token), bob: feed(bob.token) };
      await waitFor(() => running.ann.messages.length === 1 && running.bob.messages.length === 1, 'the snapshots with a running match');
      expect((running.ann.messages[0]!.data!.matches as unknown[]).length).toBe(1);
      await h.http
        .post(`/v1/matches/${m1}/actions`)
        .set(bearer(ann.token))
        .send({ action: { type: 'resign' } })
        .expect(200);
      await waitFor(() => feeds.bob.kinds().includes('match-ended'), 'the end');

      // The rematch: offered by ann, accepted by bob, ann claims her seat.
      const rematchReads = async (when: string, ids: string[]) => {
        for (const id of ids) {
          for (const [who, token] of [
            ['anonymous', undefined],
            ['ann', ann.token],
            ['bob', bob.token],
            ['cy', cy.token],
          ] as const) {
            const r = h.http.get(`/v1/matches/${id}`);
            const got = await (token ? r.set(bearer(token)) : r).expect(200);
            const state = (await h.app.service.load(id, undefined)).state as GameState;
            const viewer: Viewer = got.body.seat ?? 'spectator';
            assertNoLeak(got.text, secretsFor(state, viewer), `${when}: GET ${id} as ${who}`);
            for (const t of secret.tokens) expect(got.text.includes(t), `${when}: GET ${id} as ${who} holds a token`).toBe(false);
            const g = await gql(
              token,
              'query ($id: ID!) { match(id: $id) { id status seat rematchOf rematch { offeredBy status expiresAt matchId } } }',
              { id },
            ).expect(200);
            expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
            await assertClean(`${when}: GraphQL rematch of ${id} as ${who}`, g.text);
          }
        }
      };
      const offer = await h.http.post(`/v1/matches/${m1}/rematch`).set(bearer(ann.token)).send({}).expect(200);
      answers.push(['rematch offer answer', offer.text, []]);
      await waitFor(() => feeds.bob.kinds().includes('rematch-offered'), 'the rematch offer');
      await rematchReads('rematch offered', [m1]);
      const racc = await h.http.post(`/v1/matches/${m1}/rematch/accept`).set(bearer(bob.token)).send({}).expect(201);
      const m2 = racc.body.id as string;
      secret.tokens.add(racc.body.token);
      answers.push(['rematch accept answer', racc.text, [racc.body.token]]);
      const claim = await h.http.post(`/v1/matches/${m1}/rematch/seat`).set(bearer(ann.token)).send({}).expect(200);
      secret.tokens.add(claim.body.token);
      answers.push(['rematch seat answer', claim.text, [claim.body.token]]);
      secret.matches.add(m2);
      await rematchReads('rematch accepted', [m1, m2]);

      // c2 declined, c3 cancelled, c4 (bob's) expires, c5 stays open for the snapshots.
      const c2 = await challenge(ann, bob.handle, { deck: { starter: STARTERS[0] } });
      answers.push([
        'decline answer',
        (await h.http.post(`/v1/challenges/${c2}/decline`).set(bearer(bob.token)).send({ reason: 'later' }).expect(200)).text,
        [],
      ]);
      const c3 = await challenge(ann, bob.handle, { deck: listB });
      answers.push([
        'cancel answer',
        (await h.http.post(`/v1/challenges/${c3}/cancel`).set(bearer(ann.token)).send({}).expect(200)).text,
        [],
      ]);
      const c4 = await challenge(bob, ann.handle, {
        deck: { starter: STARTERS[1] },
        timeControl: { kind: 'correspondence', daysPerMove: 3 },
      });
      h.t.now += 30 * 86_400_000;
      await h.http.get(`/v1/challenges/${c4}`).expect(200);
      await waitFor(() => feeds.ann.kinds().includes('challenge-expired') && feeds.bob.kinds().includes('challenge-expired'), 'the expiry');
      const c5 = await challenge(ann, bob.handle, { deck: listA });

      // ann's open seek (a card list): her snapshot and own lists show its label only; nobody else sees it.
      const seekLabels = new Map<string, string>();
      const open = await h.http
        .post('/v1/seeks')
        .set(bearer(ann.token))
        .send({ timeControl: { kind: 'correspondence', daysPerMove: 2 }, deck: listB })
        .expect(201);
      seekLabels.set(open.body.id, labelOf(listB));
      await assertOwnSeeks('seek answer', [open.body], seekLabels);
      const snaps = { ann: feed(ann.token), bob: feed(bob.token), cy: feed(cy.token) };
      await waitFor(() => Object.values(snaps).every((f) => f.messages.length === 1), 'the snapshots with an open seek');
      const annSnap = snaps.ann.messages[0]!.data as { seeks: { id: string; deck: string }[]; challenges: { out: { id: string }[] } };
      expect(annSnap.seeks.map((s) => s.id)).toEqual([open.body.id]);
      expect(annSnap.challenges.out.map((c) => c.id)).toEqual([c5]);
      await assertOwnSeeks("ann's snapshot", annSnap.seeks, seekLabels);
      await assertClean("ann's snapshot less her seeks", JSON.stringify({ ...annSnap, seeks: [] }));
      for (const who of ['bob', 'cy'] as const) await assertClean(`${who}'s snapshot`, snaps[who].raw.join('\n'));
      for (const [who, token] of [
        ['anonymous', undefined],
        ['ann', ann.token],
        ['bob', bob.token],
        ['cy', cy.token],
      ] as const) {
        const r = h.http.get('/v1/seeks');
        const list = await (token ? r.set(bearer(token)) : r).expect(200);
        expect(list.body.seeks.map((s: { id: string }) => s.id)).toContain(open.body.id);
        await assertClean(`GET /v1/seeks as ${who}`, list.text);
        const g = await gql(token, `{ seeks { seeks { ${SEEK} } nextCursor } }`).expect(200);
        expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
        await assertClean(`GraphQL seeks as ${who}`, g.text);
      }
      await assertOwnSeeks(
        'GET /v1/me/seeks',
        (await h.http.get('/v1/me/seeks').set(bearer(ann.token)).expect(200)).body.seeks,
        seekLabels,
      );
      const mine = await gql(ann.token, `{ mySeeks { ${SEEK} status matchId deck } }`).expect(200);
      expect(mine.body.errors, JSON.stringify(mine.body.errors)).toBeUndefined();
      await assertOwnSeeks('GraphQL mySeeks', mine.body.data.mySeeks, seekLabels);

      // bob's seek pairs with it: seek-paired and match-started for both.
      const paired = await h.http
        .post('/v1/seeks')
        .set(bearer(bob.token))
        .send({ timeControl: { kind: 'correspondence', daysPerMove: 2 }, deck: { starter: STARTERS[2] } })
        .expect(201);
      expect(paired.body.status).toBe('paired');
      seekLabels.set(paired.body.id, STARTERS[2]);
      await assertOwnSeeks('paired seek answer', [paired.body], seekLabels);
      secret.matches.add(paired.body.matchId);
      await assertOwnSeeks(
        'GET /v1/me/seeks after the pairing',
        (await h.http.get('/v1/me/seeks').set(bearer(ann.token)).expect(200)).body.seeks,
        seekLabels,
      );

      // Challenge views and lists, to everyone, on REST and GraphQL.
      for (const id of [c1, c2, c3, c4, c5]) {
        for (const [who, token] of [
          ['anonymous', undefined],
          ['ann', ann.token],
          ['bob', bob.token],
          ['cy', cy.token],
        ] as const) {
          const r = h.http.get(`/v1/challenges/${id}`);
          await assertClean(`GET challenge ${id} as ${who}`, (await (token ? r.set(bearer(token)) : r).expect(200)).text);
          const g = await gql(token, `query ($id: ID!) { challenge(id: $id) { ${CHALLENGE} } }`, { id }).expect(200);
          expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
          await assertClean(`GraphQL challenge ${id} as ${who}`, g.text);
        }
      }
      for (const [who, token] of [
        ['ann', ann.token],
        ['bob', bob.token],
        ['cy', cy.token],
      ] as const) {
        for (const direction of ['in', 'out']) {
          const list = await h.http.get(`/v1/me/challenges?direction=${direction}&limit=100`).set(bearer(token)).expect(200);
          if (who !== 'cy') expect(list.body.challenges.length).toBeGreaterThan(0);
          await assertClean(`${direction} challenges of ${who}`, list.text);
          const g = await gql(token, `{ myChallenges(direction: ${direction}, limit: 100) { challenges { ${CHALLENGE} } } }`).expect(200);
          expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
          await assertClean(`GraphQL ${direction} challenges of ${who}`, g.text);
        }
      }
      for (const [label, text, allowed] of answers) await assertClean(label, text, allowed);

      // Every kind of entry reached ann or bob; the third player heard nothing; no entry holds a secret.
      await waitFor(
        () => feeds.ann.kinds().filter((k) => k === 'match-started').length === 3 && feeds.bob.kinds().includes('seek-paired'),
        'the pairing',
      );
      // The tournament kinds reach the entrants of the tournament case below, which checks them.
      expect(new Set([...feeds.ann.kinds(), ...feeds.bob.kinds()])).toEqual(
        new Set(['snapshot', ...FEED_KINDS.filter((k) => !TOURNAMENT_KINDS.includes(k))]),
      );
      expect(feeds.cy.kinds()).toEqual(['snapshot']);
      for (const [who, f] of Object.entries({ ...feeds, 'ann (running match)': running.ann, 'bob (running match)': running.bob })) {
        for (const line of f.raw) await assertClean(`${who}'s feed`, line);
      }
      for (const f of [...Object.values(feeds), ...Object.values(running), ...Object.values(snaps)]) f.close();
    });

    it("tournaments (every read and answer, REST and GraphQL, to anyone, open, running and finished; the entrants' feeds) hold no entrant's deck, no token, no card and no match's seed", async () => {
      const decks = (await h.http.get('/v1/decks').expect(200)).body.decks as { id: string; cards: { card: string; count: number }[] }[];
      const list: DeckSpec = { cards: decks.find((d) => d.id === STARTERS[2])!.cards };
      for (const spec of [list, ...STARTERS.map((starter) => ({ starter }))]) secret.labels.add(labelOf(spec));
      const org = await secretPlayer('org');
      const entrants = [await secretPlayer('te1'), await secretPlayer('te2'), await secretPlayer('te3')];
      const TOURNAMENT = `id name organizer game format rounds timeControl { kind daysPerMove } rated deckRule maxPlayers invited status seed round
        players { handle bot rating withdrawn } pairings { round boards { board p1 p2 matchId result forfeit } }`;
      const STANDINGS =
        'tournamentId status round final standings { rank handle points games byes buchholz sonnebornBerger directEncounter withdrawn } crosstable { players points cells }';
      const answers: [string, string][] = [];
      const created = await gql(
        org.token,
        `mutation { createTournament(input: { name: "Leak Cup", format: "swiss", rounds: 2, deckRule: "any", timeControl: { kind: "correspondence", daysPerMove: 3 } }) { ${TOURNAMENT} } }`,
      ).expect(200);
      expect(created.body.errors, JSON.stringify(created.body.errors)).toBeUndefined();
      const id = created.body.data.createTournament.id as string;
      answers.push(['GraphQL create answer', created.text]);
      // A card list over GraphQL, a starter over REST, the default deck over GraphQL.
      const join = async (p: { token: string }, deck?: DeckSpec) => {
        const g = await gql(p.token, `mutation ($id: ID!, $deck: DeckInput) { joinTournament(id: $id, deck: $deck) { ${TOURNAMENT} } }`, {
          id,
          deck,
        }).expect(200);
        expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
        answers.push(['GraphQL join answer', g.text]);
      };
      await join(entrants[0]!, list);
      answers.push([
        'REST join answer',
        (
          await h.http
            .post(`/v1/tournaments/${id}/join`)
            .set(bearer(entrants[1]!.token))
            .send({ deck: { starter: STARTERS[1] } })
            .expect(200)
        ).text,
      ]);
      await join(entrants[2]!);
      const feeds = entrants.map((p) => feed(p.token));
      await waitFor(() => feeds.every((f) => f.messages.length >= 1), "the entrants' snapshots");
      /** Every read path, as anyone: anonymous, the organizer, each entrant. */
      const reads = async (when: string) => {
        for (const [who, token] of [
          ['anonymous', undefined],
          ['organizer', org.token],
          ...entrants.map((p) => [p.handle, p.token] as const),
        ] as const) {
          const as = (path: string) => (token ? h.http.get(path).set(bearer(token)) : h.http.get(path));
          for (const path of [
            `/v1/tournaments/${id}`,
            `/v1/tournaments/${id}/standings`,
            `/v1/tournaments/${id}/standings.csv`,
            '/v1/tournaments',
          ]) {
            await assertClean(`${when}: GET ${path} as ${who}`, (await as(path).expect(200)).text);
          }
          for (const [label, query] of [
            ['tournament', `query ($id: ID!) { tournament(id: $id) { ${TOURNAMENT} } }`],
            ['tournamentStandings', `query ($id: ID!) { tournamentStandings(id: $id) { ${STANDINGS} } }`],
            ['tournaments', `{ tournaments(limit: 100) { tournaments { ${TOURNAMENT} } nextCursor } }`],
          ] as const) {
            const g = await gql(token, query, { id }).expect(200);
            expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
            await assertClean(`${when}: GraphQL ${label} as ${who}`, g.text);
          }
        }
      };
      await reads('open');
      const started = await gql(org.token, `mutation ($id: ID!) { startTournament(id: $id) { ${TOURNAMENT} } }`, { id }).expect(200);
      expect(started.body.errors, JSON.stringify(started.body.errors)).toBeUndefined();
      answers.push(['GraphQL start answer', started.text]);
      // The round's matches are running: their seeds and cards are secret too.
      for (const r of started.body.data.startTournament.pairings as { boards: { matchId: string | null }[] }[]) {
        for (const b of r.boards) if (b.matchId) secret.matches.add(b.matchId);
      }
      await reads('running');
      // A player of round 1's match withdraws (not the bye: the two left have then not met, so round 2 can be paired).
      const board1 = (started.body.data.startTournament.pairings[0].boards as { p1: string; p2: string | null }[]).find(
        (b) => b.p2 !== null,
      )!;
      const leaver = entrants.find((p) => p.handle === board1.p1)!;
      const left = await gql(leaver.token, `mutation ($id: ID!) { withdrawFromTournament(id: $id) { ${TOURNAMENT} } }`, { id }).expect(200);
      expect(left.body.errors, JSON.stringify(left.body.errors)).toBeUndefined();
      answers.push(['GraphQL withdraw answer', left.text]);
      // Both rounds played to the finish (the p2 seat resigns), so the feeds carry every tournament kind.
      const tokenOf = new Map([org, ...entrants].map((p) => [p.handle, p.token]));
      for (let round = 1; round <= 2; round++) {
        const t = (await h.http.get(`/v1/tournaments/${id}`).expect(200)).body as {
          round: number;
          pairings: { round: number; boards: { p2: string | null; matchId: string | null; result: string | null }[] }[];
        };
        expect(t.round).toBe(round);
        for (const b of t.pairings[round - 1]!.boards) {
          if (b.matchId === null || b.result !== null) continue;
          secret.matches.add(b.matchId);
          await h.http
            .post(`/v1/matches/${b.matchId}/actions`)
            .set(bearer(tokenOf.get(b.p2!)!))
            .send({ action: { type: 'resign' } })
            .expect(200);
        }
        await h.app.service.tournaments.sweep();
      }
      await reads('finished');
      await waitFor(() => feeds.some((f) => f.kinds().includes('tournament-finished')), 'the finish on a feed');
      expect(new Set(feeds.flatMap((f) => f.kinds()).filter((k) => k!.startsWith('tournament-')))).toEqual(new Set(TOURNAMENT_KINDS));
      for (const f of feeds) f.close();
      for (const [i, f] of feeds.entries()) for (const line of f.raw) await assertClean(`${entrants[i]!.handle}'s feed`, line);
      for (const [label, text] of answers) await assertClean(label, text);
    });

    it('rematch views of an anonymous match: each seat sees its own new token only; nobody sees a hand, deck or seed', async () => {
      const created = await h.http
        .post('/v1/matches')
        .send({
          handle: `lk-p1-${Math.random().toString(36).slice(2, 7)}`,
          opponentHandle: `lk-p2-${Math.random().toString(36).slice(2, 7)}`,
          decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } },
        })
        .expect(201);
      const old = created.body.id as string;
      const tokens = created.body.tokens as Record<Seat, string>;
      await h.http
        .post(`/v1/matches/${old}/actions`)
        .set(bearer(tokens.p2))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const all = new Set<string>(Object.values(tokens));
      /** Each match read by its own seats' tokens and anonymously: nothing hidden from the reader, no token but the reader's own. */
      const reads = async (when: string, id: string, seats: Record<Seat, string>) => {
        const state = (await h.app.service.load(id, undefined)).state as GameState;
        for (const viewer of ['p1', 'p2', 'spectator'] as const) {
          const token = viewer === 'spectator' ? undefined : seats[viewer];
          const r = h.http.get(`/v1/matches/${id}`);
          const got = await (token ? r.set(bearer(token)) : r).expect(200);
          assertNoLeak(got.text, secretsFor(state, viewer), `${when}: GET ${id} as ${viewer}`);
          const g = await gql(
            token,
            'query ($id: ID!) { match(id: $id) { id seat rematchOf rematch { offeredBy status expiresAt matchId } } }',
            { id },
          ).expect(200);
          expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
          for (const [label, text] of [
            [`GET ${id}`, got.text],
            [`GraphQL ${id}`, g.text],
          ] as const) {
            for (const t of all) if (t !== token) expect(text.includes(t), `${when}: ${label} as ${viewer} holds a token`).toBe(false);
          }
        }
      };
      const offer = await h.http.post(`/v1/matches/${old}/rematch`).set(bearer(tokens.p1)).send({}).expect(200);
      await reads('offered', old, tokens);
      const accepted = await h.http.post(`/v1/matches/${old}/rematch/accept`).set(bearer(tokens.p2)).send({}).expect(201);
      const claimed = await h.http.post(`/v1/matches/${old}/rematch/seat`).set(bearer(tokens.p1)).send({}).expect(200);
      all.add(accepted.body.token);
      all.add(claimed.body.token);
      const fresh = { [accepted.body.seat]: accepted.body.token, [claimed.body.seat]: claimed.body.token } as Record<Seat, string>;
      expect(Object.keys(fresh).sort()).toEqual(['p1', 'p2']);
      const state = (await h.app.service.load(accepted.body.id, undefined)).state as GameState;
      // Each answer: the caller's own new token, nothing hidden from its new seat, no other token.
      for (const [label, text, seat, mine] of [
        ['offer', offer.text, 'spectator', undefined],
        ['accept', accepted.text, accepted.body.seat, accepted.body.token],
        ['seat claim', claimed.text, claimed.body.seat, claimed.body.token],
      ] as const) {
        assertNoLeak(text, secretsFor(state, seat), `${label} answer`);
        for (const t of all) if (t !== mine) expect(text.includes(t), `${label} answer holds another token`).toBe(false);
      }
      await reads('accepted: the finished match', old, tokens);
      await reads('accepted: the rematch', accepted.body.id, fresh);
    });
  });
}
