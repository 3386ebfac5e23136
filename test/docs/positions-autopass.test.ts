/**
 * docs/positions.md warns that a seat with nothing to do passes by itself, so a sandbox position
 * with empty hands and decks races through turns and ends by the stalemate safeguard as soon as
 * it is loaded. This is the example of that warning, played by the engine.
 */
import { describe, expect, it } from 'vitest';
import { createFromPosition, defaultCardSet } from '../../src/games/evons/index.js';
import { read } from './rule-ids.js';

describe('docs/positions.md: a seat with nothing to do passes by itself', () => {
  it('says so', () => {
    expect(read('docs/positions.md')).toContain('A seat with nothing to do passes by itself');
  });

  it('a position with empty hands and decks passes automatically, turn after turn, to a stalemate', () => {
    const position = {
      format: 'evons-position/1',
      cardSetId: 'set00-placeholder',
      first: 'p1',
      turn: 3,
      active: 'p1',
      step: 'play',
      credits: { p1: 50, p2: 50 },
      cards: { a1: { def: 'moss-hare', owner: 'p1' }, b1: { def: 'moss-hare', owner: 'p2' } },
      board: { D3: { id: 'a1', facing: 'p1' }, B3: { id: 'b1', facing: 'p2' } },
      hands: { p1: [], p2: [] },
      decks: { p1: [], p2: [] },
      graveyards: { p1: [], p2: [] },
      removed: [],
    };
    const r = createFromPosition(defaultCardSet(), position, 'docs-autopass');
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const passes = r.events.filter((e) => e.type === 'Passed');
    expect(passes.length).toBeGreaterThanOrEqual(2);
    expect(passes.every((e) => (e as { auto?: boolean }).auto === true)).toBe(true);
    expect(new Set(passes.map((e) => (e as { seat: string }).seat))).toEqual(new Set(['p1', 'p2']));
    expect(r.events.find((e) => e.type === 'GameEnded')).toMatchObject({ reason: 'stalemate' });
  });
});
