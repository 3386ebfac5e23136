/**
 * The UniVersus view is described in three places besides the engine's own type: the engine builds
 * it (view.ts), REST declares it (view-schema.ts, Zod), GraphQL exposes it (src/games/universus/graphql.ts).
 * This test fails when they drift: every view of random games under settings that change what
 * happens must pass the Zod schema unchanged, every field the engine produces must have its GraphQL
 * field or be listed below as shaped otherwise, and what the GraphQL resolvers return for a seat
 * or a spectator must hold nothing the view hides.
 */
import { buildSchema, graphql, type GraphQLFieldResolver } from 'graphql';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { expandDeck, type Viewer } from '../../src/core/ruleset.js';
import { actionSchema } from '../../src/games/universus/actions.js';
import { configSchema } from '../../src/games/universus/config.js';
import { universus, type UniversusState, type UniversusView } from '../../src/games/universus/index.js';
import { UniversusActionSchema, UniversusViewSchema } from '../../src/games/universus/view-schema.js';
import type { GraphqlMatchSource } from '../../src/games/game-module.js';
import { universusGame } from '../../src/games/universus/module.js';
import { typeDefs } from '../../src/graphql/schema.js';
import { keyPaths, unmappedFields } from './view-fields.js';

const VIEWERS = ['p1', 'p2', 'spectator'] as const satisfies readonly Viewer[];

/**
 * Settings that change what a view can hold: commits or none, stage timing, momentum, reveals; the
 * last with 13-card decks so that decks cycle, cards are removed face down and players exhaust.
 */
const GAMES: { config: Record<string, unknown>; deckLength?: number }[] = [
  { config: {} },
  { config: { blockZoneRule: 'ANY_ZONE_HALF', failedCheckEndsTurn: false, autoMomentum: 'ALL' } },
  { config: { commitMode: 'NONE', foundationEntersStage: 'IMMEDIATELY', autoMomentum: 'NONE', alwaysRevealOnCheck: false } },
  { config: { cycleRemoveCount: 0 } },
  { config: { minDeckSize: 12, cycleRemoveCount: 3 }, deckLength: 13 },
];
const SEEDS = ['uvs-shape-a', 'uvs-shape-b', 'uvs-shape-c'];

interface Sample {
  state: UniversusState;
  views: Record<Viewer, UniversusView>;
}

function play({ config, deckLength }: (typeof GAMES)[number], seed: string, deckPair: number): Sample[] {
  const starters = universus.starterDecks;
  // The character is the first entry of a starter deck, so a cut keeps it.
  const deck = (i: number) => expandDeck(starters[i % starters.length]!.cards).slice(0, deckLength);
  const created = universus.create({ config: configSchema.parse(config), decks: { p1: deck(deckPair), p2: deck(deckPair + 1) }, seed });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const choose = universus.randomPlayer(`${seed}:player`);
  const out: Sample[] = [];
  const sample = () =>
    out.push({
      state,
      views: { p1: universus.view(state, 'p1'), p2: universus.view(state, 'p2'), spectator: universus.view(state, 'spectator') },
    });
  for (let i = 0; i < 5000; i++) {
    const d = universus.pending(state);
    sample();
    if (!d || universus.outcome(state)) break;
    const r = universus.apply(state, d.seat, choose(state, universus.legalActions(state, d.seat)));
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    state = r.state;
  }
  if (!universus.outcome(state)) throw new Error(`${seed}: the game did not end`);
  return out;
}

const samples = GAMES.flatMap((g, i) => SEEDS.flatMap((seed, j) => play(g, `${seed}-${i}`, i + j)));
const allViews = samples.flatMap((s) => VIEWERS.map((v) => s.views[v]));

describe('the UniVersus view: engine, Zod schema and GraphQL agree', () => {
  it('covers a real variety of views (guards the generator)', () => {
    const paths = keyPaths(allViews);
    expect(allViews.length).toBeGreaterThan(300);
    for (const p of [
      '[].check.card',
      '[].attack.zone',
      '[].pending.shortfall',
      '[].players.p1.hand[].card',
      '[].players.p2.discard[].card',
      '[].players.p1.cardPool[].dealtDamage',
      '[].players.p2.stage[].committed',
    ])
      expect(paths).toContain(p);
    const kinds = new Set(allViews.map((v) => v.pending?.kind ?? 'none'));
    expect([...kinds].sort()).toEqual(['AWAIT_BLOCK', 'AWAIT_COMMIT', 'AWAIT_MOMENTUM', 'PLAY', 'none']);
    expect(new Set(allViews.map((v) => v.players.p1.cardPool.map((e) => e.role)).flat())).toEqual(new Set(['PLAYED', 'BLOCK']));
    expect(allViews.some((v) => v.seed !== null)).toBe(true);
    expect(allViews.some((v) => v.players.p1.removedCount + v.players.p2.removedCount > 0)).toBe(true);
    expect(new Set(allViews.map((v) => v.winReason))).toEqual(new Set([null, 'HEALTH_ZERO', 'EXHAUSTED']));
  });

  it('the Zod schema is the engine type, and UniversusActionSchema is the engine action schema under an id', () => {
    expectTypeOf<z.infer<typeof UniversusViewSchema>>().toExtend<UniversusView>();
    expectTypeOf<UniversusView>().toExtend<z.infer<typeof UniversusViewSchema>>();
    expect(UniversusActionSchema.meta()?.id).toBe('UniVersusAction');
    expect(actionSchema.meta()?.id).toBeUndefined();
    // The OpenAPI document takes its components from these ids.
    const defs = Object.keys(z.toJSONSchema(z.object({ view: UniversusViewSchema, action: UniversusActionSchema })).$defs ?? {});
    expect(defs.sort()).toEqual(
      [
        'UniVersusAction',
        'UniVersusAttack',
        'UniVersusCardInstance',
        'UniVersusCheck',
        'UniVersusPending',
        'UniVersusPlayerView',
        'UniVersusPoolEntry',
        'UniVersusStageEntry',
        'UniVersusView',
      ].sort(),
    );
  });

  it('every view passes the Zod schema unchanged, and a stray field fails it', () => {
    for (const v of allViews) expect(UniversusViewSchema.parse(v)).toEqual(v);
    const v = allViews.find((x) => x.players.p1.cardPool.length > 0)!;
    const stray = { ...v, players: { ...v.players, p1: { ...v.players.p1, cardPool: [{ ...v.players.p1.cardPool[0]!, extra: 1 }] } } };
    expect(UniversusViewSchema.safeParse(stray).success).toBe(false);
  });

  it('every engine field has its GraphQL field', () => {
    // How the engine's nesting maps onto the GraphQL types.
    const TYPE_OF: Record<string, string> = {
      '': 'UniVersusMatch',
      'players.*': 'UniVersusPlayer',
      'players.*.hand[]': 'UniVersusCard',
      'players.*.discard[]': 'UniVersusCard',
      'players.*.cardPool[]': 'UniVersusPoolCard',
      'players.*.stage[]': 'UniVersusStageCard',
      check: 'UniVersusCheck',
      attack: 'UniVersusAttack',
    };
    // Engine fields GraphQL shapes differently, each with the reason.
    const SHAPED: Record<string, string> = {
      viewer: 'the caller is Match.seat',
      game: 'Match.gameId',
      players: 'UniVersusMatch.players is a list with UniVersusPlayer.seat',
      'players.*.hand': "UniVersusMatch.hand (the caller's own; the view has it only for that seat)",
      pending: 'Match.pending is JSON (kinds differ per game)',
    };
    const { missing, shapedUsed } = unmappedFields(allViews, { seatsKey: 'players', typeOf: TYPE_OF, shaped: SHAPED });
    expect(missing).toEqual([]);
    // A shaped entry the engine no longer produces is stale.
    expect(shapedUsed.sort()).toEqual(Object.keys(SHAPED).sort());
  });
});

/** The real schema, run with the UniVersus resolvers only (the common Match fields read from the source). */
const schema = buildSchema(typeDefs);
const { graphql: gql } = universusGame;
const typeResolver = () => gql.matchType;
const universusResolvers = { [gql.matchType]: gql.matchResolvers, ...gql.typeResolvers } as Record<
  string,
  Record<string, (s: unknown) => unknown>
>;

const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, ctx, info) => {
  const byType = universusResolvers[info.parentType.name];
  const own = byType?.[info.fieldName];
  if (own) return own(source);
  return (source as Record<string, unknown>)[info.fieldName];
};

const CARD = 'id card name face { card name kind symbols health handSize difficulty check blockZone blockModifier zone speed damage }';
const QUERY = `{ match(id: "m") { ... on UniVersusMatch {
  seat turnPlayer turnNumber phase winReason winner seed
  check { seat purpose difficulty ${CARD} }
  attack { id attacker zone speed damage card name face { card kind zone } }
  hand { ${CARD} }
  players { seat handle character characterFace { card name kind health handSize } health handSize handCount deckCount removedCount momentumCount
    discard { ${CARD} } cardPool { role dealtDamage built ${CARD} } stage { committed ${CARD} } }
} } }`;

async function resolve(v: UniversusView, viewer: Viewer): Promise<Record<string, unknown>> {
  const seat = viewer === 'spectator' ? null : viewer;
  const source: GraphqlMatchSource<UniversusView> & Record<string, unknown> = {
    view: v,
    seat,
    seats: [
      { seat: 'p1', handle: 'ann' },
      { seat: 'p2', handle: 'bob' },
    ],
    // The common fields the stub reads by default (the service resolves them itself).
    winner: v.winner,
    seed: v.seed,
  };
  const r = await graphql({ schema, source: QUERY, rootValue: { match: source }, fieldResolver, typeResolver });
  expect(r.errors).toBeUndefined();
  return r.data as Record<string, unknown>;
}

/** Every string in a JSON value. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

describe('GraphQL resolvers keep hidden cards hidden', () => {
  // A spread of states: every few samples, and every game's last one.
  const picked = samples.filter((_, i) => i % 6 === 0 || i === samples.length - 1);

  it('U-CHECK-1 U-MOMENTUM-2 U-CYCLE-2: a seat gets its own hand and nothing of the rival hand, decks, removed or momentum cards; a spectator no hand', async () => {
    let ownHands = 0;
    let checks = 0;
    for (const { state, views } of picked) {
      for (const viewer of VIEWERS) {
        const data = await resolve(views[viewer], viewer);
        const match = data.match as {
          hand: { id: string }[] | null;
          check: { id: string } | null;
          players: { seat: string; handCount: number }[];
        };
        const hidden = new Set<string>();
        for (const seat of ['p1', 'p2'] as const) {
          const p = state.players[seat];
          if (seat !== viewer) p.hand.forEach((id) => hidden.add(id));
          [...p.deck, ...p.removed, ...p.momentum].forEach((id) => hidden.add(id));
        }
        expect(strings(data).filter((s) => hidden.has(s))).toEqual([]);
        if (viewer === 'spectator') expect(match.hand).toBeNull();
        else {
          expect(match.hand?.map((c) => c.id)).toEqual(state.players[viewer].hand);
          if (match.hand!.length > 0) ownHands++;
        }
        expect(match.players.map((p) => p.handCount)).toEqual([state.players.p1.hand.length, state.players.p2.hand.length]);
        // A check in progress is shown to both seats and spectators alike (U-CHECK-1).
        if (state.check) {
          expect(match.check?.id).toBe(state.check.id);
          checks++;
        }
      }
    }
    expect(ownHands).toBeGreaterThan(20);
    expect(checks).toBeGreaterThan(0);
  });

  it('U-DAMAGE-2: the seed is published only once the game is over, to everyone; health never shows below 0', async () => {
    const last = samples.filter((s) => universus.outcome(s.state));
    const running = samples.find((s) => !universus.outcome(s.state))!;
    expect(last.length).toBe(GAMES.length * SEEDS.length);
    for (const viewer of VIEWERS) {
      expect(((await resolve(running.views[viewer], viewer)).match as { seed: string | null }).seed).toBeNull();
      const end = last[0]!;
      const m = (await resolve(end.views[viewer], viewer)).match as { seed: string; winReason: string; players: { health: number }[] };
      expect(m.seed).toBe(end.state.seed);
      expect(['HEALTH_ZERO', 'EXHAUSTED']).toContain(m.winReason);
      for (const p of m.players) expect(p.health).toBeGreaterThanOrEqual(0); // U-DAMAGE-2: shown as 0 when below
    }
  });

  it('an open seat (no game yet) resolves to nulls and empty lists', async () => {
    const source: GraphqlMatchSource<UniversusView> = {
      view: null,
      seat: 'p1',
      seats: [
        { seat: 'p1', handle: 'ann' },
        { seat: 'p2', handle: null },
      ],
    };
    const r = await graphql({
      schema,
      source: QUERY,
      rootValue: { match: { ...source, winner: null, seed: null } },
      fieldResolver,
      typeResolver,
    });
    expect(r.errors).toBeUndefined();
    const m = (r.data as { match: Record<string, unknown> }).match;
    expect(m).toMatchObject({ turnPlayer: null, phase: null, check: null, attack: null, hand: null, winReason: null });
    expect(m.players).toEqual([
      {
        seat: 'p1',
        handle: 'ann',
        character: null,
        characterFace: null,
        health: null,
        handSize: null,
        handCount: 0,
        deckCount: 0,
        removedCount: 0,
        momentumCount: 0,
        discard: [],
        cardPool: [],
        stage: [],
      },
      {
        seat: 'p2',
        handle: null,
        character: null,
        characterFace: null,
        health: null,
        handSize: null,
        handCount: 0,
        deckCount: 0,
        removedCount: 0,
        momentumCount: 0,
        discard: [],
        cardPool: [],
        stage: [],
      },
    ]);
  });
});
