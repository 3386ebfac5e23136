/** A draft copy for one apply: small mutable parts copied, the rest shared until changed (core/copy-on-write.ts). */
import { shareInstances } from '../../core/card-instances.js';
import type { Frame, GameState } from './state.js';

/** A frame's copy: its lists are changed in place by evolve. */
function cloneFrame(f: Frame): Frame {
  return {
    card: f.card,
    kind: f.kind,
    phase: f.phase,
    used: f.used.slice(),
    revivedCost: f.revivedCost,
    conflicts: f.conflicts ? f.conflicts.slice() : null,
    triggers: f.triggers.slice(),
  };
}

export function cloneState(s: GameState): GameState {
  // Field by field (not a spread): this runs once per action and is on the benchmark's hot path.
  // The board's cards and the card lists are shared, copied by evolve when changed (core/copy-on-write.ts).
  const copy: Omit<GameState, 'cards'> = {
    cardSet: s.cardSet,
    config: s.config,
    seed: s.seed,
    seedCommitment: s.seedCommitment,
    rng: s.rng,
    deckLists: s.deckLists,
    first: s.first,
    board: s.board.slice(),
    decks: { p1: s.decks.p1, p2: s.decks.p2 },
    hands: { p1: s.hands.p1, p2: s.hands.p2 },
    graveyards: { p1: s.graveyards.p1, p2: s.graveyards.p2 },
    removed: s.removed,
    credits: { p1: s.credits.p1, p2: s.credits.p2 },
    turn: s.turn,
    active: s.active,
    step: s.step,
    revealDue: s.revealDue.slice(),
    played: s.played,
    stack: s.stack.length === 0 ? [] : s.stack.map(cloneFrame),
    stalled: s.stalled,
    turnAbilities: s.turnAbilities,
    result: s.result
      ? { reason: s.result.reason, winner: s.result.winner, scores: { p1: s.result.scores.p1, p2: s.result.scores.p2 } }
      : null,
  };
  return shareInstances(s, copy);
}
