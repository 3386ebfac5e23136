/** §20 Scoring, §21 Game end (R-END-1..5), R-BLOCK-4. */
import { describe, expect, it } from 'vitest';
import { act, activating, build, card, decision, fillMain, hid, playCovered, playUp, scoreOf, start, types } from './helpers.js';

describe('scoring', () => {
  it('R-SCORE-1/3 R-FACE-8 R-BLOCK-3: only face-up main-zone monsters count, for the player they face', () => {
    const s = build({
      board: {
        A1: card('p1', 'leaf'),
        B1: card('p2', 'leaf', { owner: 'p1' }),
        C1: card('p1', 'leaf', { covered: true }),
        D1: card('p1', 'block-fire'),
        X1: card('p1', 'leaf'),
        E1: card('p2', 'leaf'),
        E2: card('p2', 'leaf', { owner: 'p1', growth: true }),
      },
      hands: { p1: ['filler'] },
    });
    expect(scoreOf(s)).toEqual({ p1: 1, p2: 2 });
  });
});

describe('game end', () => {
  it('R-END-1 R-PLAY-6 R-END-3/4: a covered card played on the last empty main-zone cell ends the game; higher score wins', () => {
    const s = build({ board: { ...fillMain(['C3', 'B1']), B1: card('p2', 'leaf') }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', playCovered(hid('filler', 'p1'), 'C3'));
    expect(types(r.events)).toEqual(['CardPlayed', 'GameEnded', 'SeedRevealed']);
    expect(r.state.result).toEqual({ reason: 'main-zone-full', winner: 'p2', scores: { p1: 0, p2: 1 } });
    expect(decision(r.state)).toBeNull();
  });

  it('R-END-4 (OQ-12): equal scores are a draw', () => {
    const s = build({ board: { ...fillMain(['C3', 'B1']), B1: card('p2', 'leaf') }, hands: { p1: ['leaf'] } });
    // the face-up leaf has no arrows: 1–1
    const r = act(s, 'p1', playUp(hid('leaf', 'p1'), 'C3'));
    expect(r.state.result).toEqual({ reason: 'main-zone-full', winner: null, scores: { p1: 1, p2: 1 } });
    expect(types(r.events)).not.toContain('ActivationStarted');
  });

  it('R-END-1 R-TURN-8: a face-up play filling the last cell ends the game before the card activates', () => {
    const s = build({ board: { ...fillMain(['C3', 'D3']), D3: card('p2', 'f') }, hands: { p1: ['a7'] } });
    const r = act(s, 'p1', playUp(hid('a7', 'p1'), 'C3'));
    expect(types(r.events)).not.toContain('CardFlipped');
    expect(r.state.result).toMatchObject({ reason: 'main-zone-full', winner: null, scores: { p1: 1, p2: 1 } });
  });

  it('R-BLOCK-4 R-AB-BLK-10: a Block card placed by the Block ability on the last empty main cell ends the game at once', () => {
    const s = activating('mason', 'X3', {
      config: { arrowReach: 'ADJACENT' },
      board: { ...fillMain(['A3', 'B3']), B3: card('p2', 'leaf') },
      hands: { p1: ['block-fire'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'A3', card: hid('block-fire', 'p1') });
    expect(types(r.events)).toEqual(['AbilityUsed', 'BlockPlaced', 'GameEnded', 'SeedRevealed']);
    expect(r.state.result).toEqual({ reason: 'main-zone-full', winner: 'p2', scores: { p1: 0, p2: 1 } });
  });

  it('R-END-5 (OQ-13): with empty decks and no legal play, the stalemate safeguard ends and scores the game', () => {
    const { state, events } = start({ config: { stalemateTurns: 2 }, decks: { p1: [], p2: [] }, board: { C3: card('p1', 'leaf') } });
    const passes = events.filter((e) => e.type === 'Passed');
    expect(passes).toEqual([
      { type: 'Passed', seat: 'p1', auto: true, stalled: true },
      { type: 'Passed', seat: 'p2', auto: true, stalled: true },
    ]);
    expect(state.result).toEqual({ reason: 'stalemate', winner: 'p1', scores: { p1: 1, p2: 0 } });
  });

  it('R-END-5: a pass with cards left in the deck is not stalled, so the game goes on', () => {
    const { state, events } = start({ config: { stalemateTurns: 2 }, decks: { p1: [], p2: ['filler'] } });
    expect(events).toContainEqual({ type: 'Passed', seat: 'p1', auto: true, stalled: true });
    expect(state.result).toBeNull();
    expect(decision(state)).toEqual({ kind: 'play', seat: 'p2' });
  });

  it('R-END-5: the safeguard counts consecutive stalled passes only (default 6)', () => {
    const { state, events } = start({ decks: { p1: [], p2: [] } });
    expect(events.filter((e) => e.type === 'Passed')).toHaveLength(6);
    expect(state.result).toMatchObject({ reason: 'stalemate', winner: null });
  });
});
