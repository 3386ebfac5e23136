/** Every UQ setting in both readings, plus rule tests per section (U-SETUP, U-CHECK, U-COMMIT, U-CYCLE …). */
import { describe, expect, it } from 'vitest';
import { expandDeck } from '../../../src/core/ruleset.js';
import { configSchema } from '../../../src/games/universus/config.js';
import { universus } from '../../../src/games/universus/index.js';
import { Game, position } from './helpers.js';

describe('U-SETUP', () => {
  it('U-SETUP-1..4: starter decks are legal; deal is seeded, hands drawn, first player random', () => {
    const cfg = configSchema.parse({});
    for (const d of universus.starterDecks) expect(universus.validateDeck(expandDeck(d.cards), cfg)).toEqual([]);
    const deck = (i: number) => expandDeck(universus.starterDecks[i]?.cards ?? []);
    const a = universus.create({ config: configSchema.parse({}), decks: { p1: deck(0), p2: deck(1) }, seed: 's1' });
    const b = universus.create({ config: configSchema.parse({}), decks: { p1: deck(0), p2: deck(1) }, seed: 's1' });
    if (!a.ok || !b.ok) throw new Error('create failed');
    expect(a.events).toEqual(b.events);
    expect(a.events[0]).toMatchObject({ type: 'GameStarted', rng: 'chacha20' });
    expect(a.state.players.p1.hand).toHaveLength(6);
    expect(a.state.players.p2.hand).toHaveLength(5);
    expect(a.state.players.p1.health).toBe(22);
    const firsts = new Set(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((s) => {
        const r = universus.create({ config: configSchema.parse({}), decks: { p1: deck(0), p2: deck(1) }, seed: s });
        return r.ok ? r.state.turnPlayer : null;
      }),
    );
    expect(firsts).toEqual(new Set(['p1', 'p2']));
  });
  it('U-SETUP-1 minDeckSize: short decks and decks without one character are rejected', () => {
    expect(universus.validateDeck(['C01', 'A01'], configSchema.parse({}))).toHaveLength(1);
    expect(universus.validateDeck(['C01', 'A01'], configSchema.parse({ minDeckSize: 1 }))).toEqual([]);
    expect(universus.validateDeck(['A01', 'X99'], configSchema.parse({ minDeckSize: 1 }))).toHaveLength(2);
  });
});

describe('UQ-7 failedCheckEndsTurn (U-PLAY-5)', () => {
  for (const ends of [true, false]) {
    it(`failedCheckEndsTurn=${ends}`, () => {
      const g = new Game(position({ hand: ['A05', 'A07'], deck: ['A05'] }, {}, { failedCheckEndsTurn: ends }));
      g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A05') });
      expect(g.cardsOf(g.state.players.p1.discard)).toEqual(['A05', 'A05']);
      expect(g.state.pending).toEqual(ends ? { kind: 'PLAY', seat: 'p2' } : { kind: 'PLAY', seat: 'p1' });
    });
  }
});

describe('UQ-4 commitMode (U-COMMIT-1..3)', () => {
  const stage = [
    { card: 'F01', committed: false },
    { card: 'F05', committed: false },
    { card: 'F06', committed: true },
  ];
  it('EXACT_SHORTFALL_AFTER_REVEAL: commit exactly the shortfall, ready ones only; stays committed until Ready Step', () => {
    // A08 Rising Kick: difficulty 3, reveal A02 (check 2) → shortfall 1, two ready foundations on stage.
    const g = new Game(position({ hand: ['A08'], deck: ['A02'], stage }, {}));
    g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A08') }); // 3 vs check 2 → shortfall 1
    expect(g.state.pending).toEqual({ kind: 'AWAIT_COMMIT', seat: 'p1', shortfall: 1 });
    expect(universus.legalActions(g.state, 'p1')).toHaveLength(3);
    const f01 = g.id('p1', 'F01', 'stage');
    const f05 = g.id('p1', 'F05', 'stage');
    const f06 = g.id('p1', 'F06', 'stage');
    expect(g.reject('p1', { type: 'CommitForCheck', foundationIds: [f01, f05] })).toBe('WRONG_COMMIT_COUNT');
    expect(g.reject('p1', { type: 'CommitForCheck', foundationIds: [f06] })).toBe('FOUNDATION_NOT_READY');
    expect(g.reject('p2', { type: 'DeclineCommit' })).toBe('NOT_YOUR_DECISION');
    g.act('p1', { type: 'CommitForCheck', foundationIds: [f01] });
    expect(g.state.pending).toEqual({ kind: 'AWAIT_BLOCK', seat: 'p2' });
    expect(g.state.players.p1.stage.find((e) => e.id === f01)?.committed).toBe(true);
    g.act('p2', { type: 'NoBlock' });
    g.act('p1', { type: 'PassCombat' });
    g.act('p1', { type: 'ChooseMomentum', attackIds: [] });
    expect(g.state.players.p1.stage.find((e) => e.id === f01)?.committed).toBe(true); // U-COMMIT-3
    g.act('p2', { type: 'PassCombat' });
    expect(g.state.players.p1.stage.every((e) => !e.committed)).toBe(true); // U-TURN-2
  });
  it('U-COMMIT-2: the defender commits for a block check on the rival turn', () => {
    const g = new Game(
      position(
        { hand: ['A01'], deck: ['F03'] },
        {
          hand: ['F01'],
          deck: ['F06'],
          stage: [
            { card: 'F05', committed: false },
            { card: 'F05', committed: false },
          ],
        },
      ),
    );
    g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A01') });
    g.act('p2', { type: 'Block', cardId: g.id('p2', 'F01') }); // 5 vs 3 → shortfall 2
    expect(g.state.pending).toEqual({ kind: 'AWAIT_COMMIT', seat: 'p2', shortfall: 2 });
    g.act('p2', { type: 'CommitForCheck', foundationIds: g.state.players.p2.stage.map((e) => e.id) });
    expect(g.state.players.p2.health).toBe(22);
  });
  it('DeclineCommit fails the check', () => {
    const g = new Game(position({ hand: ['A08'], deck: ['A02'], stage }, {}));
    g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A08') });
    g.act('p1', { type: 'DeclineCommit' });
    expect(g.cardsOf(g.state.players.p1.discard)).toEqual(['A02', 'A08']);
  });
  it('NONE: a short check fails at once', () => {
    const g = new Game(position({ hand: ['A08'], deck: ['A02'], stage }, {}, { commitMode: 'NONE' }));
    g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A08') });
    expect(g.state.pending).toEqual({ kind: 'PLAY', seat: 'p2' });
  });
});

describe('UQ-5 foundationEntersStage (U-FOUND-1, U-FOUND-2)', () => {
  for (const when of ['END_PHASE', 'IMMEDIATELY'] as const) {
    it(when, () => {
      const g = new Game(position({ hand: ['F04'], deck: ['F05'] }, {}, { foundationEntersStage: when }));
      g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'F04') });
      expect(g.state.players.p1.cardPool).toHaveLength(1); // counts for PD either way
      expect(g.state.players.p1.stage).toHaveLength(when === 'IMMEDIATELY' ? 1 : 0);
      g.act('p1', { type: 'PassCombat' });
      expect(g.cardsOf(g.state.players.p1.stage.map((e) => e.id))).toEqual(['F04']);
      expect(g.state.players.p1.discard).toHaveLength(1);
    });
  }
});

describe('UQ-6 autoMomentum (U-MOMENTUM-1)', () => {
  const pool = [{ card: 'A01', role: 'PLAYED' as const, dealtDamage: true, built: false }];
  it('ASK asks; ALL moves every damaging attack; NONE moves none', () => {
    const ask = new Game(position({ cardPool: pool }, {}));
    ask.act('p1', { type: 'PassCombat' });
    expect(ask.state.pending?.kind).toBe('AWAIT_MOMENTUM');
    expect(ask.reject('p1', { type: 'ChooseMomentum', attackIds: ['nope'] })).toBe('NOT_MOMENTUM_ELIGIBLE');
    const all = new Game(position({ cardPool: pool }, {}, { autoMomentum: 'ALL' }));
    all.act('p1', { type: 'PassCombat' });
    expect(all.state.players.p1.momentum).toHaveLength(1);
    const none = new Game(position({ cardPool: pool }, {}, { autoMomentum: 'NONE' }));
    none.act('p1', { type: 'PassCombat' });
    expect(none.state.players.p1.momentum).toHaveLength(0);
    expect(none.state.players.p1.discard).toHaveLength(1);
  });
});

describe('UQ-9 cycleRemoveCount (U-CYCLE-1..3, U-WIN-2)', () => {
  const exhaustPos = (discard: number, remove: number) => {
    const p = position({}, { hand: [], discard: Array(discard).fill('F05') }, { cycleRemoveCount: remove });
    p.players.p2.deck = [];
    return p;
  };
  it('10: shuffle discard, remove 10 face down, draw', () => {
    const g = new Game(exhaustPos(25, 10));
    const ev = g.act('p1', { type: 'PassCombat' });
    expect(ev.find((e) => e.type === 'DeckCycled')).toMatchObject({ removedCount: 10, deckSize: 15 });
    expect(g.state.players.p2.removed).toHaveLength(10);
    expect(g.state.players.p2.hand).toHaveLength(6);
    expect(universus.view(g.state, 'p1').players.p2.removedCount).toBe(10);
  });
  it('10: exhausted when the discard has 10 or fewer cards', () => {
    const g = new Game(exhaustPos(10, 10));
    const ev = g.act('p1', { type: 'PassCombat' });
    expect(ev.some((e) => e.type === 'PlayerExhausted')).toBe(true);
    expect(universus.outcome(g.state)).toEqual({ winner: 'p1', reason: 'EXHAUSTED' });
  });
  it('0: no removal; exhausted only with an empty discard', () => {
    const g = new Game(exhaustPos(3, 0));
    g.act('p1', { type: 'PassCombat' });
    expect(g.state.players.p2.removed).toHaveLength(0);
    expect(g.state.players.p2.hand).toHaveLength(3);
    expect(universus.outcome(g.state)?.reason).toBe('EXHAUSTED');
  });
  it('U-CHECK-4: a check on an empty deck cycles first', () => {
    const p = position({ hand: ['A07'], discard: Array(12).fill('F05') }, {});
    p.players.p1.deck = [];
    const g = new Game(p);
    const ev = g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A07') });
    expect(ev.map((e) => e.type).slice(0, 3)).toEqual(['PlayAttempted', 'DeckCycled', 'CheckRevealed']);
  });
});

describe('UQ-12 alwaysRevealOnCheck (U-CHECK-3)', () => {
  for (const reveal of [true, false]) {
    it(`alwaysRevealOnCheck=${reveal}: difficulty 0`, () => {
      const g = new Game(position({ hand: ['F04'] }, {}, { alwaysRevealOnCheck: reveal }));
      const ev = g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'F04') });
      expect(ev.some((e) => e.type === 'CheckRevealed')).toBe(reveal);
      expect(ev.some((e) => e.type === 'CheckPassed')).toBe(true);
    });
  }
});

describe('fixed settings and rejections', () => {
  it('U-DAMAGE-1 halfDamageRounding and U-ATTACK-2 enhanceStep accept only the spec value', () => {
    expect(configSchema.safeParse({ halfDamageRounding: 'DOWN' }).success).toBe(false);
    expect(configSchema.safeParse({ enhanceStep: 'ALLOW' }).success).toBe(false);
  });
  it('U-PLAY-1, U-BLOCK-1: wrong seat, wrong decision, unknown card, bad shape', () => {
    const g = new Game(position({ hand: ['A01'], deck: ['F03'] }, { hand: ['F01'] }));
    expect(g.reject('p2', { type: 'PlayCard', cardId: g.id('p2', 'F01') })).toBe('NOT_YOUR_DECISION');
    expect(g.reject('p1', { type: 'NoBlock' })).toBe('WRONG_DECISION');
    expect(g.reject('p1', { type: 'PlayCard', cardId: g.id('p2', 'F01') })).toBe('CARD_NOT_IN_HAND');
    expect(g.reject('p1', { type: 'Fly' })).toBe('INVALID_ACTION');
    g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A01') });
    expect(g.reject('p1', { type: 'PassCombat' })).toBe('NOT_YOUR_DECISION');
  });
  it('U-BLOCK-7: a card with no block zone cannot block', () => {
    const g = new Game(position({ hand: ['A01'], deck: ['F03'] }, { hand: ['A05'] }));
    g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A01') });
    expect(g.reject('p2', { type: 'Block', cardId: g.id('p2', 'A05') })).toBe('NO_BLOCK_ZONE');
  });
});
