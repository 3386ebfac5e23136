/**
 * Cell Bonus (R-BONUS-1..4, OQ-22): a row or column of the main zone completed at step 6 may
 * earn a bonus, but none of the 6 options is sourced. This is the hook where they will go; with
 * `cellBonus = 'DISABLED'` (the only value until the options are known) it does nothing.
 */
import { colOf, isMainZone, rowOf, MAIN_ZONE } from './board.js';
import type { GameEvent } from './events.js';
import type { GameState, Seat } from './state.js';

export interface Line {
  kind: 'row' | 'column';
  index: number;
  cells: number[];
}

// The main-zone cells of each row and column, computed once: asked after every play.
const ROWS = new Map<number, number[]>();
const COLUMNS = new Map<number, number[]>();
for (const i of MAIN_ZONE) {
  ROWS.set(rowOf(i), [...(ROWS.get(rowOf(i)) ?? []), i]);
  COLUMNS.set(colOf(i), [...(COLUMNS.get(colOf(i)) ?? []), i]);
}
const NO_LINES: readonly Line[] = [];

/** Main-zone rows and columns through `cell` that are now full. */
export function completedLines(s: GameState, cell: number): readonly Line[] {
  if (!isMainZone(cell)) return NO_LINES;
  const row = ROWS.get(rowOf(cell))!;
  const col = COLUMNS.get(colOf(cell))!;
  const rowFull = row.every((i) => s.board[i]);
  const colFull = col.every((i) => s.board[i]);
  if (!rowFull && !colFull) return NO_LINES;
  const out: Line[] = [];
  if (rowFull) out.push({ kind: 'row', index: rowOf(cell), cells: [...row] });
  if (colFull) out.push({ kind: 'column', index: colOf(cell), cells: [...col] });
  return out;
}

/** The hook of R-BONUS-4: the events a completed line produces. None while the system is disabled. */
export function onLineCompleted(s: GameState, _player: Seat, _line: Line, _placedCard: string): GameEvent[] {
  switch (s.config.cellBonus) {
    case 'DISABLED':
      return [];
  }
}
