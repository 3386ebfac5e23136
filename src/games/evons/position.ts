/**
 * Positions: a documented JSON form of a game in progress (board with facing, covered flags and
 * damage; hands; decks, top first; graveyards; removed cards; credits; turn, step, chain stack).
 * Used for puzzles, tutorials, bug reports, sandbox matches and tests. See docs/positions.md.
 */
import { CELL_COUNT, cellIndex, cellName, MAIN_ZONE } from './board.js';
import type { CardSet } from './cards.js';
import type { RulesConfig } from './config.js';
import type { GameEvent } from './events.js';
import { advance } from './flow.js';
import { emptyState } from './setup.js';
import type { GameState, Seat } from './state.js';
import { openTx } from './tx.js';
import { ENGINE_VERSION, rulesHash } from './version.js';
import { sha256Hex } from '../../core/hash.js';
import { PositionSchema, type Position } from './position-format.js';
import { issueLines } from '../../core/issues.js';

export { PositionSchema, type PositionData, type Position } from './position-format.js';

export type PositionResult = { ok: true; state: GameState } | { ok: false; errors: string[] };

/**
 * Validates a position (schema and consistency: every card in exactly one place) and builds the
 * state. `stored`: the position of a stored PositionLoaded, which keeps the config it was created
 * with (a setting added since, absent there, must not take today's default).
 */
export function stateFromPosition(input: unknown, cardSet: CardSet, seed: string, opts: { stored?: boolean } = {}): PositionResult {
  const parsed = PositionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: issueLines(parsed.error.issues) };
  const p = parsed.data;
  const errors: string[] = [];
  if (p.cardSetId !== cardSet.id) errors.push(`cardSetId: position is for ${p.cardSetId}, not ${cardSet.id}`);
  for (const [id, c] of Object.entries(p.cards)) if (!cardSet.byId.has(c.def)) errors.push(`cards.${id}: unknown card ${c.def}`);
  const seen = new Map<string, string>();
  const see = (id: string, where: string) => {
    if (!p.cards[id]) errors.push(`${where}: ${id} is not in cards`);
    const prev = seen.get(id);
    if (prev) errors.push(`${where}: ${id} is also in ${prev}`);
    seen.set(id, where);
  };
  for (const [cell, bc] of Object.entries(p.board)) {
    see(bc.id, `board.${cell}`);
    const def = cardSet.byId.get(p.cards[bc.id]?.def ?? '');
    if (def?.kind === 'block' && bc.covered) errors.push(`board.${cell}: Block cards are never covered`);
    if (bc.growth && !bc.covered) errors.push(`board.${cell}: a Growth-placed card is covered`);
  }
  for (const s of ['p1', 'p2'] as const) {
    p.decks[s].forEach((id) => see(id, `decks.${s}`));
    p.hands[s].forEach((id) => see(id, `hands.${s}`));
    p.graveyards[s].forEach((id) => {
      see(id, `graveyards.${s}`);
      if (p.cards[id] && p.cards[id].owner !== s) errors.push(`graveyards.${s}: ${id} belongs to ${p.cards[id].owner} (R-GY-2)`);
    });
  }
  p.removed.forEach((id) => see(id, 'removed'));
  for (const id of Object.keys(p.cards)) if (!seen.has(id)) errors.push(`cards.${id}: not in any zone`);
  const onBoard = new Set(Object.values(p.board).map((b) => b.id));
  for (const id of [...p.revealDue, ...p.stack.flatMap((f) => [f.card, ...f.triggers])]) {
    if (!onBoard.has(id)) errors.push(`${id}: listed in revealDue/triggers/stack but not on the board`);
  }
  if (p.step !== 'setup' && p.turn < 1) errors.push('turn: must be at least 1 once the game has started');
  if (MAIN_ZONE.every((i) => p.board[cellName(i)])) errors.push('board: the main zone is full, so the game is already over (R-END-1)');
  if (errors.length) return { ok: false, errors };

  const config = opts.stored ? ((input as { config?: RulesConfig }).config ?? p.config) : p.config;
  const s = emptyState(cardSet, config, seed, new Map(Object.entries(p.cards)), p.first, null, null);
  for (const [cell, bc] of Object.entries(p.board)) s.board[cellIndex(cell)!] = { ...bc };
  s.decks = { p1: [...p.decks.p1], p2: [...p.decks.p2] };
  s.hands = { p1: [...p.hands.p1], p2: [...p.hands.p2] };
  s.graveyards = { p1: [...p.graveyards.p1], p2: [...p.graveyards.p2] };
  s.removed = [...p.removed];
  s.credits = { ...p.credits };
  s.turn = p.turn;
  s.active = p.active;
  s.step = p.step;
  s.revealDue = [...p.revealDue];
  s.played = p.played;
  s.stack = p.stack.map((f) => ({ ...f, used: [...f.used], conflicts: f.conflicts ? [...f.conflicts] : null, triggers: [...f.triggers] }));
  s.stalled = p.stalled;
  return { ok: true, state: s };
}

/** The position of a running game (the card set is referenced by id; the seed is not included). */
export function toPosition(s: GameState): Position {
  const board: Position['board'] = {};
  for (let i = 0; i < CELL_COUNT; i++) {
    const bc = s.board[i];
    if (bc) board[cellName(i)] = { ...bc };
  }
  const copy = (r: Record<Seat, string[]>) => ({ p1: [...r.p1], p2: [...r.p2] });
  return {
    format: 'evons-position/1',
    cardSetId: s.cardSet.id,
    config: { ...s.config },
    first: s.first,
    turn: s.turn,
    active: s.active,
    step: s.step === 'over' ? 'end' : s.step,
    credits: { ...s.credits },
    cards: Object.fromEntries(Object.entries(s.cards).map(([id, c]) => [id, { ...c }])),
    board,
    decks: copy(s.decks),
    hands: copy(s.hands),
    graveyards: copy(s.graveyards),
    removed: [...s.removed],
    revealDue: [...s.revealDue],
    played: s.played,
    stack: s.stack.map((f) => ({ ...f, used: [...f.used], conflicts: f.conflicts ? [...f.conflicts] : null, triggers: [...f.triggers] })),
    stalled: s.stalled,
  };
}

/** A sandbox match from a position: PositionLoaded, then the automatic steps to the first decision. */
export function createFromPosition(
  cardSet: CardSet,
  position: unknown,
  seed: string,
): { ok: true; state: GameState; events: GameEvent[] } | { ok: false; errors: string[] } {
  const r = stateFromPosition(position, cardSet, seed);
  if (!r.ok) return r;
  const first: GameEvent = {
    type: 'PositionLoaded',
    engineVersion: ENGINE_VERSION,
    rulesHash: rulesHash(r.state.config, cardSet),
    cardSetId: cardSet.id,
    cardSetHash: cardSet.hash,
    seed,
    seedCommitment: sha256Hex(seed),
    position: PositionSchema.parse(position),
  };
  const tx = openTx(r.state, undefined); // a new state: all its own
  tx.events.push(first);
  advance(tx);
  return { ok: true, state: r.state, events: tx.events };
}
