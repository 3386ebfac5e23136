/** §2 Board, §5 Arrows (directions, reach), §16 Out zone. */
import { describe, expect, it } from 'vitest';
import { CELL_NAMES, cellIndex } from '../../../src/games/evons/board.js';
import { act, at, build, card, cardView, hid, legal, playUp, scoreOf, start, types, eventsOf, activating, fillMain } from './helpers.js';

describe('board geometry and facing', () => {
  it('R-BOARD-2 R-BOARD-3: cell names are a column letter X A-E Y and a row 0-6; nothing else names a cell', () => {
    CELL_NAMES.forEach((name, i) => expect(cellIndex(name)).toBe(i));
    expect(cellIndex('X0')).toBe(0);
    expect(cellIndex('C3')).toBe(24);
    expect(cellIndex('Y6')).toBe(48);
    for (const bad of ['', 'C', 'C33', 'C7', 'Z3', 'c3', 'C/', 'Ā3', '3C', ' C3', 'C-1']) expect(cellIndex(bad), bad).toBeUndefined();
    expect(cellIndex(null as unknown as string)).toBeUndefined();
  });

  it('R-BOARD-9 R-ARROW-3: a printed N arrow points to row 0 for the first player, to row 6 for the second', () => {
    const s = build({ board: { C3: card('p1', 'north'), D3: card('p2', 'north', { raw: true }) }, hands: { p1: ['filler'] } });
    expect(cardView(s, 'C3')?.boardArrows).toEqual([{ dir: 'N', type: 'Normal' }]);
    expect(cardView(s, 'D3')?.boardArrows).toEqual([{ dir: 'S', type: 'Normal' }]);
  });

  it('R-BOARD-9: with p2 as first player, p2-facing cards show printed directions and p1-facing cards are turned', () => {
    const s = build({
      first: 'p2',
      board: { C3: card('p2', 'north', { raw: true }), D3: card('p1', 'north', { raw: true }) },
      hands: { p2: ['filler'] },
    });
    expect(s.first).toBe('p2');
    expect(cardView(s, 'C3')?.boardArrows).toEqual([{ dir: 'N', type: 'Normal' }]);
    expect(cardView(s, 'D3')?.boardArrows).toEqual([{ dir: 'S', type: 'Normal' }]);
  });

  it('R-CARD-7 R-ARROW-5 (OQ-1): a diagonal NE arrow flips the card on the diagonal neighbour', () => {
    const s = build({ board: { D2: card('p2', 'f'), D3: card('p2', 'wisp') }, hands: { p1: ['diag'] } });
    const r = act(s, 'p1', playUp(hid('diag', 'p1'), 'C3'));
    expect(eventsOf(r.events, 'CardFlipped').map((e) => e.cell)).toEqual(['D2']);
    expect(at(r.state, 'D3')).toMatchObject({ facing: 'p2' });
  });

  it('R-CARD-7: a card with arrows in all 8 directions flips its 8 neighbours (none defend)', () => {
    const around = ['B2', 'C2', 'D2', 'B3', 'D3', 'B4', 'C4', 'D4'];
    const board = Object.fromEntries(around.map((c) => [c, card('p2', 'f')]));
    const s = build({ board, hands: { p1: ['star'] } });
    const r = act(s, 'p1', playUp(hid('star', 'p1'), 'C3'));
    expect(
      eventsOf(r.events, 'CardFlipped')
        .map((e) => e.cell)
        .sort(),
    ).toEqual([...around].sort());
    expect(scoreOf(r.state)).toEqual({ p1: 9, p2: 0 });
  });

  it('R-ARROW-5 (LINE): a diagonal arrow scans along the diagonal to the first card', () => {
    const s = build({ board: { E1: card('p2', 'f') }, hands: { p1: ['diag'] } });
    const r = act(s, 'p1', playUp(hid('diag', 'p1'), 'C3'));
    expect(r.events).toContainEqual({ type: 'CardFlipped', card: 'f@E1', cell: 'E1', to: 'p1', covered: false });
  });

  it('R-ARROW-5 (ADJACENT): the same diagonal arrow only concerns D2, so E1 is not flipped', () => {
    const s = build({ config: { arrowReach: 'ADJACENT' }, board: { E1: card('p2', 'f') }, hands: { p1: ['diag'] } });
    const r = act(s, 'p1', playUp(hid('diag', 'p1'), 'C3'));
    expect(types(r.events)).not.toContain('CardFlipped');
  });

  it('R-ARROW-5 R-CONF-1 (LINE): a conflict happens across empty cells; under ADJACENT there is neither conflict nor flip', () => {
    const spec = { board: { E3: card('p2', 'west') }, hands: { p1: ['east'] } };
    const line = act(build(spec), 'p1', playUp(hid('east', 'p1'), 'B3'));
    expect(eventsOf(line.events, 'ConflictResolved')).toHaveLength(1);
    expect(eventsOf(line.events, 'ConflictResolved')[0]).toMatchObject({ defender: 'west@E3' });
    const adj = act(build({ ...spec, config: { arrowReach: 'ADJACENT' } }), 'p1', playUp(hid('east', 'p1'), 'B3'));
    expect(types(adj.events)).not.toContain('ConflictResolved');
    expect(types(adj.events)).not.toContain('CardFlipped');
  });

  it('R-ARROW-7: an own card in the line shields the opponent card behind it', () => {
    const s = build({ board: { C3: card('p1', 'pebble'), D3: card('p2', 'f') }, hands: { p1: ['east'] } });
    const r = act(s, 'p1', playUp(hid('east', 'p1'), 'B3'));
    expect(types(r.events)).not.toContain('CardFlipped');
    expect(at(r.state, 'D3')).toMatchObject({ facing: 'p2' });
  });

  it('R-ARROW-4 R-BLOCK-5/6 R-FLIP-9: a Block card stops the line; neither it nor the card behind is flipped', () => {
    const s = build({ board: { C3: card('p2', 'block-water'), D3: card('p2', 'f') }, hands: { p1: ['east'] } });
    const r = act(s, 'p1', playUp(hid('east', 'p1'), 'B3'));
    expect(types(r.events)).not.toContain('CardFlipped');
    expect(types(r.events)).not.toContain('ConflictResolved');
    expect(at(r.state, 'C3')).toMatchObject({ facing: 'p2' });
    expect(at(r.state, 'D3')).toMatchObject({ facing: 'p2' });
  });

  it("R-ARROW-4: a Block card between two cards prevents a conflict (the defender's arrow is blocked too)", () => {
    const s = build({ board: { C3: card('p1', 'block-fire'), D3: card('p2', 'west') }, hands: { p1: ['east'] } });
    const r = act(s, 'p1', playUp(hid('east', 'p1'), 'B3'));
    expect(types(r.events)).not.toContain('ConflictResolved');
  });

  it('R-PLAY-2/3 R-BOARD-6: legal plays cover every empty cell of both zones and never an occupied one', () => {
    const s = build({ board: { C3: card('p2', 'f'), X0: card('p2', 'wisp') }, hands: { p1: ['filler'] } });
    const cells = new Set(legal(s).flatMap((a) => (a.type === 'play' ? [a.cell] : [])));
    expect(cells.size).toBe(47);
    expect(cells.has('Y6')).toBe(true);
    expect(cells.has('A0')).toBe(true);
    expect(cells.has('C3')).toBe(false);
    expect(cells.has('X0')).toBe(false);
  });
});

describe('out zone', () => {
  it('R-OUT-2 R-OUT-4 R-CONF-13 R-FLIP-10: a card played face-up in the out zone starts no conflict and flips nothing', () => {
    const s = build({ board: { A0: card('p2', 'west'), A1: card('p2', 'f') }, hands: { p1: ['star'] } });
    const r = act(s, 'p1', playUp(hid('star', 'p1'), 'X0'));
    expect(r.events).toContainEqual({
      type: 'CardPlayed',
      seat: 'p1',
      card: hid('star', 'p1'),
      defId: 'star',
      cell: 'X0',
      covered: false,
      paid: 1,
      total: 49,
    });
    expect(r.events).toContainEqual({ type: 'ConflictsFixed', card: hid('star', 'p1'), defenders: [] });
    expect(types(r.events)).not.toContain('ConflictResolved');
    expect(types(r.events)).not.toContain('CardFlipped');
  });

  it('R-OUT-4 R-OUT-9: a card activating in the out zone may still use abilities (Shockwave into the main zone)', () => {
    const s = activating('quake-s', 'B0', { board: { B1: card('p2', 'f') }, hands: { p1: ['filler'] } });
    expect(legal(s)).toContainEqual({ type: 'ability', arrow: 0, target: 'B1' });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'B1' });
    expect(at(r.state, 'B2')?.id).toBe('f@B1');
  });

  it('R-OUT-5 R-CONF-13 R-FLIP-10 (OQ-3): a main-zone card never conflicts with or flips an out-zone card', () => {
    const s = build({ board: { A0: card('p2', 'south'), B0: card('p2', 'f') }, hands: { p1: ['star'] } });
    const r = act(s, 'p1', playUp(hid('star', 'p1'), 'A1'));
    expect(types(r.events)).not.toContain('ConflictResolved');
    expect(types(r.events)).not.toContain('CardFlipped');
    expect(at(r.state, 'A0')).toMatchObject({ facing: 'p2' });
    expect(at(r.state, 'B0')).toMatchObject({ facing: 'p2' });
  });

  it('R-OUT-7 R-SCORE-3: out-zone face-up monsters never score', () => {
    const s = build({
      board: { X0: card('p1', 'leaf'), Y6: card('p1', 'leaf'), C3: card('p1', 'leaf'), A0: card('p2', 'leaf') },
      hands: { p1: ['filler'] },
    });
    expect(scoreOf(s)).toEqual({ p1: 1, p2: 0 });
  });

  it('R-OUT-10: out-zone cells do not count toward the full main zone', () => {
    const board = { ...fillMain(['C3']), ...Object.fromEntries(['X0', 'X1', 'Y0', 'A0', 'E6'].map((c) => [c, card('p2', 'f')])) };
    const { state } = start({ board, hands: { p1: ['filler'] } });
    expect(state.result).toBeNull();
    expect(legal(state)).toContainEqual(playUp(hid('filler', 'p1'), 'C3'));
  });
});
