/**
 * The deal and its generators (R-HAND-4 randomness; seed commitment). New matches deal from keyed
 * ChaCha20 streams keyed by HMAC-SHA256(seed, purpose), one per purpose; a match dealt by the legacy sfc32 single stream (no `rng`
 * in MatchCreated) replays exactly as before. The fixture was recorded by the engine before keyed
 * streams existed (commit 942dbfa) and must never be regenerated.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keyedStream, randomId, shuffle } from '../../../src/core/random.js';
import { canonicalJson, sha256Hex } from '../../../src/core/hash.js';
import {
  apply,
  createGame,
  dealCards,
  defaultCardSet,
  ENGINE_VERSION,
  expandDeckList,
  legalActions,
  pendingDecision,
  randomPlayer,
  redactEvent,
  replay,
  rulesHash,
  RulesConfigSchema,
  view,
  type GameEvent,
  type GameState,
  type GeneratorId,
  type Seat,
} from '../../../src/games/evons/index.js';

const cardSet = defaultCardSet();
const starter = cardSet.file.starterDecks.map((d) => expandDeckList(d.cards));
const decks = { p1: starter[0]!, p2: starter[1]! };

interface Fixture {
  seed: string;
  cardSetHash: string;
  deals: { cards: GameState['cards']; first: Seat };
  actions: { seat: Seat; action: unknown }[];
  events: GameEvent[];
  stateHash: string;
  finalView: unknown;
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/legacy-sfc32-match.json', import.meta.url), 'utf8')) as Fixture;

/** The hash the fixture recorded: the whole state minus the card set and the (newer) `rng` and `turnAbilities` fields. */
const stateHash = (s: GameState) => sha256Hex(canonicalJson({ ...s, cardSet: undefined, rng: undefined, turnAbilities: undefined }));

function playToEnd(rng: GeneratorId | undefined, seed: string, config = RulesConfigSchema.parse({})) {
  const created = createGame({ cardSet, config, decks, seed, ...(rng ? { rng } : {}) });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const events = [...created.events];
  const choose = randomPlayer(`player-${seed}`);
  while (!state.result) {
    const d = pendingDecision(state)!;
    const r = apply(state, d.seat, choose(state, legalActions(state, d.seat)));
    if (!r.ok) throw new Error(r.error.message);
    state = r.state;
    events.push(...r.events);
  }
  return { state, events };
}

describe('legacy sfc32 matches (recorded before keyed streams)', () => {
  it('the fixture has no generator field, so it is an sfc32 match', () => {
    expect(fixture.cardSetHash).toBe(cardSet.hash);
    const created = fixture.events[0] as Extract<GameEvent, { type: 'MatchCreated' }>;
    expect(created.type).toBe('MatchCreated');
    expect(created.rng).toBeUndefined();
    expect(created.engineVersion).toBe('0.1.0');
  });

  it('replays to the identical final state, view and rules hash', () => {
    const s = replay(fixture.events, cardSet);
    expect(s.rng).toBe('sfc32');
    expect(stateHash(s)).toBe(fixture.stateHash);
    expect(s.cards).toEqual(fixture.deals.cards);
    expect(s.first).toBe(fixture.deals.first);
    // The view differs only in the engine version now serving it, and in naming maxChainDepth,
    // maxTurnAbilities and maxTurns (added since): null, no limit, the rules the match was played
    // by (its stored config lacks them).
    const finalView = fixture.finalView as { config: object };
    for (const key of ['maxChainDepth', 'maxTurnAbilities', 'maxTurns']) expect(finalView.config).not.toHaveProperty(key);
    expect({ ...view(s, 'spectator'), engineVersion: 'x' }).toEqual({
      ...finalView,
      config: { ...finalView.config, maxChainDepth: null, maxTurnAbilities: null, maxTurns: null },
      engineVersion: 'x',
    });
    const created = fixture.events[0] as Extract<GameEvent, { type: 'MatchCreated' }>;
    expect(rulesHash(created.config, cardSet, 'sfc32')).toBe(created.rulesHash);
    expect(view(s, 'spectator').rulesHash).toBe(created.rulesHash);
  });

  it('playing the recorded actions again (createGame with rng sfc32) yields the same events', () => {
    const created = fixture.events[0] as Extract<GameEvent, { type: 'MatchCreated' }>;
    const again = createGame({ cardSet, config: created.config, decks: created.decks, seed: fixture.seed, rng: 'sfc32' });
    if (!again.ok) throw new Error(again.errors.join('; '));
    let state = again.state;
    const events = [...again.events];
    for (const { seat, action } of fixture.actions) {
      const r = apply(state, seat, action);
      if (!r.ok) throw new Error(r.error.message);
      state = r.state;
      events.push(...r.events);
    }
    const strip = (e: GameEvent) => (e.type === 'MatchCreated' ? { ...e, engineVersion: 'x' } : e);
    expect(events.map(strip)).toEqual(fixture.events.map(strip));
    expect(stateHash(state)).toBe(fixture.stateHash);
  });
});

describe('keyed streams for new matches', () => {
  it('new matches record rng chacha20, the engine version and a rules hash that includes it', () => {
    const r = createGame({ cardSet, config: RulesConfigSchema.parse({}), decks, seed: 'new' });
    if (!r.ok) throw new Error(r.errors.join('; '));
    const created = r.events[0] as Extract<GameEvent, { type: 'MatchCreated' }>;
    expect(created.rng).toBe('chacha20');
    expect(created.engineVersion).toBe(ENGINE_VERSION);
    expect(created.rulesHash).toBe(rulesHash(created.config, cardSet, 'chacha20'));
    expect(created.rulesHash).not.toBe(rulesHash(created.config, cardSet, 'sfc32'));
    // The generator is public (the verifier needs it), the seed is not.
    expect(redactEvent(created, 'spectator')).toMatchObject({ rng: 'chacha20' });
    expect(JSON.stringify(redactEvent(created, 'spectator'))).not.toContain('"new"');
  });

  it('public instance ids come from the ids stream alone; deck order from deal:p1 / deal:p2', () => {
    const seed = 'independence';
    const config = RulesConfigSchema.parse({});
    const d = dealCards(seed, decks, config, 'chacha20');
    // Ids: exactly the 'ids' stream, drawn in deck-list order (independent of any shuffle).
    const ids = keyedStream(seed, 'ids');
    const expected = [...decks.p1, ...decks.p2].map(() => randomId(ids));
    expect(new Set(Object.keys(d.cards))).toEqual(new Set(expected));
    // Deck order: the ids in list order, shuffled by that seat's own deal stream.
    const p1Ids = expected.slice(0, decks.p1.length);
    const p2Ids = expected.slice(decks.p1.length);
    expect(d.decks.p1).toEqual(shuffle(keyedStream(seed, 'deal:p1'), [...p1Ids]));
    expect(d.decks.p2).toEqual(shuffle(keyedStream(seed, 'deal:p2'), [...p2Ids]));
    // The deal streams are not the ids stream, and the seats' streams are not one another.
    expect(d.decks.p1).not.toEqual(shuffle(keyedStream(seed, 'ids'), [...p1Ids]));
    expect(d.decks.p2).not.toEqual(shuffle(keyedStream(seed, 'deal:p1'), [...p2Ids]));
  });

  it('the generator is part of the deal: the same seed deals differently under sfc32 and chacha20', () => {
    const config = RulesConfigSchema.parse({});
    const a = dealCards('same', decks, config, 'sfc32');
    const b = dealCards('same', decks, config, 'chacha20');
    expect(Object.keys(a.cards)).not.toEqual(Object.keys(b.cards));
  });

  it('the first player comes from the first stream', () => {
    const config = RulesConfigSchema.parse({ firstPlayer: 'RANDOM' });
    const seen = new Set<Seat>();
    for (let i = 0; i < 20; i++) {
      const seed = `first-${i}`;
      const d = dealCards(seed, decks, config, 'chacha20');
      const want = keyedStream(seed, 'first').nextUint32() % 2 === 0 ? 'p1' : 'p2';
      expect(d.first).toBe(want);
      seen.add(d.first);
    }
    expect(seen.size).toBe(2);
  });
});

describe('SeedRevealed verifies the deal for both generators', () => {
  for (const rng of ['sfc32', 'chacha20'] as const) {
    it(`${rng}: the published seed, deck lists and generator re-deal the same cards, order and first player`, () => {
      const { state, events } = playToEnd(rng, `verify-${rng}`, RulesConfigSchema.parse({ firstPlayer: 'RANDOM' }));
      const pub = events.map((e) => redactEvent(e, 'spectator')).filter((e): e is Record<string, unknown> => e !== null);
      const created = pub.find((e) => e.type === 'MatchCreated')!;
      const revealed = pub.find((e) => e.type === 'SeedRevealed') as { seed: string; decks: Record<Seat, string[]> };
      const generator = (created.rng as GeneratorId | undefined) ?? 'sfc32';
      expect(generator).toBe(rng);
      const again = dealCards(revealed.seed, revealed.decks, state.config, generator);
      expect(again.cards).toEqual(state.cards);
      expect(again.first).toBe(state.first);
      for (const seat of ['p1', 'p2'] as const) {
        const drawn = events.filter((e) => e.type === 'CardDrawn' && e.seat === seat).map((e) => (e as { card: string }).card);
        expect(drawn).toEqual(again.decks[seat].slice(0, drawn.length));
      }
    });
  }
});
