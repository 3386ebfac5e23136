/**
 * Issue 34 item 3: maxChainDepth bounds a chain's depth, not a turn's length (one turn reached
 * 511 actions, 27,492 with four Swap cards), and nothing bounded a match's turns (two players who
 * pass play for ever). maxTurnAbilities bounds the abilities of a turn (the only choice a turn can
 * repeat without end); maxTurns ends the match, scored as it stands (reason turn-limit), when its
 * last turn ends. Configs stored before the settings lack them and keep no limit, replaying as
 * they were played (docs/rules-decisions.md, decision 13).
 */
import { describe, expect, it } from 'vitest';
import { expandDeck } from '../../../src/core/ruleset.js';
import {
  DEFAULT_CONFIG,
  RulesConfigSchema,
  apply,
  createGame,
  defaultCardSet,
  evons,
  legalActions,
  pendingDecision,
  replay,
  seededPick,
  view,
  type Action,
  type GameEvent,
  type GameState,
  type RulesConfig,
} from '../../../src/games/evons/index.js';
import { keyedStream } from '../../../src/core/random.js';
import { sampler } from '../../../src/games/evons/sample.js';
import { act, build, card, cs, eventsOf, hid, legal, playUp, start, swapAway, swapLoop, SWAP } from './helpers.js';

/** Legacy: the config as stored before the settings (no maxTurnAbilities, no maxTurns). */
function legacyConfig(extra: Partial<RulesConfig> = {}): RulesConfig {
  const c: Partial<RulesConfig> = { ...DEFAULT_CONFIG, ...extra };
  delete c.maxTurnAbilities;
  delete c.maxTurns;
  return c as RulesConfig;
}

const decks = { p1: expandDeck(evons.starterDecks[0]!.cards), p2: expandDeck(evons.starterDecks[1]!.cards) };

/** Two players who never play: pass at every play decision, discard the first cards asked. At most `limit` actions. */
function passForever(config: RulesConfig, limit: number): { state: GameState; events: GameEvent[] } {
  const created = createGame({ cardSet: defaultCardSet(), config, decks, seed: 'pass-forever' });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let s = created.state;
  const events = [...created.events];
  for (let i = 0; i < limit && !s.result; i++) {
    const d = pendingDecision(s)!;
    const actions = legalActions(s, d.seat);
    const a: Action = actions.find((x) => x.type === 'pass') ?? actions[0]!;
    const r = apply(s, d.seat, a);
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
    events.push(...r.events);
  }
  return { state: s, events };
}

describe('maxTurnAbilities: a turn uses at most this many abilities', () => {
  it('is a setting, default 200, null for no limit, 1..10000', () => {
    expect(DEFAULT_CONFIG.maxTurnAbilities).toBe(200);
    expect(RulesConfigSchema.parse({ maxTurnAbilities: null }).maxTurnAbilities).toBeNull();
    for (const bad of [0, -1, 2.5, 10001, '200'])
      expect(RulesConfigSchema.safeParse({ maxTurnAbilities: bad }).success, String(bad)).toBe(false);
  });

  it('with no chain limit, the swap loop stops after maxTurnAbilities swaps: no ability is offered, the chain unwinds and the turn goes on', () => {
    const state = swapLoop({ maxChainDepth: null, maxTurnAbilities: 5 });
    const { state: after, swaps, events } = swapAway(state, 1000);
    expect(swaps).toBe(5);
    expect(eventsOf(events, 'AbilityUsed')).toHaveLength(5);
    // Every sequence ended on its own and the turn went on to p2's (no ability was asked about).
    expect(after.stack).toEqual([]);
    expect(eventsOf(events, 'TurnEnded')).toEqual([{ type: 'TurnEnded', turn: state.turn, seat: 'p1' }]);
    expect(after.active).toBe('p2');
    // One swap fewer (limit 6 after 5): the sixth is still offered.
    const more = swapAway(swapLoop({ maxChainDepth: null, maxTurnAbilities: 6 }), 5).state;
    expect(more.turnAbilities).toBe(5);
    expect(legal(more)).toContainEqual(SWAP);
  });

  it('the default bounds the swap loop without a chain limit at 200 abilities (it went on for ever before)', () => {
    const state = swapLoop({ maxChainDepth: null });
    expect(swapAway(state, 5000).swaps).toBe(200);
  });

  it('the count starts again each turn, and replay rebuilds it from the events', () => {
    const opened = start({
      board: { C3: card('p1', 'swapper') },
      hands: { p1: ['swapper'] },
      config: { maxChainDepth: null, maxTurnAbilities: 10 },
    });
    const played = act(opened.state, 'p1', playUp(hid('swapper', 'p1'), 'B3'));
    const { state: after, events } = swapAway(played.state, 3);
    const all = [...opened.events, ...played.events, ...events];
    expect(after.turnAbilities).toBe(3);
    expect(replay(all, cs).turnAbilities).toBe(3);
    expect(legal(replay(all, cs))).toEqual(legal(after));
    // Seven more swaps reach the limit; the turn ends and the next turn's count is 0.
    const rest = swapAway(after, 100);
    expect(rest.swaps).toBe(7);
    const s = rest.state;
    all.push(...rest.events);
    expect(s.active).toBe('p2');
    expect(s.turnAbilities).toBe(0);
    expect(replay(all, cs).turnAbilities).toBe(0);
  });

  it('four Swap cards a deck, uniform random players, no chain limit: every turn ends within a bounded number of actions', () => {
    const SWAPS = ['eddy-otter', 'ripple-siren', 'riptide-eel', 'abyss-kraken', 'leviathan'];
    const deck = (i: number) => [
      ...SWAPS.flatMap((c) => [c, c, c, c]),
      ...expandDeck(evons.starterDecks[i]!.cards)
        .filter((c) => !SWAPS.includes(c))
        .slice(0, 40),
    ];
    const swapDecks = { p1: deck(0), p2: deck(1) };
    let longest = 0;
    let mostAbilities = 0;
    for (let g = 0; g < 6; g++) {
      const created = createGame({
        cardSet: defaultCardSet(),
        config: RulesConfigSchema.parse({ maxChainDepth: null, maxTurnAbilities: 20 }),
        decks: swapDecks,
        seed: `turn-bounds-${g}`,
      });
      if (!created.ok) throw new Error(created.errors.join('; '));
      let s = created.state;
      const pick = seededPick(`uniform-${g}`);
      let actions = 0;
      for (let i = 0; i < 3000 && !s.result; i++) {
        const seat = pendingDecision(s)!.seat;
        const list = legalActions(s, seat);
        const turn = s.turn;
        const r = apply(s, seat, list[pick(list.length)]);
        if (!r.ok) throw new Error(r.error.message);
        s = r.state;
        actions = s.turn === turn ? actions + 1 : 0;
        longest = Math.max(longest, actions);
        mostAbilities = Math.max(mostAbilities, s.turnAbilities);
      }
    }
    expect(mostAbilities).toBeLessThanOrEqual(20);
    // Every other choice of a turn is bounded by the hand and the board (docs/rules-decisions.md).
    expect(longest).toBeLessThan(200);
  });
});

describe('maxTurns: the match ends, scored as it stands, when its last turn ends', () => {
  it('is a setting, default 500, null for no limit, 1..100000', () => {
    expect(DEFAULT_CONFIG.maxTurns).toBe(500);
    expect(RulesConfigSchema.parse({ maxTurns: null }).maxTurns).toBeNull();
    for (const bad of [0, -3, 1.5, 100001, '500']) expect(RulesConfigSchema.safeParse({ maxTurns: bad }).success, String(bad)).toBe(false);
  });

  it('two players who pass for ever: the game ends when turn maxTurns ends (GameEnded turn-limit, scored), with no further turn', () => {
    const { state, events } = passForever(RulesConfigSchema.parse({ maxTurns: 12 }), 10_000);
    expect(state.result).toMatchObject({ reason: 'turn-limit' });
    expect(state.turn).toBe(12);
    expect(
      eventsOf(events, 'TurnStarted')
        .map((e) => e.turn)
        .at(-1),
    ).toBe(12);
    const ended = eventsOf(events, 'GameEnded');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toEqual({ type: 'GameEnded', reason: 'turn-limit', winner: null, scores: { p1: 0, p2: 0 } });
    // The end comes right after turn 12's TurnEnded; the seed is revealed as at every end.
    const i = events.findIndex((e) => e.type === 'GameEnded');
    expect(events[i - 1]).toEqual({ type: 'TurnEnded', turn: 12, seat: state.active });
    expect(events[i + 1]?.type).toBe('SeedRevealed');
    expect(view(state, 'spectator').result).toMatchObject({ reason: 'turn-limit', winner: null });
  });

  it('a scored end: the player with more cards facing them wins at the turn limit', () => {
    // p1 plays one card on turn 1, then both pass: p1 leads 1–0 when turn 3 ends.
    const s0 = build({ hands: { p1: ['cost2'] }, config: { maxTurns: 3 } });
    let s = act(s0, 'p1', playUp(hid('cost2', 'p1'), 'D4')).state;
    for (let i = 0; i < 200 && !s.result; i++) {
      const d = pendingDecision(s)!;
      const list = legalActions(s, d.seat);
      s = act(s, d.seat, list.find((x) => x.type === 'pass') ?? list[0]!).state;
    }
    expect(s.result).toMatchObject({ reason: 'turn-limit', winner: 'p1' });
    expect(s.turn).toBe(3);
  });

  it('the default ends two passing players at turn 500 (they passed for ever before)', () => {
    const { state } = passForever(DEFAULT_CONFIG, 20_000);
    expect(state.result?.reason).toBe('turn-limit');
    expect(state.turn).toBe(500);
  });
});

describe('configs stored before the settings keep no limit and replay unchanged', () => {
  it('a stored config without them: the swap loop goes past 200 abilities, the match past turn 500, and replay gives the same state', () => {
    const built = build({ board: { C3: card('p1', 'swapper') }, hands: { p1: ['swapper'] } });
    const old = { ...built, config: legacyConfig({ maxChainDepth: null }) } as GameState;
    const { state } = act(old, 'p1', playUp(hid('swapper', 'p1'), 'B3'));
    expect(swapAway(state, 260).swaps).toBe(260);

    const { state: long, events } = passForever(legacyConfig(), 2000 * 3);
    expect(long.result).toBeNull();
    expect(long.turn).toBeGreaterThan(500);
    const again = replay(events, defaultCardSet());
    expect(again.turn).toBe(long.turn);
    expect(view(again, 'p1')).toEqual(view(long, 'p1'));
    expect(again.config).not.toHaveProperty('maxTurns');
  });

  it("its view names them null (as played), its rules hash is the stored config's, and a computer player samples it under that config", () => {
    const config = legacyConfig();
    const created = createGame({ cardSet: defaultCardSet(), config, decks, seed: 'legacy-view' });
    if (!created.ok) throw new Error(created.errors.join('; '));
    const s = created.state;
    const v = view(s, 'p1');
    expect(v.config).toEqual({ ...config, maxTurnAbilities: null, maxTurns: null });
    const made = created.events[0] as Extract<GameEvent, { type: 'MatchCreated' }>;
    expect(made.config).not.toHaveProperty('maxTurns');
    expect(v.rulesHash).toBe(made.rulesHash);
    const sample = sampler(defaultCardSet())(v, 'p1', [])(keyedStream('sampler', 'test'));
    expect(sample.config).toEqual(config);
  });
});
