/**
 * The Activation Sequence (R-ACT-1..9): ability phases, conflicts (R-CONF) and flips (R-FLIP),
 * for the frame on top of the chain stack.
 */
import { cellOf } from './locate.js';
import { cellName, isMainZone } from './board.js';
import { resolverOf, type AbilityContext, type AbilityOption } from './abilities/index.js';
import { destroyAt } from './abilities/effects.js';
import { arrowsOnBoard, pointedCells, pointsAt, reach, type BoardArrow } from './geometry.js';
import type { Frame, GameState } from './state.js';
import { attackOf, currentDef, defOf } from './stats.js';
import type { Tx } from './tx.js';

/** A frame's card can go on only while it is on the board, face-up, facing the active player. */
export function frameCell(s: GameState, f: Frame): number {
  const i = cellOf(s, f.card);
  if (i < 0) return -1;
  const bc = s.board[i]!;
  return bc.covered || bc.facing !== s.active ? -1 : i;
}

export function abilityContext(s: GameState, f: Frame, cell: number, arrow: number): AbilityContext | null {
  const a = arrowsOnBoard(s, cell).find((x) => x.index === arrow);
  if (!a || a.arrow.type === 'Normal' || f.used.includes(arrow)) return null;
  return contextOf(s, f, cell, a);
}

function contextOf(s: GameState, f: Frame, cell: number, a: BoardArrow): AbilityContext {
  return {
    s,
    frame: f,
    cell,
    card: f.card,
    arrow: a.index,
    dir: a.dir,
    reach: reach(s.board, cell, a.dir, s.config.arrowReach),
    seat: s.active,
  };
}

export interface AbilityChoice {
  arrow: number;
  option: AbilityOption;
}

/** Every legal use of the frame's unused ability arrows right now (R-ACT-6/7); `any` stops at the first arrow that has one. */
export function abilityChoices(s: GameState, f: Frame, cell: number, any = false): AbilityChoice[] {
  const out: AbilityChoice[] = [];
  for (const a of arrowsOnBoard(s, cell)) {
    if (a.arrow.type === 'Normal' || f.used.includes(a.index)) continue;
    for (const option of resolverOf(a.arrow.type).options(contextOf(s, f, cell, a))) out.push({ arrow: a.index, option });
    if (any && out.length) return out;
  }
  return out;
}

export function useAbility(tx: Tx, f: Frame, cell: number, choice: AbilityChoice): void {
  // The board's arrows listed once (abilityContext, then the arrow's type, each listed them).
  const a = arrowsOnBoard(tx.s, cell).find((x) => x.index === choice.arrow)!;
  const ctx = (a.arrow.type === 'Normal' || f.used.includes(choice.arrow) ? null : contextOf(tx.s, f, cell, a))!;
  const type = a.arrow.type;
  if (type === 'Normal') throw new Error('a Normal arrow has no ability');
  tx.emit({ type: 'AbilityUsed', card: f.card, arrow: choice.arrow, ability: type, target: cellName(choice.option.target) });
  resolverOf(type).resolve(tx, ctx, choice.option);
}

function isMonster(s: GameState, cardId: string): boolean {
  return defOf(s, cardId).kind === 'monster';
}

/** R-CONF-1/13/15, R-ACT-8: opponent face-up monsters in the main zone whose arrows point back. */
export function defenders(s: GameState, cell: number): string[] {
  if (!isMainZone(cell)) return [];
  const out: string[] = [];
  for (const h of pointedCells(s, cell)) {
    const bc = s.board[h]!;
    if (!isMainZone(h) || bc.covered || bc.facing === s.active || !isMonster(s, bc.id)) continue;
    if (pointsAt(s, h, cell)) out.push(bc.id);
  }
  return out;
}

/** R-CONF-5..9: simultaneous damage; destroyed at DEF ≤ 0; the attacker's death ends its sequence. */
export function resolveConflict(tx: Tx, f: Frame, defender: string): void {
  const s = tx.s;
  const a = cellOf(s, f.card);
  const d = cellOf(s, defender);
  const toAttacker = attackOf(s, d);
  const toDefender = attackOf(s, a);
  tx.emit({
    type: 'ConflictResolved',
    attacker: f.card,
    defender,
    attackerDamage: toAttacker,
    defenderDamage: toDefender,
    attackerDef: currentDef(s, a) - toAttacker,
    defenderDef: currentDef(s, d) - toDefender,
  });
  if (currentDef(s, d) <= 0) destroyAt(tx, d, 'conflict');
  if (currentDef(s, a) <= 0) {
    destroyAt(tx, a, 'conflict');
    tx.emit({ type: 'ActivationEnded', card: f.card, reason: 'destroyed' });
  }
}

/**
 * R-FLIP-1..12: every opponent card an arrow points at and that is not defending is flipped;
 * targets are fixed at the start of the step (R-ACT-8). Standard covered cards follow
 * `coveredHitByArrow` (OQ-4); Growth-placed, Block and out-zone cards are left alone.
 * A flipped card that was moved this turn reactivates (R-ACT-11b).
 */
export function flipStep(tx: Tx, f: Frame, cell: number): void {
  const s = tx.s;
  const seat = s.active;
  const targets = isMainZone(cell) ? pointedCells(s, cell) : [];
  const plan: { cell: number; action: 'flip' | 'destroy' | 'flip-covered' }[] = [];
  for (const h of targets) {
    const bc = s.board[h]!;
    if (!isMainZone(h) || bc.facing === seat || !isMonster(s, bc.id)) continue;
    if (bc.covered) {
      if (bc.growth) continue;
      const rule = s.config.coveredHitByArrow;
      if (rule === 'DESTROY') plan.push({ cell: h, action: 'destroy' });
      else if (rule === 'FLIP_OWNERSHIP') plan.push({ cell: h, action: 'flip-covered' });
      continue;
    }
    if (!pointsAt(s, h, cell)) plan.push({ cell: h, action: 'flip' });
  }
  const reactivate: string[] = [];
  for (const p of plan) {
    const bc = s.board[p.cell];
    if (!bc) continue;
    if (p.action === 'destroy') {
      destroyAt(tx, p.cell, 'arrow');
      continue;
    }
    tx.emit({ type: 'CardFlipped', card: bc.id, cell: cellName(p.cell), to: seat, covered: bc.covered });
    if (p.action === 'flip' && bc.moved) reactivate.push(bc.id);
  }
  if (reactivate.length) tx.emit({ type: 'TriggersQueued', cards: reactivate });
  tx.emit({ type: 'PhaseStarted', card: f.card, phase: 'ability2' });
}
