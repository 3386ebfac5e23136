/**
 * Properties over random playouts (randomPlayer): replay equals live state, card conservation,
 * apply never mutates its input, apply accepts exactly the legal actions, nothing leaks to a viewer
 * (U-CHECK-1 reveals, hands/deck order/seed secret), position round-trip.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandDeck, type Seat, type Viewer } from '../../../src/core/ruleset.js';
import { CARD_BY_ID } from '../../../src/games/universus/cards/index.js';
import { configSchema } from '../../../src/games/universus/config.js';
import { universus, type UniversusEvent, type UniversusState } from '../../../src/games/universus/index.js';

const deck = (i: number): string[] => expandDeck(universus.starterDecks[i]?.cards ?? []);
const VIEWERS: Viewer[] = ['p1', 'p2', 'spectator'];

interface Playout {
  events: UniversusEvent[];
  states: UniversusState[];
  final: UniversusState;
}

function playout(
  seed: string,
  a: number,
  b: number,
  config: Record<string, unknown>,
  maxSteps = 400,
  each?: (s: UniversusState, events: UniversusEvent[]) => void,
): Playout {
  const r = universus.create({ config: configSchema.parse(config), decks: { p1: deck(a), p2: deck(b) }, seed });
  if (!r.ok) throw new Error(r.errors.join('; '));
  let state = r.state;
  const events = [...r.events];
  const states = [state];
  const pick = universus.randomPlayer(`rp:${seed}`);
  for (let i = 0; i < maxSteps && !universus.outcome(state); i++) {
    const p = universus.pending(state);
    if (!p) throw new Error('no pending decision in a running game');
    const action = pick(state, universus.legalActions(state, p.seat));
    const res = universus.apply(state, p.seat, action);
    if (!res.ok) throw new Error(`legal action rejected: ${res.error.code}`);
    state = res.state;
    events.push(...res.events);
    states.push(state);
    each?.(state, events);
  }
  return { events, states, final: state };
}

const configs = fc.record({
  blockZoneRule: fc.constantFrom('ADJACENT_ONLY', 'ANY_ZONE_HALF'),
  failedCheckEndsTurn: fc.boolean(),
  commitMode: fc.constantFrom('EXACT_SHORTFALL_AFTER_REVEAL', 'NONE'),
  foundationEntersStage: fc.constantFrom('END_PHASE', 'IMMEDIATELY'),
  autoMomentum: fc.constantFrom('ASK', 'ALL', 'NONE'),
  cycleRemoveCount: fc.integer({ min: 0, max: 3 }),
  alwaysRevealOnCheck: fc.boolean(),
});
const games = fc.record({
  seed: fc.string({ minLength: 1, maxLength: 12 }),
  a: fc.integer({ min: 0, max: 2 }),
  b: fc.integer({ min: 0, max: 2 }),
  config: configs,
});

function allIds(s: UniversusState, seat: Seat): string[] {
  const p = s.players[seat];
  const staged = new Set(p.stage.map((e) => e.id));
  const ids = [
    ...p.hand,
    ...p.deck,
    ...p.discard,
    ...p.removed,
    ...p.momentum,
    ...p.stage.map((e) => e.id),
    ...p.cardPool.filter((e) => !staged.has(e.id)).map((e) => e.id),
  ];
  if (s.check?.seat === seat) ids.push(s.check.id);
  return ids;
}

describe('UniVersus properties', () => {
  it('replay(events) equals the live state at the end of random playouts; games end (U-WIN-1, U-WIN-2)', () => {
    let ended = 0;
    fc.assert(
      fc.property(games, ({ seed, a, b, config }) => {
        const { events, final } = playout(seed, a, b, config, 2000);
        expect(universus.replay(events)).toEqual(final);
        if (universus.outcome(final)) ended++;
      }),
      { numRuns: 25 },
    );
    expect(ended).toBeGreaterThan(20);
  });

  it('card conservation: every instance is in exactly one zone (U-SETUP-2, U-CYCLE-2, U-END-1)', () => {
    fc.assert(
      fc.property(games, ({ seed, a, b, config }) => {
        playout(seed, a, b, config, 300, (s) => {
          for (const seat of ['p1', 'p2'] as const) {
            const ids = allIds(s, seat);
            expect(new Set(ids).size).toBe(ids.length);
            expect(ids.length).toBe(60);
            expect(s.players[seat].hand.length).toBeLessThanOrEqual(s.players[seat].handSize);
          }
        });
      }),
      { numRuns: 15 },
    );
  });

  it('apply never mutates its input and accepts exactly what legalActions lists (U-PLAY-1, U-BLOCK-1)', () => {
    fc.assert(
      fc.property(games, ({ seed, a, b, config }) => {
        const { states } = playout(seed, a, b, config, 120);
        for (const s of states.filter((_, i) => i % 7 === 0)) {
          const snapshot = structuredClone(s);
          for (const seat of ['p1', 'p2'] as const) {
            const legal = universus.legalActions(s, seat);
            for (const act of legal) expect(universus.apply(s, seat, act).ok).toBe(true);
            // Candidates outside the legal list: every hand card played/blocked, empty commits, passes.
            const p = s.players[seat];
            const candidates = [
              { type: 'PassCombat' },
              { type: 'NoBlock' },
              { type: 'DeclineCommit' },
              { type: 'ChooseMomentum', attackIds: [] },
              { type: 'CommitForCheck', foundationIds: [] },
              ...[...p.hand, ...s.players[seat === 'p1' ? 'p2' : 'p1'].hand].flatMap((cardId) => [
                { type: 'PlayCard', cardId },
                { type: 'Block', cardId },
              ]),
            ];
            const key = (x: unknown) => JSON.stringify(x);
            const legalKeys = new Set(legal.map(key));
            for (const c of candidates) if (!legalKeys.has(key(c))) expect(universus.apply(s, seat, c).ok).toBe(false);
          }
          expect(s).toEqual(snapshot);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('leak property: views, redacted events, action text and error messages name only cards the viewer may know (U-CHECK-1)', () => {
    const names = [...CARD_BY_ID.values()].filter((c) => c.type !== 'CHARACTER').map((c) => c.name);
    fc.assert(
      fc.property(games, ({ seed, a, b, config }) => {
        const { events, states, final } = playout(`secret-${seed}`, a, b, config, 150);
        // Knowledge from the full log: own draws; anything attempted or revealed is public.
        const known: Record<Viewer, Set<string>> = { p1: new Set(), p2: new Set(), spectator: new Set() };
        const learn = (e: UniversusEvent) => {
          if (e.type === 'CardsDrawn') for (const c of e.cards) known[e.seat].add(c.id);
          if (e.type === 'PlayAttempted' || e.type === 'BlockAttempted' || e.type === 'CheckRevealed')
            for (const v of VIEWERS) known[v].add(e.id);
        };
        const allInstances = Object.keys(final.cards);
        const secret = `secret-${seed}`;
        const check = (viewer: Viewer, json: string, over: boolean) => {
          for (const id of allInstances) if (!known[viewer].has(id) && json.includes(id)) throw new Error(`${viewer} sees ${id}`);
          if (!over && json.includes(secret)) throw new Error('seed leaked');
        };
        for (const e of events) {
          learn(e);
          for (const v of VIEWERS) {
            const r = universus.redactEvent(e, v);
            if (universus.eventVisibility(e) === 'server') {
              // Deck order is secret even when every card in it is known (a cycled discard).
              expect(r && 'seed' in r).toBe(false);
              expect(JSON.stringify(r)).not.toMatch(/"(deck|decks|state)"/);
            }
            check(v, JSON.stringify(r), e.type === 'GameWon');
          }
        }
        // Views and action texts at sampled states (knowledge at the end is a superset, so check
        // unknown-at-the-end ids, which were never known).
        for (const s of states.filter((_, i) => i % 5 === 0)) {
          for (const v of VIEWERS) {
            check(v, JSON.stringify(universus.view(s, v)), s.phase === 'OVER');
            const p = universus.pending(s);
            if (!p) continue;
            for (const act of universus.legalActions(s, p.seat)) {
              const text = universus.actionDescriber(s, v)(act);
              const ref = act.type === 'PlayCard' || act.type === 'Block' ? act.cardId : null;
              if (ref && v !== p.seat) {
                const name = CARD_BY_ID.get(s.cards[ref] ?? '')?.name ?? '';
                expect(text.includes(name)).toBe(false);
              }
            }
            // Errors: the other seat's hand cards tried by this seat.
            if (v !== 'spectator') {
              const rival = s.players[v === 'p1' ? 'p2' : 'p1'].hand;
              for (const cardId of rival.slice(0, 3)) {
                const r = universus.apply(s, v, { type: 'PlayCard', cardId });
                if (!r.ok) for (const n of names) expect(r.error.message.includes(n)).toBe(false);
              }
            }
          }
        }
      }),
      { numRuns: 15 },
    );
  });

  it('seed: committed at the start, revealed at the end (sha256 matches)', () => {
    const { events, final } = playout('reveal-me', 0, 1, {}, 3000);
    expect(universus.outcome(final)).not.toBeNull();
    const started = universus.redactEvent(events[0] as UniversusEvent, 'spectator');
    expect(started).not.toHaveProperty('seed');
    expect(universus.view(final, 'spectator').seed).toBe('reveal-me');
    expect(started?.seedCommitment).toBe(universus.view(final, 'p1').seedCommitment);
  });

  it('position round-trip: toPosition(fromPosition(toPosition(s))) equals toPosition(s) at PLAY decisions', () => {
    fc.assert(
      fc.property(games, ({ seed, a, b, config }) => {
        const { states } = playout(seed, a, b, config, 100);
        for (const s of states.filter((x) => x.pending?.kind === 'PLAY').slice(0, 5)) {
          const pos = universus.positions.toPosition(s);
          const r = universus.positions.fromPosition(JSON.parse(JSON.stringify(pos)), 'pos-seed');
          if (!r.ok) throw new Error(r.errors.join('; '));
          expect(universus.positions.toPosition(r.state)).toEqual(pos);
          expect(universus.replay(r.events)).toEqual(r.state);
        }
      }),
      { numRuns: 10 },
    );
  });
});
