/**
 * describeAction names only what the asking viewer may know (hidden information). Rule IDs:
 * R-FACE-12 (coveredHitByArrow = FLIP_OWNERSHIP: an arrow turns an opponent's covered card to the
 * arrow's controller, still covered), R-FACE-1/3/5 (a covered card's identity is its owner's
 * alone; the controller reveals due cards at step 3, choosing the order when several are due).
 */
import { describe, expect, it } from 'vitest';
import { actionDescriber, apply, describeAction, legalActions, pendingDecision } from '../../../src/games/evons/index.js';
import { build, card, cardView } from './helpers.js';

/** P1 controls two covered cards due at step 3: its own Brute (C3) and P2's Reaper (D3), flipped to P1. */
function flipped() {
  return build({
    config: { coveredHitByArrow: 'FLIP_OWNERSHIP' },
    step: 'reveal',
    board: {
      C3: card('p1', 'brute', { id: 'own1', covered: true }),
      D3: card('p1', 'reaper', { id: 'x9k2', owner: 'p2', covered: true }),
    },
    revealDue: ['own1', 'x9k2'],
    hands: { p1: ['filler'], p2: [{ def: 'titan', id: 'h7q' }] },
  });
}

describe('describeAction under FLIP_OWNERSHIP (R-FACE-12, R-FACE-5)', () => {
  it('the controller of a flipped covered card may reveal it, but its own view does not name it', () => {
    const s = flipped();
    expect(pendingDecision(s)).toMatchObject({ kind: 'reveal-order', seat: 'p1' });
    expect(cardView(s, 'D3', 'p1')).toMatchObject({ owner: 'p2', facing: 'p1', covered: true, defId: null, name: null });
    const texts = legalActions(s, 'p1').map((a) => describeAction(s, a, 'p1'));
    expect(texts).toContain('Reveal the covered card at D3');
    expect(texts).toContain('Reveal Brute');
    expect(texts.join('\n')).not.toMatch(/Reaper/);
  });

  it('the owner and the spectator get the text their own views allow', () => {
    const s = flipped();
    const reveal = { type: 'reveal' as const, card: 'x9k2' };
    expect(describeAction(s, reveal, 'p2')).toBe('Reveal Reaper');
    expect(describeAction(s, reveal, 'spectator')).toBe('Reveal the covered card at D3');
    expect(describeAction(s, { type: 'reveal', card: 'own1' }, 'p2')).toBe('Reveal the covered card at C3');
    // Hand cards of the other seat are not on the board: no name, no place.
    expect(describeAction(s, { type: 'discard', card: 'h7q' }, 'p1')).toBe('Discard a hidden card');
  });

  it('once revealed (R-FACE-3), the card is public and named for everyone', () => {
    const s = flipped();
    const r = apply(s, 'p1', { type: 'reveal', card: 'x9k2' });
    if (!r.ok) throw new Error(r.error.message);
    expect(cardView(r.state, 'D3', 'p1')).toMatchObject({ covered: false, name: 'Reaper' });
    expect(actionDescriber(r.state, 'spectator')({ type: 'conflict', defender: 'x9k2' })).toBe('Resolve the conflict with Reaper next');
  });

  it('rule errors for illegal actions name no card the actor may not see', () => {
    const s = flipped();
    const tries = [
      { type: 'reveal', card: 'h7q' },
      { type: 'play', card: 'h7q', cell: 'B2', covered: false },
      { type: 'discard', card: 'x9k2' },
      { type: 'conflict', defender: 'x9k2' },
      { type: 'activate', card: 'x9k2' },
    ];
    for (const t of tries) {
      for (const seat of ['p1', 'p2'] as const) {
        const r = apply(s, seat, t);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error.message).not.toMatch(/Reaper|reaper|Titan|titan-r|Brute|brute-r/i);
      }
    }
  });
});
