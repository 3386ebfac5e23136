/**
 * Arrows on the board: board directions from facing (R-ARROW-3, R-BOARD-9) and reach
 * (R-ARROW-5..7, OQ-2): LINE scans to the first occupied cell, ADJACENT looks one cell only.
 */
import { instanceOf } from '../../core/card-instances.js';
import { opposite, step, stepsToward, type Direction } from './board.js';
import type { Arrow, MonsterDef } from './cards.js';
import type { BoardCard, GameState, Seat } from './state.js';

/** A card facing the first player shows its printed up toward row 0; the other seat's is turned 180°. */
export function boardDirection(dir: Direction, facing: Seat, first: Seat): Direction {
  return facing === first ? dir : opposite(dir);
}

export interface Reach {
  /** Empty cells the arrow passes over, nearest first (targets for placement abilities). */
  passed: number[];
  /** The first occupied cell: what the arrow points at. */
  hit: number | null;
}

export function reach(board: readonly (BoardCard | null)[], from: number, dir: Direction, mode: 'LINE' | 'ADJACENT'): Reach {
  const passed: number[] = [];
  // After the first step every cell is on the grid: its neighbours come from the table.
  const steps = stepsToward(dir);
  let cur = step(from, dir);
  while (cur !== null) {
    if (board[cur]) return { passed, hit: cur };
    passed.push(cur);
    if (mode === 'ADJACENT') break;
    cur = steps[cur]!;
  }
  return { passed, hit: null };
}

/** `reach(...).hit` without building the list of passed cells: what an arrow points at. */
export function hitOf(board: readonly (BoardCard | null)[], from: number, dir: Direction, mode: 'LINE' | 'ADJACENT'): number | null {
  const steps = stepsToward(dir);
  let cur = step(from, dir);
  while (cur !== null) {
    if (board[cur]) return cur;
    if (mode === 'ADJACENT') return null;
    cur = steps[cur]!;
  }
  return null;
}

/** One printed arrow of a card on the board: its index on the card and its board direction. */
export interface BoardArrow {
  readonly index: number;
  readonly arrow: Arrow;
  readonly dir: Direction;
}

const NO_ARROWS: readonly BoardArrow[] = [];

/**
 * A monster's arrows turned to the board, [facing the first player, facing the other], built
 * once per card definition: these lists are read several times for every decision.
 */
const TURNED = new WeakMap<MonsterDef, readonly [readonly BoardArrow[], readonly BoardArrow[]]>();

function turnedArrows(def: MonsterDef, facesFirst: boolean): readonly BoardArrow[] {
  let both = TURNED.get(def);
  if (!both) {
    const turn = (asFirst: boolean): readonly BoardArrow[] =>
      def.arrows.map((arrow, index) => ({ index, arrow, dir: asFirst ? arrow.dir : opposite(arrow.dir) }));
    both = [turn(true), turn(false)];
    TURNED.set(def, both);
  }
  return facesFirst ? both[0] : both[1];
}

/** The arrows of the monster on `cell`, turned to the board (empty for covered cards, R-FACE-11). Shared: do not modify. */
export function arrowsOnBoard(s: GameState, cell: number): readonly BoardArrow[] {
  const bc = s.board[cell];
  if (!bc || bc.covered) return NO_ARROWS;
  const def = s.cardSet.byId.get(instanceOf(s, bc.id)!.def);
  if (!def || def.kind !== 'monster') return NO_ARROWS;
  return turnedArrows(def, bc.facing === s.first);
}

/** The cell each arrow of the card on `cell` points at (R-ARROW-5). */
export function pointedCells(s: GameState, cell: number): number[] {
  const out: number[] = [];
  for (const a of arrowsOnBoard(s, cell)) {
    const hit = hitOf(s.board, cell, a.dir, s.config.arrowReach);
    if (hit !== null) out.push(hit);
  }
  return out;
}

/** True when a card on `from` has an arrow pointing at `to`. */
export function pointsAt(s: GameState, from: number, to: number): boolean {
  for (const a of arrowsOnBoard(s, from)) {
    if (hitOf(s.board, from, a.dir, s.config.arrowReach) === to) return true;
  }
  return false;
}
