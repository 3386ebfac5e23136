/**
 * Issue 34 item 3: an untimed UniVersus match whose players only pass went on for ever (a full
 * hand draws nothing, so no deck runs out). maxTurns (default 200) ends it as a draw (GameDrawn,
 * TURN_LIMIT) when its last turn ends. A UniVersus turn needs no cap of its own: every PlayCard
 * takes a card out of the hand. Configs stored before the setting lack it and keep no limit,
 * with the rules hash and the deal they had (docs/rules-decisions.md).
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../../src/core/hash.js';
import { expandDeck, type Seat } from '../../../src/core/ruleset.js';
import { defaultConfig, type UniversusConfig } from '../../../src/games/universus/config.js';
import {
  RULES_VERSION,
  universus,
  type UniversusAction,
  type UniversusEvent,
  type UniversusState,
} from '../../../src/games/universus/index.js';

const decks = { p1: expandDeck(universus.starterDecks[0]!.cards), p2: expandDeck(universus.starterDecks[1]!.cards) };

/** Two players who never attack: PassCombat, NoBlock, no momentum. At most `limit` actions. */
function passForever(config: unknown, limit: number): { state: UniversusState; events: UniversusEvent[] } {
  const created = universus.create({ config: config as UniversusConfig, decks, seed: 'pass-forever' });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let s = created.state;
  const events = [...created.events];
  for (let i = 0; i < limit && s.phase !== 'OVER'; i++) {
    const seat = s.pending!.seat as Seat;
    const actions = universus.legalActions(s, seat);
    const a: UniversusAction = actions.find((x) => x.type === 'PassCombat' || x.type === 'NoBlock') ?? actions[0]!;
    const r = universus.apply(s, seat, a);
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
    events.push(...r.events);
  }
  return { state: s, events };
}

const legacy = (): Partial<UniversusConfig> => {
  const c: Partial<UniversusConfig> = { ...defaultConfig };
  delete c.maxTurns;
  return c;
};

describe('UniVersus maxTurns: the match ends as a draw when its last turn ends', () => {
  it('is a setting, default 200, null for no limit, 1..100000', () => {
    expect(defaultConfig.maxTurns).toBe(200);
    expect(universus.configSchema.parse({ maxTurns: null }).maxTurns).toBeNull();
    for (const bad of [0, -1, 2.5, 100001, '200'])
      expect(universus.configSchema.safeParse({ maxTurns: bad }).success, String(bad)).toBe(false);
  });

  it('two players who only pass: when turn maxTurns ends the game is a draw (GameDrawn TURN_LIMIT, seed revealed), and no turn follows', () => {
    const { state, events } = passForever({ ...defaultConfig, maxTurns: 7 }, 10_000);
    expect(state.phase).toBe('OVER');
    expect(state.turnNumber).toBe(7);
    expect(universus.outcome(state)).toEqual({ winner: null, reason: 'TURN_LIMIT' });
    expect(events.filter((e) => e.type === 'TurnStarted').at(-1)).toMatchObject({ turnNumber: 7 });
    expect(events.at(-1)).toEqual({ type: 'GameDrawn', reason: 'TURN_LIMIT', seed: 'pass-forever' });
    expect(universus.pending(state)).toBeNull();
    const v = universus.view(state, 'spectator');
    expect(v).toMatchObject({ phase: 'OVER', winner: null, winReason: 'TURN_LIMIT' });
    expect(universus.redactEvent(events.at(-1)!, 'p2')).toEqual({ type: 'GameDrawn', reason: 'TURN_LIMIT', seed: 'pass-forever' });
    // Replay gives the same state.
    expect(universus.view(universus.replay(events), 'p1')).toEqual(universus.view(state, 'p1'));
  });

  it('the default ends two passing players after turn 200 (they passed for ever before)', () => {
    const { state } = passForever({}, 20_000);
    expect(universus.outcome(state)).toEqual({ winner: null, reason: 'TURN_LIMIT' });
    expect(state.turnNumber).toBe(200);
  });

  it('a config stored before the setting: no limit, the same rules hash and deal as before, replayed unchanged, shown as null', () => {
    const stored = legacy();
    // The hash as it was computed before the setting existed: the stored config, parsed, without maxTurns.
    const before = sha256Hex(canonicalJson({ game: 'universus', rules: RULES_VERSION, config: stored, cards: universus.cardSet.hash }));
    expect(universus.rulesHash(stored as UniversusConfig)).toBe(before);
    expect(universus.rulesHash(defaultConfig)).not.toBe(before);
    const { state, events } = passForever(stored, 2000);
    expect(state.phase).not.toBe('OVER');
    expect(state.turnNumber).toBeGreaterThan(200);
    const started = events[0] as Extract<UniversusEvent, { type: 'GameStarted' }>;
    expect(started.config).toEqual(stored);
    expect(universus.redactEvent(started, 'p1')).toMatchObject({ config: { ...stored, maxTurns: null } });
    expect(universus.view(universus.replay(events), 'p2')).toEqual(universus.view(state, 'p2'));
  });
});
