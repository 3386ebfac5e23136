/**
 * Test helpers for the rules suites: a fixture card set (the monsters of EXAMPLES.md), a terse
 * position builder, and assertions around `apply`.
 *
 * Arrow convention: every monster below is written with its arrows as BOARD directions for a
 * card facing the FIRST player (for whom card-relative = board). Each monster also gets a twin
 * `<id>-r` whose card-relative arrows are reversed; the builder uses the twin automatically for
 * every card that faces / belongs to the other seat, so a fixture can be written exactly as in
 * EXAMPLES.md ("P2 `B1[3/5, S(Normal)]`" → `card('p2', 'b1')` has a board-S arrow). Pass
 * `{ raw: true }` to use the printed definition instead.
 */
import { expect } from 'vitest';
import {
  apply,
  createFromPosition,
  legalActions,
  loadCardSet,
  pendingDecision,
  stateFromPosition,
  toPosition,
  view,
  type Action,
  type CardDef,
  type CardSet,
  type Decision,
  type ErrorCode,
  type GameEvent,
  type GameState,
  type PositionData,
  type RulesConfigInput,
  type Seat,
} from '../../../src/games/evons/index.js';
import { cellIndex } from '../../../src/games/evons/board.js';

type Dir = 'N' | 'NE' | 'E' | 'SE' | 'S' | 'SW' | 'W' | 'NW';
type Elem = 'Nature' | 'Earth' | 'Electric' | 'Darkness' | 'Fire' | 'Water';
type ArrowSpec = `${Dir}:${string}`;

function m(id: string, name: string, element: Elem, cost: number, atk: number, def: number, arrows: ArrowSpec[] = []): CardDef {
  return {
    id,
    kind: 'monster',
    name,
    element,
    cost,
    atk,
    def,
    arrows: arrows.map((a) => {
      const [dir, type] = a.split(':') as [Dir, string];
      return { dir, type: type as 'Normal' };
    }),
  };
}

const OPP: Record<Dir, Dir> = { N: 'S', NE: 'SW', E: 'W', SE: 'NW', S: 'N', SW: 'NE', W: 'E', NW: 'SE' };

/** Monsters, arrows as board directions when facing the first player. */
const MONSTERS: CardDef[] = [
  // EX-01 / EX-02 Magnetism
  m('volt', 'Volt', 'Electric', 3, 2, 2, ['E:Magnetism']),
  m('volt-n', 'Volt North', 'Electric', 3, 2, 2, ['N:Magnetism']),
  // EX-04 / EX-17 Resurrection
  m('night', 'Night', 'Darkness', 3, 1, 1, ['N:Resurrection']),
  m('night-s', 'Night South', 'Darkness', 3, 1, 1, ['S:Resurrection']),
  m('brute', 'Brute', 'Earth', 2, 3, 3, ['E:Normal']),
  // R-AB-RES-4: cost 6 with two Resurrection arrows
  m('lich', 'Lich', 'Darkness', 6, 1, 1, ['W:Resurrection', 'E:Resurrection']),
  m('cost2', 'Two Coin', 'Fire', 2, 1, 1),
  m('cost3', 'Three Coin', 'Fire', 3, 1, 1),
  m('cost4', 'Four Coin', 'Fire', 4, 1, 1),
  // EX-05
  m('a5', 'Attacker Five', 'Fire', 0, 3, 3, ['N:Normal', 'E:Normal']),
  m('b1', 'Defender B1', 'Water', 1, 3, 5, ['S:Normal']),
  m('b2', 'Defender B2', 'Water', 1, 1, 2, ['W:Normal']),
  m('tank', 'Tank', 'Fire', 0, 1, 6, ['N:Normal', 'E:Normal', 'W:Normal']),
  m('hitter', 'Hitter', 'Water', 1, 3, 9, ['S:Normal']),
  m('hitter-w', 'Hitter West', 'Water', 1, 3, 9, ['W:Normal']),
  // EX-06
  m('a6', 'Attacker Six', 'Earth', 1, 1, 1, ['N:Normal', 'E:Shockwave']),
  m('d', 'Defender D', 'Water', 1, 2, 2, ['S:Normal']),
  m('f', 'Blank F', 'Water', 1, 1, 1),
  // EX-07
  m('a7', 'Attacker Seven', 'Fire', 2, 2, 2, ['E:Normal']),
  m('b7', 'Bystander B', 'Water', 1, 1, 1, ['N:Normal']),
  // EX-08 / EX-12 / EX-15 Shockwave
  m('a8', 'Attacker Eight', 'Earth', 2, 2, 2, ['E:Shockwave']),
  m('quake-n', 'Quake North', 'Earth', 2, 1, 1, ['N:Shockwave']),
  m('quake-s', 'Quake South', 'Earth', 2, 1, 1, ['S:Shockwave']),
  // EX-14 Block ability
  m('mason', 'Mason', 'Fire', 1, 1, 1, ['E:Block']),
  // EX-15 Growth
  m('sprout', 'Sprout', 'Nature', 2, 1, 1, ['E:Growth']),
  m('titan', 'Titan', 'Fire', 12, 6, 6, ['N:Normal']),
  m('west', 'Westward', 'Water', 1, 1, 1, ['W:Normal']),
  // EX-19
  m('c4', 'Cost Four', 'Fire', 4, 2, 2, ['E:Normal']),
  // EX-21 / Swap
  m('swapper', 'Swapper', 'Water', 2, 2, 2, ['E:Swap']),
  // Remove, Firestorm
  m('reaper', 'Reaper', 'Water', 2, 1, 1, ['E:Remove']),
  m('blaze', 'Blaze', 'Fire', 3, 2, 4, ['E:Firestorm']),
  // EX-23 synergy
  m('leaf', 'Leaf', 'Nature', 1, 2, 2),
  m('rock', 'Rock', 'Earth', 1, 2, 2),
  // geometry
  m('diag', 'Diagonal', 'Fire', 1, 2, 2, ['NE:Normal']),
  m('star', 'Star', 'Fire', 1, 1, 9, ['N:Normal', 'NE:Normal', 'E:Normal', 'SE:Normal', 'S:Normal', 'SW:Normal', 'W:Normal', 'NW:Normal']),
  m('east', 'Eastward', 'Fire', 1, 1, 1, ['E:Normal']),
  m('north', 'Northward', 'Fire', 1, 1, 1, ['N:Normal']),
  m('south', 'Southward', 'Water', 1, 1, 1, ['S:Normal']),
  m('strong-w', 'Strong West', 'Water', 1, 9, 9, ['W:Normal']),
  // fillers (no arrows: they never interact)
  m('filler', 'Filler', 'Fire', 1, 1, 1),
  m('pebble', 'Pebble', 'Earth', 1, 1, 1),
  m('wisp', 'Wisp', 'Water', 1, 1, 1),
];

const BLOCKS: CardDef[] = (['Nature', 'Earth', 'Electric', 'Darkness', 'Fire', 'Water'] as const).map((e) => ({
  id: `block-${e.toLowerCase()}`,
  kind: 'block' as const,
  name: `${e} Block`,
  element: e,
}));

function twin(c: CardDef): CardDef {
  if (c.kind !== 'monster') return c;
  return { ...c, id: `${c.id}-r`, name: `${c.name} (rotated)`, arrows: c.arrows.map((a) => ({ ...a, dir: OPP[a.dir] })) };
}

const loaded = loadCardSet({
  id: 'evons-test',
  name: 'Evons rules-test fixtures',
  version: '1',
  placeholder: true,
  elementAbilities: { Growth: 'Nature', Shockwave: 'Earth', Magnetism: 'Electric', Resurrection: 'Darkness' },
  cards: [...MONSTERS, ...MONSTERS.map(twin), ...BLOCKS],
});
if (!loaded.ok) throw new Error(`test card set invalid: ${loaded.errors.join('; ')}`);
export const cs: CardSet = loaded.cardSet;

// ---------------------------------------------------------------------------------------------
// Builder

export interface CardOpts {
  id?: string;
  owner?: Seat;
  covered?: boolean;
  growth?: boolean;
  damage?: number;
  moved?: boolean;
  /** Use the printed definition as is (no automatic rotation). */
  raw?: boolean;
}

export interface BoardSpec extends CardOpts {
  facing: Seat;
  def: string;
}

/** A card on the board facing `facing` (owner = facing unless given). */
export function card(facing: Seat, def: string, opts: CardOpts = {}): BoardSpec {
  return { facing, def, ...opts };
}

export type ZoneEntry = string | { def: string; id?: string; raw?: boolean };

export interface Spec {
  first?: Seat;
  active?: Seat;
  turn?: number;
  step?: 'start' | 'reveal' | 'play' | 'activate' | 'discard' | 'end';
  board?: Record<string, BoardSpec>;
  hands?: Partial<Record<Seat, ZoneEntry[]>>;
  graveyards?: Partial<Record<Seat, ZoneEntry[]>>;
  /** Top first. Default: 3 fillers each, so a turn change does not run into the stalemate safeguard. */
  decks?: Partial<Record<Seat, ZoneEntry[]>>;
  removed?: { def: string; owner: Seat; id?: string }[];
  credits?: Partial<Record<Seat, number>>;
  config?: RulesConfigInput;
  stack?: PositionData['stack'];
  revealDue?: string[];
  played?: boolean;
  stalled?: number;
}

const other = (s: Seat): Seat => (s === 'p1' ? 'p2' : 'p1');

/** The position JSON for a spec (ids: board `def@C3`, zones `def@p1hand0`, …, unless given). */
export function position(spec: Spec): PositionData {
  const first = spec.first ?? 'p1';
  const cards: Record<string, { def: string; owner: Seat }> = {};
  const resolve = (def: string, seat: Seat, raw?: boolean) => {
    if (!cs.byId.has(def)) throw new Error(`no fixture card ${def}`);
    return !raw && seat !== first && cs.byId.get(def)!.kind === 'monster' ? `${def}-r` : def;
  };
  const add = (id: string, def: string, owner: Seat) => {
    if (cards[id]) throw new Error(`duplicate test id ${id}`);
    cards[id] = { def, owner };
    return id;
  };
  const board: PositionData['board'] = {};
  for (const [cell, b] of Object.entries(spec.board ?? {})) {
    const owner = b.owner ?? b.facing;
    const id = add(b.id ?? `${b.def}@${cell}`, resolve(b.def, b.facing, b.raw), owner);
    board[cell] = {
      id,
      facing: b.facing,
      covered: b.covered ?? b.growth ?? false,
      growth: b.growth ?? false,
      damage: b.damage ?? 0,
      moved: b.moved ?? false,
    };
  }
  const zone = (kind: string, entries: Partial<Record<Seat, ZoneEntry[]>> | undefined, dflt: ZoneEntry[]) => {
    const out: Record<Seat, string[]> = { p1: [], p2: [] };
    for (const seat of ['p1', 'p2'] as const) {
      (entries?.[seat] ?? dflt).forEach((e, i) => {
        const en = typeof e === 'string' ? { def: e } : e;
        out[seat].push(add(en.id ?? `${en.def}@${seat}${kind}${i}`, resolve(en.def, seat, en.raw), seat));
      });
    }
    return out;
  };
  const hands = zone('hand', spec.hands, []);
  const graveyards = zone('gy', spec.graveyards, []);
  const decks = zone('deck', spec.decks, ['filler', 'filler', 'filler']);
  const removed = (spec.removed ?? []).map((r, i) => add(r.id ?? `${r.def}@removed${i}`, resolve(r.def, r.owner), r.owner));
  const active = spec.active ?? first;
  const turn = spec.turn ?? (active === first ? 3 : 4);
  return {
    format: 'evons-position/1',
    cardSetId: cs.id,
    config: { ...(spec.config ?? {}) },
    first,
    turn,
    active,
    step: spec.step ?? 'play',
    credits: { p1: spec.credits?.p1 ?? 50, p2: spec.credits?.p2 ?? 50 },
    cards,
    board,
    decks,
    hands,
    graveyards,
    removed,
    revealDue: spec.revealDue ?? [],
    played: spec.played ?? false,
    stack: spec.stack ?? [],
    stalled: spec.stalled ?? 0,
  };
}

/** The state a spec describes, without running any automatic step. */
export function raw(spec: Spec): GameState {
  const r = stateFromPosition(position(spec), cs, 'test-seed');
  if (!r.ok) throw new Error(`bad test position: ${r.errors.join('; ')}`);
  return r.state;
}

/** createFromPosition: the spec's state advanced to the first decision, with the events. */
export function start(spec: Spec): { state: GameState; events: GameEvent[] } {
  const r = createFromPosition(cs, position(spec), 'test-seed');
  if (!r.ok) throw new Error(`bad test position: ${r.errors.join('; ')}`);
  return { state: r.state, events: r.events };
}

/** The spec's state advanced to the first decision. */
export function build(spec: Spec): GameState {
  return start(spec).state;
}

// ---------------------------------------------------------------------------------------------
// Acting and reading

export interface Step {
  state: GameState;
  events: GameEvent[];
}

/** Applies an action and asserts it was accepted. */
export function act(state: GameState, seat: Seat, action: Action): Step {
  const r = apply(state, seat, action);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(action)} by ${seat} to be legal: ${r.error.code} ${r.error.message}`);
  return { state: r.state, events: r.events };
}

/** Applies a sequence of actions by the pending decider; returns the last state and all events. */
export function actAll(state: GameState, actions: Action[]): Step {
  let s = state;
  const events: GameEvent[] = [];
  for (const a of actions) {
    const d = pendingDecision(s);
    if (!d) throw new Error(`no decision pending for ${JSON.stringify(a)}`);
    const r = act(s, d.seat, a);
    s = r.state;
    events.push(...r.events);
  }
  return { state: s, events };
}

/** Asserts the action is rejected with `code` and that the state is unchanged. */
export function reject(state: GameState, seat: Seat, action: unknown, code: ErrorCode): string {
  const before = JSON.stringify(toPosition(state));
  const r = apply(state, seat, action as Action);
  expect(r.ok, `expected rejection ${code}`).toBe(false);
  if (r.ok) return '';
  expect(r.error.code).toBe(code);
  expect(JSON.stringify(toPosition(state))).toBe(before);
  return r.error.message;
}

export function decision(state: GameState): Decision | null {
  return pendingDecision(state);
}

/** Legal actions for the pending decider (empty when none). */
export function legal(state: GameState): Action[] {
  const d = pendingDecision(state);
  return d ? legalActions(state, d.seat) : [];
}

/** Ability actions offered now (drops end-phase). */
export function abilityOptions(state: GameState): Extract<Action, { type: 'ability' }>[] {
  return legal(state).filter((a): a is Extract<Action, { type: 'ability' }> => a.type === 'ability');
}

export function cellOf(state: GameState, id: string): string | null {
  const i = state.board.findIndex((b) => b?.id === id);
  return i < 0 ? null : `${'XABCDEY'[i % 7]}${Math.floor(i / 7)}`;
}

export function at(state: GameState, cell: string) {
  const i = cellIndex(cell);
  if (i === undefined) throw new Error(`bad cell ${cell}`);
  return state.board[i] ?? null;
}

/** The base fixture id of the card on a cell (twin suffix dropped), or null. */
export function defAt(state: GameState, cell: string): string | null {
  const bc = at(state, cell);
  return bc ? state.cards[bc.id]!.def.replace(/-r$/, '') : null;
}

/** The seat view of a cell's card (current DEF, ATK, board arrows). */
export function cardView(state: GameState, cell: string, viewer: Seat = 'p1') {
  return view(state, viewer).board.find((c) => c.cell === cell)!.card;
}

export function scoreOf(state: GameState): Record<Seat, number> {
  const v = view(state, 'p1');
  return { p1: v.seats.p1.score, p2: v.seats.p2.score };
}

export function types(events: GameEvent[]): string[] {
  return events.map((e) => e.type);
}

export function eventsOf<T extends GameEvent['type']>(events: GameEvent[], type: T): Extract<GameEvent, { type: T }>[] {
  return events.filter((e): e is Extract<GameEvent, { type: T }> => e.type === type);
}

/** A face-up play action. */
export const playUp = (card: string, cell: string): Action => ({ type: 'play', card, cell, covered: false });
export const playCovered = (card: string, cell: string): Action => ({ type: 'play', card, cell, covered: true });

/** Ids the builder generates. */
export const hid = (def: string, seat: Seat, i = 0) => `${def}@${seat}hand${i}`;
export const gid = (def: string, seat: Seat, i = 0) => `${def}@${seat}gy${i}`;
export const bid = (def: string, cell: string) => `${def}@${cell}`;

/** Fills every main-zone cell except `except` with covered fillers (alternating owners). */
export function fillMain(except: string[], facing?: Seat): Record<string, BoardSpec> {
  const out: Record<string, BoardSpec> = {};
  let n = 0;
  for (const c of 'ABCDE') {
    for (let r = 1; r <= 5; r++) {
      const cell = `${c}${r}`;
      if (except.includes(cell)) continue;
      const seat = facing ?? (n++ % 2 === 0 ? 'p1' : 'p2');
      out[cell] = card(seat, 'pebble', { covered: true, growth: true });
    }
  }
  return out;
}

export { other, toPosition, view, type Seat, type GameState, type Action, type GameEvent };

/**
 * A state in the middle of P1's turn: `def` on `cell` facing the active seat has just been
 * played face-up and is at the start of Ability Phase 1 (its stack frame), then advanced.
 * Give the active seat a hand card so the turn does not run on into the next one.
 */
export function activating(def: string, cell: string, spec: Spec = {}, id = 'act'): GameState {
  const seat = spec.active ?? spec.first ?? 'p1';
  return build({
    ...spec,
    step: 'activate',
    played: true,
    board: { ...(spec.board ?? {}), [cell]: card(seat, def, { id }) },
    stack: [{ card: id, kind: 'activation', phase: 'ability1', used: [], revivedCost: 0, conflicts: null }],
  });
}

/** The swap of the card on C3 (a Swap card's first arrow): two own swappers reactivate each other with it. */
export const SWAP = { type: 'ability', arrow: 0, target: 'C3' } as const;

/** Two own swappers: one played on B3 swaps with the one on C3, which then reactivates on B3 and swaps back, and so on. */
export function swapLoop(config: RulesConfigInput): GameState {
  const s = build({ board: { C3: card('p1', 'swapper') }, hands: { p1: ['swapper'] }, config });
  return act(s, 'p1', playUp(hid('swapper', 'p1'), 'B3')).state;
}

/** Swaps while the engine offers one (at most `max`): the deepest chain, the swaps and every event. */
export function swapAway(s: GameState, max: number): { state: GameState; deepest: number; swaps: number; events: GameEvent[] } {
  let deepest = s.stack.length;
  let swaps = 0;
  const events: GameEvent[] = [];
  while (swaps < max && legal(s).some((a) => a.type === 'ability' && a.target === 'C3')) {
    const r = act(s, 'p1', SWAP);
    s = r.state;
    events.push(...r.events);
    swaps++;
    deepest = Math.max(deepest, s.stack.length);
  }
  return { state: s, deepest, swaps, events };
}
