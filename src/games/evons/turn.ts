/** The turn's own steps (R-TURN-1): credits, draw, reveal, play or pass, discard, end. */
import { instanceOf } from '../../core/card-instances.js';
import { cellName } from './board.js';
import { completedLines, onLineCompleted } from './bonus.js';
import { monsterOf, defOf } from './stats.js';
import { other, type GameState, type Seat } from './state.js';
import { endGame, type Tx } from './tx.js';
import { cellOf } from './locate.js';

/** Steps 1–2, then the start of step 3 with the covered cards due (R-FACE-3, R-FACE-7). */
export function startOfTurn(tx: Tx): void {
  const s = tx.s;
  const seat = s.active;
  // R-CRED-2: no gain on a player's own first turn (game turns 1 and 2).
  if (s.turn > 2 && s.config.creditsPerTurn > 0) {
    tx.emit({ type: 'CreditsGained', seat, amount: s.config.creditsPerTurn, total: s.credits[seat] + s.config.creditsPerTurn });
  }
  drawCard(tx, seat);
  if (s.result) return;
  tx.emit({ type: 'StepStarted', step: 'reveal', due: revealCandidates(s) });
}

export function drawCard(tx: Tx, seat: Seat): void {
  const top = tx.s.decks[seat][0];
  if (top === undefined) {
    tx.emit({ type: 'DrawSkipped', seat });
    // R-HAND-5 (OQ-11): SKIP has no penalty; LOSE ends the game.
    if (tx.s.config.emptyDeckDraw === 'LOSE') endGame(tx, 'deck-out', other(seat));
    return;
  }
  tx.emit({ type: 'CardDrawn', seat, card: top, defId: instanceOf(tx.s, top)!.def });
}

/** Covered cards the active player controls; Growth-placed ones only with growthAutoReveal. */
export function revealCandidates(s: GameState): string[] {
  const out: string[] = [];
  for (const bc of s.board) {
    if (!bc || !bc.covered || bc.facing !== s.active) continue;
    if (bc.growth && !s.config.growthAutoReveal) continue;
    out.push(bc.id);
  }
  return out;
}

/** Still due: on the board, covered, controlled by the active player. */
export function stillDue(s: GameState, id: string): boolean {
  const i = cellOf(s, id);
  const bc = i >= 0 ? s.board[i]! : null;
  return !!bc && bc.covered && bc.facing === s.active;
}

/** R-FACE-3/4, R-CRED-6: pay the deferred cost and activate; Growth-placed cards are free. */
export function revealCard(tx: Tx, id: string): void {
  const s = tx.s;
  const seat = s.active;
  const cell = cellOf(s, id);
  const bc = s.board[cell]!;
  const cost = bc.growth ? 0 : (monsterOf(s, id)?.cost ?? 0);
  if (s.credits[seat] < cost) {
    if (s.config.unpaidCoverBehaviour === 'DESTROY') {
      const inst = instanceOf(s, id)!;
      tx.emit({ type: 'CardDestroyed', card: id, defId: inst.def, owner: inst.owner, cell: cellName(cell), cause: 'unpaid' });
    } else {
      tx.emit({ type: 'RevealDeferred', seat, card: id, cell: cellName(cell) });
    }
    return;
  }
  tx.emit({
    type: 'CardRevealed',
    seat,
    card: id,
    defId: instanceOf(s, id)!.def,
    cell: cellName(cell),
    paid: cost,
    total: s.credits[seat] - cost,
  });
  if (monsterOf(s, id)) tx.emit({ type: 'ActivationStarted', card: id, cell: cellName(cell), kind: 'activation' });
}

export function canPlayFromHand(s: GameState, id: string): boolean {
  const d = defOf(s, id);
  return d.kind === 'monster' || s.config.allowDirectBlockPlay;
}

/** Whether any play exists (the main zone is never full while the game runs, so a cell is free). */
export function hasLegalPlay(s: GameState, seat: Seat): boolean {
  // A loop, not some() with a closure: asked at every play step and pass.
  for (const id of s.hands[seat]) if (canPlayFromHand(s, id)) return true;
  return false;
}

/** Steps 4–6: place, pay (face-up now, covered later, R-CRED-4/5), activate a face-up monster. */
export function playCard(tx: Tx, id: string, cell: number, covered: boolean): void {
  const s = tx.s;
  const seat = s.active;
  const m = monsterOf(s, id);
  const paid = covered || !m ? 0 : m.cost;
  tx.emit({
    type: 'CardPlayed',
    seat,
    card: id,
    defId: instanceOf(s, id)!.def,
    cell: cellName(cell),
    covered,
    paid,
    total: s.credits[seat] - paid,
  });
  // Step 6: bonuses (a disabled hook, R-BONUS-4); synergies are standing modifiers (stats.ts).
  for (const line of completedLines(s, cell)) for (const e of onLineCompleted(s, seat, line, id)) tx.emit(e);
  if (m && !covered) tx.emit({ type: 'ActivationStarted', card: id, cell: cellName(cell), kind: 'activation' });
}

/** The pass point (R-TURN-2): steps 4–6 are skipped. Feeds the stalemate safeguard (R-END-5). */
export function pass(tx: Tx, auto: boolean): void {
  const s = tx.s;
  const seat = s.active;
  const stalled = s.decks[seat].length === 0 && !hasLegalPlay(s, seat);
  tx.emit({ type: 'Passed', seat, auto, stalled });
  if (s.stalled >= s.config.stalemateTurns) {
    endGame(tx, 'stalemate');
    return;
  }
  tx.emit({ type: 'StepStarted', step: 'discard' });
}

export function discardCount(s: GameState): number {
  return Math.max(0, s.hands[s.active].length - s.config.handLimit);
}
