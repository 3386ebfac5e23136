/**
 * Hidden information through every read path, under every rules setting that changes what is
 * visible (R-FACE-12 coveredHitByArrow FLIP_OWNERSHIP, R-FACE-7 growthAutoReveal, R-CRED-1/2 +
 * R-FACE-4 low credits with many deferred reveals, R-PLAY-5 allowDirectBlockPlay, all together),
 * on both databases. For each seat token and anonymous: GET state, /events, /legal-actions?text=true,
 * GraphQL match { board graveyards legalActions { text } events }, and the problem bodies of
 * illegal moves. The oracle (secrecy.ts) is the server's true state. The aggregate reads (profiles,
 * leaderboard, a player's export; REST and GraphQL) must not name the deck of an unfinished match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, prng, startOn, STARTERS, type Backend, type Harness } from './helpers.js';
import { assertNoLeak, assertTextSafe, secretsFor } from './secrecy.js';
import { pendingDecision, type GameState, type Seat, type Viewer } from '../../src/games/evons/index.js';

const VIEWERS = ['p1', 'p2', 'spectator'] as const;
/** Matches per configuration (raise locally for a deeper search: LEAK_MATCHES=5). */
const MATCHES = Number(process.env.LEAK_MATCHES ?? 1);
const MAX_ACTIONS = 200;

const CONFIGS: Record<string, object> = {
  'R-FACE-12 FLIP_OWNERSHIP': { coveredHitByArrow: 'FLIP_OWNERSHIP' },
  'R-FACE-7 growthAutoReveal': { growthAutoReveal: true },
  'R-CRED-1/2 R-FACE-4 low credits, deferred reveals': { startingCredits: 0, creditsPerTurn: 1 },
  'R-PLAY-5 allowDirectBlockPlay': { allowDirectBlockPlay: true },
  'all together': { coveredHitByArrow: 'FLIP_OWNERSHIP', growthAutoReveal: true, startingCredits: 2, creditsPerTurn: 1, allowDirectBlockPlay: true, handLimit: 3 },
};

const MATCH = /* GraphQL */ `
  query ($id: ID!, $after: Int) {
    match(id: $id) {
      id version status seat pending
      legalActions { type action text }
      events(after: $after, limit: 500) { events { seq type data } }
      ... on EvonsMatch {
        board { name card { id owner facing covered defId name face { defId name } } }
        graveyards { p1 { id defId name } p2 { id defId name } }
        removed { id defId name }
        hand { id defId name }
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
    let h: Harness;
    beforeAll(async () => {
      h = await startOn(backend);
    });
    afterAll(async () => {
      await h?.close();
    });

    const as = (req: ReturnType<Harness['http']['get']>, token: string | undefined) => (token ? req.set(bearer(token)) : req);
    const gql = (token: string | undefined, query: string, variables: Record<string, unknown>) => as(h.http.post('/graphql').send({ query, variables }), token);
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
        for (const o of legal.body.actions as { action: unknown; text: string }[]) assertTextSafe(state, s, o.action, o.text, `${label} legal text ${viewer}`);
        texts += legal.body.actions.length;
      }
      const g = await gql(token, MATCH, { id, after }).expect(200);
      expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
      assertNoLeak(g.text, s, `${label} GraphQL ${viewer}`);
      for (const o of g.body.data.match.legalActions as { action: unknown; text: string }[]) assertTextSafe(state, s, o.action, o.text, `${label} GraphQL text ${viewer}`);
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
          const g = await gql(tokens[seat], 'mutation ($id: ID!, $a: JSON) { submitAction(matchId: $id, action: $a) { version } }', { id, a: action }).expect(200);
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

    it('profiles, the leaderboard and the player export name no deck of an unfinished match (REST and GraphQL)', async () => {
      const tag = Math.random().toString(36).slice(2, 7);
      const register = async (name: string) => (await h.http.post('/v1/players').send({ handle: `${name}-${tag}` }).expect(201)).body.token as string;
      const ann = { handle: `ann-${tag}`, token: await register('ann') };
      const bob = { handle: `bob-${tag}`, token: await register('bob') };
      const text = (r: { text: string }) => r.text;
      /** Every public aggregate read about both players: profile, leaderboard, history export, on both APIs. */
      const publicReads = async (): Promise<[string, string][]> => {
        const reads: [string, string][] = [];
        for (const p of [ann, bob]) {
          reads.push([`GET /v1/players/${p.handle}`, text(await h.http.get(`/v1/players/${p.handle}`).expect(200))]);
          const g = await gql(undefined, 'query ($h: String!) { player(handle: $h) { handle stats { played } favouriteDecks { game deck matches } } }', { h: p.handle }).expect(200);
          expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
          reads.push([`GraphQL player ${p.handle}`, g.text]);
          const ex = await h.http.get(`/v1/players/${p.handle}/matches/export?events=true`).buffer(true).parse((r, done) => {
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
      await h.http.post(`/v1/matches/${id}/join`).set(bearer(bob.token)).send({ deck: { starter: STARTERS[2] } }).expect(200);
      await assertNoDeck([STARTERS[1], STARTERS[2]], 'active');
      // Once it is over the decks are public (the export publishes the lists), and the profile counts them.
      await h.http.post(`/v1/matches/${id}/actions`).set(bearer(ann.token)).send({ action: { type: 'resign' } }).expect(200);
      const pa = await h.http.get(`/v1/players/${ann.handle}`).expect(200);
      expect(pa.body.favouriteDecks).toEqual([{ game: 'evons', deck: STARTERS[1], matches: 1 }]);
      const pb = await gql(undefined, 'query ($h: String!) { player(handle: $h) { favouriteDecks { game deck matches } } }', { h: bob.handle }).expect(200);
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
            const r = await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[seat])).send({ action: choice.action });
            expect(r.status, `${label}: ${JSON.stringify(r.body)}`).toBe(200);
            assertNoLeak(r.text, secretsFor(await truth(id), seat), `${label} action response`);
            version = r.body.version;
            status = r.body.match.status;
            if (n % 2 === 0) {
              for (const viewer of VIEWERS) await sweep(id, tokens, viewer, swept, `${label} #${n}`);
              swept = version;
            }
          }
          if (status === 'active') await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens.p1)).send({ action: { type: 'resign' } }).expect(200);
          // The whole log for everyone once the game is over.
          for (const viewer of VIEWERS) await sweep(id, tokens, viewer, 0, `${label} end`);
        }
      });
    }
  });
}
