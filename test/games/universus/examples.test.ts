/** Worked examples EX-U-… of the UniVersus rules, one test each (docs/universus.md). */
import { describe, expect, it } from 'vitest';
import { blockFit, damageFor } from '../../../src/games/universus/combat.js';
import { defaultConfig } from '../../../src/games/universus/config.js';
import { universus } from '../../../src/games/universus/index.js';
import { Game, position } from './helpers.js';

// Placeholder stats: A01 Seize the Opportunity (HIGH, speed 4, damage 5, difficulty 4); A02 Levi's
// Overhead Strike (block LOW +1); F01 Bar the Door (block HIGH +1, check 5); F02 Against a Tough
// Bunch (block MID +2, check 4); F03 Mikasa's Admission (check 6); F06 (check 3).
const attackSeize = (p2: { hand: string[]; deck: string[]; health?: number }, config = {}) => {
  const g = new Game(position({ hand: ['A01'], deck: ['F03'] }, p2, config));
  g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A01') });
  return g;
};

describe('UniVersus worked examples', () => {
  it('EX-U-01 seed example, adjacent block (U-BLOCK-2, U-BLOCK-3, U-BLOCK-6, U-DAMAGE-1, U-DAMAGE-3, U-CHECK-2)', () => {
    const g = attackSeize({ hand: ['A02', 'F01', 'F02'], deck: ['F03'] });
    expect(g.state.pending).toEqual({ kind: 'AWAIT_BLOCK', seat: 'p2' });
    const blocks = universus.legalActions(g.state, 'p2').filter((a) => a.type === 'Block');
    expect(blocks.map((a) => (a.type === 'Block' ? g.state.cards[a.cardId] : ''))).toEqual(['F01', 'F02']);
    const ev = g.act('p2', { type: 'Block', cardId: g.id('p2', 'F02') });
    expect(ev.find((e) => e.type === 'BlockAttempted')).toMatchObject({ difficulty: 6 });
    expect(ev.find((e) => e.type === 'CheckRevealed')).toMatchObject({ card: 'F03', value: 6 });
    expect(ev.find((e) => e.type === 'BlockResolved')).toMatchObject({ outcome: 'HALF' });
    expect(ev.find((e) => e.type === 'DamageDealt')).toMatchObject({ amount: 3 });
    expect(g.state.players.p2.health).toBe(19);
    expect(g.cardsOf(g.state.players.p2.cardPool.map((e) => e.id))).toEqual(['F02']);
    expect(g.state.players.p2.cardPool[0]?.role).toBe('BLOCK');
    expect(g.cardsOf(g.state.players.p2.discard)).toEqual(['F03']);
    expect(g.state.players.p1.cardPool[0]?.dealtDamage).toBe(true);
  });

  it('EX-U-02 exact match blocks fully (U-BLOCK-6, U-DAMAGE-1, U-DAMAGE-3)', () => {
    const g = attackSeize({ hand: ['F01'], deck: ['F01'] });
    const ev = g.act('p2', { type: 'Block', cardId: g.id('p2', 'F01') });
    expect(ev.find((e) => e.type === 'BlockAttempted')).toMatchObject({ difficulty: 5 });
    expect(ev.find((e) => e.type === 'BlockResolved')).toMatchObject({ outcome: 'FULL' });
    expect(ev.find((e) => e.type === 'DamageDealt')).toMatchObject({ amount: 0 });
    expect(g.state.players.p2.health).toBe(22);
    expect(g.state.players.p1.cardPool[0]?.dealtDamage).toBe(false);
  });

  it('EX-U-03 half damage rounds up (U-DAMAGE-1)', () => {
    expect(blockFit('MID', 'HIGH', defaultConfig)).toBe('HALF');
    expect(damageFor('HALF', 6)).toBe(3);
    expect(blockFit('LOW', 'LOW', defaultConfig)).toBe('FULL');
    expect(damageFor('HALF', 1)).toBe(1);
    expect(damageFor('HALF', 0)).toBe(0);
  });

  it('EX-U-04 High vs Low is rejected, state unchanged; ANY_ZONE_HALF allows it (U-BLOCK-2, UQ-1)', () => {
    const g = attackSeize({ hand: ['A02'], deck: ['F01'] });
    const before = g.state;
    expect(g.reject('p2', { type: 'Block', cardId: g.id('p2', 'A02') })).toBe('ZONE_NOT_ADJACENT');
    expect(g.state).toBe(before);
    expect(g.state.pending).toEqual({ kind: 'AWAIT_BLOCK', seat: 'p2' });
    g.act('p2', { type: 'NoBlock' });
    expect(g.state.players.p2.health).toBe(17);

    const h = attackSeize({ hand: ['A02'], deck: ['F01'] }, { blockZoneRule: 'ANY_ZONE_HALF' });
    const ev = h.act('p2', { type: 'Block', cardId: h.id('p2', 'A02') });
    expect(ev.find((e) => e.type === 'BlockResolved')).toMatchObject({ outcome: 'HALF' });
    expect(h.state.players.p2.health).toBe(19);
  });

  it('EX-U-05 failed block: card discarded, full damage (U-BLOCK-5, U-BLOCK-6)', () => {
    const g = attackSeize({ hand: ['F02'], deck: ['F06'] });
    const ev = g.act('p2', { type: 'Block', cardId: g.id('p2', 'F02') });
    expect(ev.find((e) => e.type === 'CheckFailed')).toMatchObject({ difficulty: 6 });
    expect(g.cardsOf(g.state.players.p2.discard)).toEqual(['F06', 'F02']);
    expect(g.state.players.p2.cardPool).toEqual([]);
    expect(g.state.players.p2.health).toBe(17);
  });

  it('EX-U-07 lethal: health below 0 shown as 0, game over at once (U-DAMAGE-2, U-DAMAGE-4, U-WIN-1)', () => {
    const g = attackSeize({ hand: [], deck: [], health: 4 });
    const ev = g.act('p2', { type: 'NoBlock' });
    expect(g.state.players.p2.health).toBe(-1);
    expect(universus.view(g.state, 'p2').players.p2.health).toBe(0);
    expect(ev.at(-1)).toMatchObject({ type: 'GameWon', winner: 'p1', reason: 'HEALTH_ZERO' });
    expect(universus.outcome(g.state)).toEqual({ winner: 'p1', reason: 'HEALTH_ZERO' });
    expect(universus.pending(g.state)).toBeNull();
    expect(universus.legalActions(g.state, 'p1')).toEqual([]);
    expect(universus.view(g.state, 'spectator').seed).toBe('test-seed');
  });

  it('EX-U-08 progressive difficulty within a turn; failure ends the Combat Phase (U-PROG-1, U-FOUND-2, U-PLAY-5)', () => {
    const g = new Game(position({ hand: ['F02', 'A01', 'A04'], deck: ['F06', 'F01', 'A02'] }, { hand: [] }));
    let ev = g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'F02') });
    expect(ev.find((e) => e.type === 'PlayAttempted')).toMatchObject({ difficulty: 2 });
    expect(ev.some((e) => e.type === 'FoundationBuilt')).toBe(true);
    expect(g.state.players.p1.stage).toEqual([]);
    ev = g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A01') });
    expect(ev.find((e) => e.type === 'PlayAttempted')).toMatchObject({ difficulty: 5 });
    expect(ev.some((e) => e.type === 'CheckPassed')).toBe(true);
    g.act('p2', { type: 'NoBlock' });
    ev = g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A04') });
    expect(ev.find((e) => e.type === 'PlayAttempted')).toMatchObject({ difficulty: 5 });
    expect(ev.some((e) => e.type === 'CheckFailed')).toBe(true);
    expect(ev.some((e) => e.type === 'AwaitingCommit')).toBe(false);
    expect(g.cardsOf(g.state.players.p1.discard)).toEqual(['F06', 'F01', 'A02', 'A04']);
    expect(g.state.pending).toEqual({ kind: 'AWAIT_MOMENTUM', seat: 'p1' });
  });

  it('EX-U-10 End Phase clean-up (U-END-1, U-MOMENTUM-1, U-FOUND-2)', () => {
    const g = new Game(
      position(
        {
          cardPool: [
            { card: 'F02', role: 'PLAYED', dealtDamage: false, built: true },
            { card: 'A01', role: 'PLAYED', dealtDamage: true, built: false },
            { card: 'A04', role: 'PLAYED', dealtDamage: false, built: false },
          ],
        },
        { cardPool: [{ card: 'F01', role: 'BLOCK', dealtDamage: false, built: false }] },
      ),
    );
    g.act('p1', { type: 'PassCombat' });
    expect(g.state.pending).toEqual({ kind: 'AWAIT_MOMENTUM', seat: 'p1' });
    expect(universus.legalActions(g.state, 'p1')).toHaveLength(2);
    g.act('p1', { type: 'ChooseMomentum', attackIds: [g.id('p1', 'A01', 'cardPool')] });
    const p1 = g.state.players.p1;
    expect(p1.momentum).toHaveLength(1);
    expect(g.cardsOf(p1.stage.map((e) => e.id))).toEqual(['F02']);
    expect(p1.stage[0]?.committed).toBe(false);
    expect(g.cardsOf(p1.discard)).toEqual(['A04']);
    expect(g.cardsOf(g.state.players.p2.discard)).toEqual(['F01']);
    expect(g.state.turnPlayer).toBe('p2');
    expect(g.state.pending).toEqual({ kind: 'PLAY', seat: 'p2' });
  });

  it('EX-U-12 Mid attack: Mid block full, High or Low block half (U-BLOCK-2, U-BLOCK-6, U-DAMAGE-1)', () => {
    expect(blockFit('MID', 'MID', defaultConfig)).toBe('FULL');
    expect(blockFit('MID', 'HIGH', defaultConfig)).toBe('HALF');
    expect(blockFit('MID', 'LOW', defaultConfig)).toBe('HALF');
    expect(damageFor('HALF', 4)).toBe(2);
    // In play: A04 Grappling Dive (MID, speed 4, damage 4) against a Mid block (F02, +2 → 6; check 6).
    const g = new Game(position({ hand: ['A04'], deck: ['F03'] }, { hand: ['F02'], deck: ['F03'] }));
    g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A04') });
    const ev = g.act('p2', { type: 'Block', cardId: g.id('p2', 'F02') });
    expect(ev.find((e) => e.type === 'DamageDealt')).toMatchObject({ amount: 0 });
  });
});
