/**
 * What each costly operation costs, in work units: one unit is about one millisecond of server
 * CPU on the reference machine (2 shared cores). Each operation is charged by the work it does —
 * events replayed, events or rows read, pixels drawn, matches dealt, a computer's search — at the
 * rates below, before it runs, against its caller's work budgets (src/http/budgets.ts). Cheap
 * reads (a match view, a move) are not charged here: the request budgets count them.
 *
 * The rates come from `npm run bench:costs`, which times every operation at a few sizes and
 * prints the measured cost per unit of work beside the rate charged (docs/api.md, "Work
 * budgets"). A rate is rounded up, never down.
 */

/** Units per unit of work, by what the work is. */
export const WORK_RATES = {
  /** An event replayed through the rules (time travel from the nearest checkpoint), its row read. */
  replayEvent: 0.08,
  /** An event put into a replay file (a match export, one file of a player's export). */
  exportEvent: 0.5,
  /** An event read from the log and redacted for the caller (an event page). */
  eventRead: 0.07,
  /** A million pixels of PNG drawn (an uncached board.png; the width squared, the board is square). */
  pngMegapixel: 300,
  /** A standings row sent (a page of the standings, the tournament page), its tournament loaded. */
  standingsRow: 0.2,
  /** A player or a board of a whole tournament view (GET /v1/tournaments/{id}, GraphQL tournament), serialised. */
  tournamentViewRow: 0.01,
  /** A cell of the standings CSV (a player's row times the rounds). */
  standingsCsvCell: 0.03,
  /** A match dealt and created by a bulk pairing. */
  bulkPairingMatch: 12,
  /** A KiB of a GraphQL document over 8 KiB, parsed and validated. */
  documentKiB: 1,
  /** A match of a new `myTurn` subscriber's first window: loaded, its view built and sent (the socket's opening shared out). */
  turnWindowMatch: 9,
} as const;

/** CPU of one decision of the computer at each level (Evons' median, the slower game; bench:ai), plus building its job. */
export const AI_DECISION_UNITS: Readonly<Record<number, number>> = { 1: 2, 2: 2, 3: 2, 4: 3, 5: 12, 6: 25, 7: 55, 8: 130 };

/** Every charged operation costs at least this much. */
const MIN_UNITS = 1;

const units = (rate: number, n: number): number => Math.max(MIN_UNITS, Math.ceil(rate * Math.max(0, n)));

/** The cost of each costly operation, from the size of its work. */
export const workCost = {
  /** Reading the match as of an event: `events` replayed from the nearest checkpoint. */
  timeTravel: (events: number) => units(WORK_RATES.replayEvent, events),
  /** A match's replay file not in the cache: its events replayed and written. */
  export: (events: number) => units(WORK_RATES.exportEvent, events),
  /** A page of at most `limit` events after `after` of a match at `version` (the most it may hold: charged before it is read). */
  eventPage: (limit: number, after: number, version: number) => units(WORK_RATES.eventRead, Math.min(limit, Math.max(0, version - after))),
  /** An uncached PNG `width` pixels wide. */
  png: (width: number) => units(WORK_RATES.pngMegapixel, (width * width) / 1e6),
  /** A page of `rows` standings rows (or of the tournament page's tables). */
  standings: (rows: number) => units(WORK_RATES.standingsRow, rows),
  /** A whole tournament view: its players and every round's boards. */
  tournamentView: (view: { players: readonly unknown[]; pairings: readonly { boards: readonly unknown[] }[] }) =>
    units(WORK_RATES.tournamentViewRow, view.players.length + view.pairings.reduce((n, r) => n + r.boards.length, 0)),
  /** The standings CSV of `players` players over `rounds` rounds. */
  standingsCsv: (players: number, rounds: number) => units(WORK_RATES.standingsCsvCell, players * Math.max(1, rounds)),
  /** A bulk pairing of `matches` matches. */
  bulkPairing: (matches: number) => units(WORK_RATES.bulkPairingMatch, matches),
  /** A GraphQL document of `chars` characters (charged past 8 KiB only). */
  document: (chars: number) => units(WORK_RATES.documentKiB, chars / 1024),
  /** A `myTurn` subscription's first look: at most `matches` matches sent (charged for the window's size before it is read). */
  turnWindow: (matches: number) => units(WORK_RATES.turnWindowMatch, matches),
  /** One decision of the computer at `level`. */
  aiDecision: (level: number) => AI_DECISION_UNITS[level] ?? AI_DECISION_UNITS[8]!,
};

/** A function a costly operation calls with its cost before it runs; it throws rate-limited over budget. */
export type ChargeWork = (units: number) => void;

/** Charges nothing (internal callers, tests). */
export const FREE: ChargeWork = () => {};
