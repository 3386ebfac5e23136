/** Illegal actions: each rejection has its code, never mutates the state, and legal actions are accepted. */
import { describe, expect, it } from 'vitest';
import { apply, legalActions, toPosition } from '../../../src/games/evons/index.js';
import { act, activating, build, card, decision, fillMain, gid, hid, legal, playCovered, playUp, reject } from './helpers.js';

describe('rejected actions', () => {
  const base = () => build({ board: { C3: card('p2', 'f') }, hands: { p1: ['c4', 'block-fire'], p2: ['filler'] }, credits: { p1: 3 } });

  it("NOT_YOUR_DECISION: P2 acting during P1's play decision; legalActions(p2) is empty", () => {
    const s = base();
    reject(s, 'p2', { type: 'pass' }, 'NOT_YOUR_DECISION');
    reject(s, 'p2', playCovered(hid('filler', 'p2'), 'A1'), 'NOT_YOUR_DECISION');
    expect(legalActions(s, 'p2')).toEqual([]);
  });

  it('WRONG_DECISION: end-phase, conflict, discard or reveal at the play decision', () => {
    const s = base();
    reject(s, 'p1', { type: 'end-phase' }, 'WRONG_DECISION');
    reject(s, 'p1', { type: 'conflict', defender: 'f@C3' }, 'WRONG_DECISION');
    reject(s, 'p1', { type: 'discard', card: hid('c4', 'p1') }, 'WRONG_DECISION');
    reject(s, 'p1', { type: 'ability', arrow: 0, target: 'D3' }, 'WRONG_DECISION');
  });

  it('R-BOARD-6 CELL_OCCUPIED: playing onto an occupied cell (face-up or covered)', () => {
    reject(base(), 'p1', playCovered(hid('c4', 'p1'), 'C3'), 'CELL_OCCUPIED');
  });

  it("CARD_NOT_IN_HAND: a card in the opponent's hand, on the board, or unknown", () => {
    const s = base();
    reject(s, 'p1', playCovered(hid('filler', 'p2'), 'A1'), 'CARD_NOT_IN_HAND');
    reject(s, 'p1', playCovered('f@C3', 'A1'), 'CARD_NOT_IN_HAND');
    reject(s, 'p1', playCovered('nope', 'A1'), 'CARD_NOT_IN_HAND');
  });

  it('R-CRED-7 R-CRED-9 INSUFFICIENT_CREDITS: a cost-4 card face-up with 3 credits is refused, covered is allowed', () => {
    const s = base();
    const msg = reject(s, 'p1', playUp(hid('c4', 'p1'), 'A1'), 'INSUFFICIENT_CREDITS');
    expect(msg).toMatch(/4/);
    expect(legal(s)).not.toContainEqual(playUp(hid('c4', 'p1'), 'A1'));
    expect(legal(s)).toContainEqual(playCovered(hid('c4', 'p1'), 'A1'));
    act(s, 'p1', playCovered(hid('c4', 'p1'), 'A1'));
  });

  it("R-PLAY-5 R-BLOCK-2 BLOCK_PLAY_NOT_ALLOWED: a Block card cannot be the turn's play (allowDirectBlockPlay false)", () => {
    const s = base();
    reject(s, 'p1', playUp(hid('block-fire', 'p1', 1), 'X0'), 'BLOCK_PLAY_NOT_ALLOWED');
    reject(s, 'p1', playCovered(hid('block-fire', 'p1', 1), 'A1'), 'BLOCK_PLAY_NOT_ALLOWED');
    expect(legal(s).some((a) => a.type === 'play' && a.card === hid('block-fire', 'p1', 1))).toBe(false);
  });

  it('R-PLAY-5 (allowDirectBlockPlay true): a Block card may be played face-up (free), never covered', () => {
    const s = build({ config: { allowDirectBlockPlay: true }, hands: { p1: ['block-fire'] }, credits: { p1: 0 } });
    const blk = hid('block-fire', 'p1');
    expect(legal(s)).toContainEqual(playUp(blk, 'X0'));
    expect(legal(s)).not.toContainEqual(playCovered(blk, 'X0'));
    reject(s, 'p1', playCovered(blk, 'X0'), 'INVALID_CHOICE');
    const r = act(s, 'p1', playUp(blk, 'X0'));
    expect(r.events[0]).toEqual({
      type: 'CardPlayed',
      seat: 'p1',
      card: blk,
      defId: 'block-fire',
      cell: 'X0',
      covered: false,
      paid: 0,
      total: 0,
    });
    expect(r.events.some((e) => e.type === 'ActivationStarted')).toBe(false);
  });

  it('R-ACT-6 ARROW_ALREADY_USED: an arrow used in AP1 is not offered in AP2; the unused one is', () => {
    const s = activating('lich', 'C3', { graveyards: { p1: ['cost2', 'cost2'] }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: gid('cost2', 'p1', 0) });
    expect(decision(r.state)).toMatchObject({ kind: 'ability', phase: 1, card: 'act' });
    const r2 = act(r.state, 'p1', { type: 'end-phase' });
    expect(decision(r2.state)).toMatchObject({ kind: 'ability', phase: 2, card: 'act' });
    const arrows = new Set(legal(r2.state).flatMap((a) => (a.type === 'ability' ? [a.arrow] : [])));
    expect(arrows).toEqual(new Set([1]));
    reject(r2.state, 'p1', { type: 'ability', arrow: 0, target: 'A3', card: gid('cost2', 'p1', 1) }, 'ARROW_ALREADY_USED');
  });

  it('R-ACT-6 ARROW_ALREADY_USED / R-AB-NORM-1 NOT_AN_ABILITY_ARROW / INVALID_CHOICE / INVALID_TARGET', () => {
    // Lich: two Resurrection arrows (W = 0, E = 1); graveyard cost2 ×2.
    const s = activating('lich', 'C3', { graveyards: { p1: ['cost2', 'cost2'] }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: gid('cost2', 'p1', 0) });
    expect(r.state.stack.at(-1)?.used).toEqual([0]);
    reject(r.state, 'p1', { type: 'ability', arrow: 0, target: 'A3', card: gid('cost2', 'p1', 1) }, 'ARROW_ALREADY_USED');
    reject(r.state, 'p1', { type: 'ability', arrow: 5, target: 'D3', card: gid('cost2', 'p1', 1) }, 'INVALID_CHOICE');
    reject(r.state, 'p1', { type: 'ability', arrow: 1, target: 'C2', card: gid('cost2', 'p1', 1) }, 'INVALID_TARGET');
    reject(r.state, 'p1', { type: 'ability', arrow: 1, target: 'D3', card: 'nope' }, 'INVALID_CHOICE');
    const n = activating('a6', 'B3', { board: { C3: card('p2', 'f') }, hands: { p1: ['filler'] } });
    reject(n, 'p1', { type: 'ability', arrow: 0, target: 'B2' }, 'NOT_AN_ABILITY_ARROW');
    act(n, 'p1', { type: 'ability', arrow: 1, target: 'C3' });
  });

  it("R-AB-RES-2 R-AB-RES-4 RESURRECTION_COST_EXCEEDED: reviving more than the activating card's cost", () => {
    const s = activating('night', 'C3', { graveyards: { p1: ['cost4', 'cost3'] }, hands: { p1: ['filler'] } });
    reject(s, 'p1', { type: 'ability', arrow: 0, target: 'C2', card: gid('cost4', 'p1', 0) }, 'RESURRECTION_COST_EXCEEDED');
    act(s, 'p1', { type: 'ability', arrow: 0, target: 'C2', card: gid('cost3', 'p1', 1) });
  });

  it("R-AB-RES-2: the opponent's graveyard cards are never offered (INVALID_CHOICE)", () => {
    const s = activating('night', 'C3', { graveyards: { p1: ['cost2'], p2: ['cost2'] }, hands: { p1: ['filler'] } });
    expect(
      legal(s)
        .filter((a) => a.type === 'ability')
        .map((a) => (a as { card?: string }).card),
    ).not.toContain(gid('cost2', 'p2', 0));
    reject(s, 'p1', { type: 'ability', arrow: 0, target: 'C2', card: gid('cost2', 'p2', 0) }, 'INVALID_CHOICE');
  });

  it('NOT_A_CANDIDATE: a conflict with a card that is not defending', () => {
    const s = build({ board: { C2: card('p2', 'b1'), D3: card('p2', 'b2'), E1: card('p2', 'f') }, hands: { p1: ['a5'] } });
    const r = act(s, 'p1', playUp(hid('a5', 'p1'), 'C3'));
    reject(r.state, 'p1', { type: 'conflict', defender: 'f@E1' }, 'NOT_A_CANDIDATE');
    reject(r.state, 'p1', { type: 'pass' }, 'WRONG_DECISION');
    reject(r.state, 'p1', { type: 'end-phase' }, 'WRONG_DECISION');
  });

  it('INVALID_ACTION: malformed actions (unknown type, bad cell name, missing field, extra field)', () => {
    const s = base();
    reject(s, 'p1', { type: 'fly' }, 'INVALID_ACTION');
    reject(s, 'p1', { type: 'play', card: hid('c4', 'p1'), cell: 'Z9', covered: true }, 'INVALID_ACTION');
    reject(s, 'p1', { type: 'play', card: hid('c4', 'p1'), cell: 'C4' }, 'INVALID_ACTION');
    reject(s, 'p1', { type: 'pass', extra: 1 }, 'INVALID_ACTION');
    reject(s, 'p1', null, 'INVALID_ACTION');
    reject(s, 'p1', { type: 'ability', arrow: 8, target: 'C3' }, 'INVALID_ACTION');
  });

  it('GAME_OVER: no action (not even resign) after the game has ended', () => {
    const s = build({ board: fillMain(['C3']), hands: { p1: ['filler'] } });
    const r = act(s, 'p1', playUp(hid('filler', 'p1'), 'C3'));
    expect(r.state.result).not.toBeNull();
    reject(r.state, 'p2', { type: 'pass' }, 'GAME_OVER');
    reject(r.state, 'p1', { type: 'resign' }, 'GAME_OVER');
    expect(legal(r.state)).toEqual([]);
  });

  it('resign is always allowed while the game runs, even out of turn; the other seat wins', () => {
    const s = base();
    const r = act(s, 'p2', { type: 'resign' });
    expect(r.events[0]).toEqual({ type: 'Resigned', seat: 'p2' });
    expect(r.state.result).toMatchObject({ reason: 'resignation', winner: 'p1' });
    expect(r.events.at(-1)).toEqual({ type: 'SeedRevealed', seed: 'test-seed', decks: null });
  });

  it('apply never mutates its input state, accepted or not', () => {
    const s = base();
    const before = JSON.stringify(toPosition(s));
    const ok = apply(s, 'p1', playCovered(hid('c4', 'p1'), 'A1'));
    expect(ok.ok).toBe(true);
    expect(JSON.stringify(toPosition(s))).toBe(before);
    expect(s.hands.p1).toContain(hid('c4', 'p1'));
  });

  it('every action listed by legalActions is accepted by apply (play decision and ability decision)', () => {
    const s = activating('volt', 'B3', { board: { D2: card('p2', 'f'), E3: card('p1', 'pebble') }, hands: { p1: ['filler'] } });
    const acts = legal(s);
    expect(acts.length).toBeGreaterThan(2);
    for (const a of acts) expect(apply(s, 'p1', a).ok).toBe(true);
    const p = base();
    const pa = legal(p);
    for (const a of pa.filter((_, i) => i % 7 === 0)) expect(apply(p, 'p1', a).ok).toBe(true);
  });
});
