/**
 * The 7×7 grid (R-BOARD-1..8): cell names, zones, directions and rotation.
 * Cells are numbered 0..48, row-major: index = row * 7 + col.
 */

export const SIZE = 7;
export const COLUMNS = ['X', 'A', 'B', 'C', 'D', 'E', 'Y'] as const;
export const CELL_COUNT = SIZE * SIZE;

/** A cell name such as `C3` (column letter + row number, R-BOARD-2/3). */
export type CellName = string;

export const CELL_NAMES: readonly CellName[] = Array.from({ length: CELL_COUNT }, (_, i) => `${COLUMNS[i % SIZE]}${Math.floor(i / SIZE)}`);

/** Column index by the character code of its letter (-1: no column); codes past 127 read undefined. */
const COLUMN_BY_CODE = new Int8Array(128).fill(-1);
COLUMNS.forEach((c, i) => (COLUMN_BY_CODE[c.charCodeAt(0)] = i));
const ZERO = '0'.charCodeAt(0);

/**
 * The index of a cell name, undefined for anything else. From the two character codes rather than
 * a Map: names parsed from stored events are fresh strings, and hashing each one was 4 % of replay.
 */
export function cellIndex(name: string): number | undefined {
  if (typeof name !== 'string' || name.length !== 2) return undefined;
  const col = COLUMN_BY_CODE[name.charCodeAt(0)] ?? -1;
  const row = name.charCodeAt(1) - ZERO;
  if (col < 0 || row < 0 || row >= SIZE) return undefined;
  return row * SIZE + col;
}

export function cellName(index: number): CellName {
  const name = CELL_NAMES[index];
  if (name === undefined) throw new RangeError(`no cell ${index}`);
  return name;
}

export const colOf = (i: number): number => i % SIZE;
export const rowOf = (i: number): number => Math.floor(i / SIZE);

/** R-BOARD-4: columns A–E × rows 1–5. */
export function isMainZone(i: number): boolean {
  const c = colOf(i);
  const r = rowOf(i);
  return c >= 1 && c <= 5 && r >= 1 && r <= 5;
}

export const MAIN_ZONE: readonly number[] = Array.from({ length: CELL_COUNT }, (_, i) => i).filter(isMainZone);

/** The eight directions (R-CARD-7). N on the board points toward row 0. */
export const DIRECTIONS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** A direction as a step on the board: [column delta, row delta] (row 0 is north). */
export const DELTA: Readonly<Record<Direction, readonly [number, number]>> = {
  N: [0, -1],
  NE: [1, -1],
  E: [1, 0],
  SE: [1, 1],
  S: [0, 1],
  SW: [-1, 1],
  W: [-1, 0],
  NW: [-1, -1],
};

/** Turns a direction 180° (R-ARROW-3, R-FLIP-3). */
export function opposite(d: Direction): Direction {
  return DIRECTIONS[(DIRECTIONS.indexOf(d) + 4) % 8] as Direction;
}

function computeStep(i: number, d: Direction): number | null {
  const [dc, dr] = DELTA[d];
  const c = colOf(i) + dc;
  const r = rowOf(i) + dr;
  if (c < 0 || c >= SIZE || r < 0 || r >= SIZE) return null;
  return r * SIZE + c;
}

/**
 * Every cell's neighbour per direction, computed once: arrows walk the grid on every decision. A
 * Map, not a record: a record read by a varying direction name is a megamorphic keyed load, a
 * tenth of listing ability choices; a Map reads the name's cached hash.
 */
const STEPS = new Map<Direction, readonly (number | null)[]>();
for (const d of DIRECTIONS)
  STEPS.set(
    d,
    Array.from({ length: CELL_COUNT }, (_, i) => computeStep(i, d)),
  );

/** The neighbouring cell in a direction, or null past the grid edge (R-BOARD-8). */
export function step(i: number, d: Direction): number | null {
  const n = stepsToward(d)[i];
  // Outside the grid (never asked by the engine), answer as the arithmetic would.
  return n === undefined ? computeStep(i, d) : n;
}

/**
 * Every cell's neighbour in direction `d` (null past the edge), for walks along a line: the table
 * is looked up once per walk, not per step.
 */
export function stepsToward(d: Direction): readonly (number | null)[] {
  const steps = STEPS.get(d);
  // Not a direction (never asked by the engine): computeStep fails as it always did.
  if (!steps) throw new TypeError(`not a direction: ${String(d)}`);
  return steps;
}

const ORTHOGONAL: readonly (readonly number[])[] = Array.from({ length: CELL_COUNT }, (_, i) => {
  const out: number[] = [];
  for (const d of ['N', 'E', 'S', 'W'] as const) {
    const n = step(i, d);
    if (n !== null) out.push(n);
  }
  return out;
});

/** Orthogonal neighbours (R-BOARD-7), N, E, S, W order. Computed once per cell; shared: do not modify. */
export function orthogonalNeighbours(i: number): readonly number[] {
  const near = ORTHOGONAL[i];
  if (near) return near;
  // Outside the grid (never asked by the engine): as computed before.
  const out: number[] = [];
  for (const d of ['N', 'E', 'S', 'W'] as const) {
    const n = step(i, d);
    if (n !== null) out.push(n);
  }
  return out;
}
