/**
 * maxChainDepth (issue 20 item 5; R-CHAIN-1 sets no limit, docs/rules-decisions.md): two own Swap
 * cards reactivate each other for as long as the player goes on, so a chain holds at most
 * `maxChainDepth` sequences: a reactivation that would go deeper is dropped, and Resurrection is
 * not offered at the limit. null, and every config stored before the setting, keep no limit.
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
  type GameEvent,
  type GameState,
  type RulesConfig,
  type RulesConfigInput,
} from '../../../src/games/evons/index.js';
import { act, build, card, cs, decision, eventsOf, gid, hid, legal, playUp, start, swapAway, swapLoop, SWAP } from './helpers.js';

describe('maxChainDepth: a chain holds at most this many sequences', () => {
  it('is a RulesConfig setting, default 8, null for no limit, at least 1', () => {
    expect(DEFAULT_CONFIG.maxChainDepth).toBe(8);
    expect(RulesConfigSchema.parse({ maxChainDepth: null }).maxChainDepth).toBeNull();
    for (const bad of [0, -1, 1.5, 1001, '8']) expect(RulesConfigSchema.safeParse({ maxChainDepth: bad }).success, String(bad)).toBe(false);
  });

  it.each([1, 2, 4, 8])(
    'at the limit (%i): the reactivation that would open one more sequence is dropped (TriggerDropped, reason chain-depth) and the chain unwinds',
    (limit) => {
      const s = swapLoop({ maxChainDepth: limit });
      const { state, deepest, swaps, events } = swapAway(s, 100);
      expect(deepest).toBe(limit);
      expect(swaps).toBe(limit);
      const dropped = eventsOf(events, 'TriggerDropped');
      expect(dropped).toHaveLength(1);
      expect(dropped[0]!.reason).toBe('chain-depth');
      // Every sequence ended, the turn went on: the player was never asked about the dropped one.
      expect(state.stack).toEqual([]);
      expect(eventsOf(events, 'ActivationStarted').every((e) => e.kind === 'reactivation')).toBe(true);
      expect(eventsOf(events, 'ActivationStarted')).toHaveLength(limit - 1);
      expect(decision(state)?.kind).not.toBe('ability');
    },
  );

  it('one past the limit: with maxChainDepth N + 1 the same N swaps reactivate the card at depth N + 1 and offer its swap', () => {
    const n = 4;
    let s = swapLoop({ maxChainDepth: n + 1 });
    for (let i = 0; i < n; i++) s = act(s, 'p1', SWAP).state;
    expect(s.stack).toHaveLength(n + 1);
    expect(s.stack.at(-1)).toMatchObject({ kind: 'reactivation', phase: 'ability1' });
    expect(decision(s)).toMatchObject({ kind: 'ability', cell: 'B3' });
    expect(legal(s)).toContainEqual(SWAP);
  });

  it('default config: the swap loop stops at depth 8; null (the rulebook as written) lets it go on', () => {
    expect(swapAway(swapLoop({}), 1000)).toMatchObject({ deepest: 8, swaps: 8 });
    const unlimited = swapAway(swapLoop({ maxChainDepth: null, maxTurnAbilities: null }), 200);
    expect(unlimited.swaps).toBe(200);
    expect(unlimited.deepest).toBe(201);
  });

  it('a config stored before the setting existed (no maxChainDepth) plays with no limit, replays so, and its view names null', () => {
    const legacy: Partial<RulesConfig> = { ...DEFAULT_CONFIG };
    delete legacy.maxChainDepth;
    const s = build({ board: { C3: card('p1', 'swapper') }, hands: { p1: ['swapper'] } });
    const old = { ...s, config: legacy as RulesConfig } as GameState;
    const r = act(old, 'p1', playUp(hid('swapper', 'p1'), 'B3'));
    const deep = swapAway(r.state, 20);
    expect(deep.deepest).toBe(21);
    expect(view(deep.state, 'p1').config).toEqual({ ...legacy, maxChainDepth: null });
  });

  it('a sandbox stored before the setting (its PositionLoaded config lacks it) replays with no limit; a new one gets the default', () => {
    const fresh = start({ board: { C3: card('p1', 'swapper') }, hands: { p1: ['swapper'] } });
    const loaded = fresh.events[0] as Extract<GameEvent, { type: 'PositionLoaded' }>;
    expect(fresh.state.config.maxChainDepth).toBe(8);
    const config: Partial<RulesConfig> = { ...(loaded.position.config as RulesConfig) };
    delete config.maxChainDepth;
    const stored = { ...loaded, position: { ...loaded.position, config } };
    const replayed = replay([stored, ...fresh.events.slice(1)], cs);
    expect(replayed.config).not.toHaveProperty('maxChainDepth');
    const r = act(replayed, 'p1', playUp(hid('swapper', 'p1'), 'B3'));
    expect(swapAway(r.state, 12).deepest).toBe(13);
  });

  it('Resurrection at the limit: the revived card would open one more sequence, so nothing is offered; below it, it is', () => {
    const spec = { hands: { p1: ['night-s'] }, graveyards: { p1: ['night-s', 'cost2'] } };
    const a = hid('night-s', 'p1');
    const b = gid('night-s', 'p1', 0);
    const c = gid('cost2', 'p1', 1);
    // Limit 2: A (depth 1) revives B (depth 2); B may not revive C.
    const two = act(build({ ...spec, config: { maxChainDepth: 2 } }), 'p1', playUp(a, 'B2'));
    const r2 = act(two.state, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: b });
    expect(r2.state.stack).toEqual([]);
    expect(r2.state.graveyards.p1).toEqual([c]);
    // Limit 3: B is offered C (R-CHAIN-1/2/3 as the rules have it).
    const three = act(build({ ...spec, config: { maxChainDepth: 3 } }), 'p1', playUp(a, 'B2'));
    const r3 = act(three.state, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: b });
    expect(legal(r3.state)).toContainEqual({ type: 'ability', arrow: 0, target: 'B4', card: c });
    // Limit 1: A itself may not revive.
    const one = act(build({ ...spec, config: { maxChainDepth: 1 } }), 'p1', playUp(a, 'B2'));
    expect(legal(one.state).some((x) => x.type === 'ability')).toBe(false);
  });

  it('a uniform random player (every legal action alike, no chain rule of its own) with Swap-heavy decks: chains stop at 8 by default, and go deeper without the limit', () => {
    const SWAPS = ['eddy-otter', 'ripple-siren', 'riptide-eel', 'abyss-kraken', 'leviathan'];
    const deck = (i: number) => [
      ...SWAPS.flatMap((c) => [c, c, c, c]),
      ...expandDeck(evons.starterDecks[i]!.cards)
        .filter((c) => !SWAPS.includes(c))
        .slice(0, 40),
    ];
    const decks = { p1: deck(0), p2: deck(1) };
    const deepest = (config: RulesConfigInput) => {
      let max = 0;
      for (let g = 0; g < 12; g++) {
        const created = createGame({ cardSet: defaultCardSet(), config: RulesConfigSchema.parse(config), decks, seed: `chain-depth-${g}` });
        if (!created.ok) throw new Error(created.errors.join('; '));
        let s = created.state;
        const pick = seededPick(`uniform-${g}`);
        for (let i = 0; i < 1500 && !s.result; i++) {
          const seat = pendingDecision(s)!.seat;
          const actions = legalActions(s, seat);
          const r = apply(s, seat, actions[pick(actions.length)]);
          if (!r.ok) throw new Error(r.error.message);
          s = r.state;
          max = Math.max(max, s.stack.length);
        }
      }
      return max;
    };
    expect(deepest({})).toBe(8);
    expect(deepest({ maxChainDepth: null })).toBeGreaterThan(8);
  });
});
