/** Derived numbers: effective ATK/DEF with Color Synergy (R-SYN), scores (R-SCORE), main zone full (R-END-1). */
import { instanceOf } from '../../core/card-instances.js';
import { isMainZone, MAIN_ZONE, orthogonalNeighbours } from './board.js';
import type { MonsterDef } from './cards.js';
import type { GameState, Seat } from './state.js';

export function defOf(s: GameState, cardId: string) {
  const inst = instanceOf(s, cardId);
  if (!inst) throw new Error(`unknown card ${cardId}`);
  const def = s.cardSet.byId.get(inst.def);
  if (!def) throw new Error(`card ${inst.def} is not in card set ${s.cardSet.id}`);
  return def;
}

export function monsterOf(s: GameState, cardId: string): MonsterDef | null {
  const d = defOf(s, cardId);
  return d.kind === 'monster' ? d : null;
}

/**
 * R-SYN-2..4 [T]: +1/+1 from each orthogonally adjacent Block card of the same element whose
 * owner the monster faces, both cards in the same zone. Only face-up monsters benefit.
 */
export function synergy(s: GameState, cell: number): number {
  if (!s.config.colorSynergy) return 0;
  const bc = s.board[cell];
  if (!bc || bc.covered) return 0;
  const m = monsterOf(s, bc.id);
  if (!m) return 0;
  let bonus = 0;
  for (const n of orthogonalNeighbours(cell)) {
    const other = s.board[n];
    if (!other) continue;
    const d = defOf(s, other.id);
    if (d.kind !== 'block' || d.element !== m.element) continue;
    if (instanceOf(s, other.id)!.owner !== bc.facing) continue;
    if (isMainZone(n) !== isMainZone(cell)) continue;
    bonus += 1;
  }
  return bonus;
}

export function attackOf(s: GameState, cell: number): number {
  const bc = s.board[cell]!;
  return (monsterOf(s, bc.id)?.atk ?? 0) + synergy(s, cell);
}

/** Current DEF: printed DEF plus standing modifiers minus damage taken this turn (R-CARD-8). */
export function currentDef(s: GameState, cell: number): number {
  const bc = s.board[cell]!;
  return (monsterOf(s, bc.id)?.def ?? 0) + synergy(s, cell) - bc.damage;
}

/** R-SCORE-1..3: face-up monsters in the main zone facing each player. */
export function scores(s: GameState): Record<Seat, number> {
  const out: Record<Seat, number> = { p1: 0, p2: 0 };
  for (const i of MAIN_ZONE) {
    const bc = s.board[i];
    if (!bc || bc.covered) continue;
    if (defOf(s, bc.id).kind !== 'monster') continue;
    out[bc.facing] += 1;
  }
  return out;
}

export function mainZoneFull(s: GameState): boolean {
  for (const i of MAIN_ZONE) if (!s.board[i]) return false;
  return true;
}

/** R-END-4 (OQ-12): higher score wins, equal is a draw. */
export function winnerOf(sc: Record<Seat, number>): Seat | null {
  if (sc.p1 === sc.p2) return null;
  return sc.p1 > sc.p2 ? 'p1' : 'p2';
}
