/** A draft copy for one apply: mutable parts copied, the card set and card table shared. */
import type { GameState } from './state.js';

export function cloneState(s: GameState): GameState {
  return {
    ...s,
    board: s.board.map((b) => (b ? { ...b } : null)),
    decks: { p1: [...s.decks.p1], p2: [...s.decks.p2] },
    hands: { p1: [...s.hands.p1], p2: [...s.hands.p2] },
    graveyards: { p1: [...s.graveyards.p1], p2: [...s.graveyards.p2] },
    removed: [...s.removed],
    credits: { ...s.credits },
    revealDue: [...s.revealDue],
    stack: s.stack.map((f) => ({ ...f, used: [...f.used], conflicts: f.conflicts ? [...f.conflicts] : null })),
    triggers: [...s.triggers],
    result: s.result ? { ...s.result, scores: { ...s.result.scores } } : null,
  };
}
