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

/** Main-zone rows and columns through `cell` that are now full. */
export function completedLines(s: GameState, cell: number): Line[] {
  if (!isMainZone(cell)) return [];
  const row = MAIN_ZONE.filter((i) => rowOf(i) === rowOf(cell));
  const col = MAIN_ZONE.filter((i) => colOf(i) === colOf(cell));
  const out: Line[] = [];
  if (row.every((i) => s.board[i])) out.push({ kind: 'row', index: rowOf(cell), cells: row });
  if (col.every((i) => s.board[i])) out.push({ kind: 'column', index: colOf(cell), cells: col });
  return out;
}

/** The hook of R-BONUS-4: the events a completed line produces. None while the system is disabled. */
export function onLineCompleted(s: GameState, _player: Seat, _line: Line, _placedCard: string): GameEvent[] {
  switch (s.config.cellBonus) {
    case 'DISABLED':
      return [];
  }
}
