/**
 * Per-seat and spectator views: exactly what that party may know (R-HAND, R-FACE, R-SCORE).
 * The only place game state is turned into something a client sees.
 */
import { instanceOf } from '../../core/card-instances.js';
import { CELL_COUNT, cellName, isMainZone, type CellName, type Direction } from './board.js';
import type { ArrowType, CardDef } from './cards.js';
import { shownConfig, type RulesConfig } from './config.js';
import type { Decision } from './decisions.js';
import { pendingDecision } from './flow.js';
import { boardDirection } from './geometry.js';
import type { GameResult, GameState, Seat, Step } from './state.js';
import { attackOf, currentDef, defOf, scores } from './stats.js';
import type { Viewer } from './visibility.js';
import { ENGINE_VERSION, rulesHash } from './version.js';

export interface CardFaceView {
  defId: string;
  name: string;
  kind: 'monster' | 'block';
  element: string;
  cost: number | null;
  atk: number | null;
  def: number | null;
  /** Card-relative arrows as printed. */
  arrows: { dir: Direction; type: ArrowType }[];
}

/**
 * A card on the board. Static card data (element, cost, printed arrows) is in the card set
 * (`defId`); the view carries what changes: facing, damage, current ATK/DEF, board arrows.
 */
export interface BoardCardView {
  id: string;
  owner: Seat;
  facing: Seat;
  covered: boolean;
  growthPlaced: boolean;
  damage: number;
  /** Null when the viewer may not know the card (a covered card they do not own). */
  defId: string | null;
  name: string | null;
  /** Current ATK and DEF and the arrows turned to the board (face-up monsters only). */
  atk: number | null;
  currentDef: number | null;
  boardArrows: { dir: Direction; type: ArrowType }[] | null;
}

export interface CellView {
  cell: CellName;
  zone: 'main' | 'out';
  card: BoardCardView | null;
}

/** A card whose identity the viewer knows: in a hand, a graveyard or the removed pile. */
export interface CardRefView {
  id: string;
  defId: string;
  name: string;
}

export interface SeatView {
  seat: Seat;
  credits: number;
  score: number;
  handCount: number;
  deckCount: number;
  /** Only in the seat's own view. */
  hand: CardRefView[] | null;
  graveyard: CardRefView[];
}

export interface GameView {
  viewer: Viewer;
  engineVersion: string;
  rulesHash: string;
  cardSetId: string;
  cardSetHash: string;
  config: RulesConfig;
  status: 'playing' | 'ended';
  turn: number;
  active: Seat;
  first: Seat;
  step: Step;
  pending: Decision | null;
  board: CellView[];
  seats: Record<Seat, SeatView>;
  removed: CardRefView[];
  result: GameResult | null;
  seedCommitment: string;
  /** Published once the game has ended, so the deal can be verified by replay. */
  seed: string | null;
}

/** The printed face of a card definition (for clients that want it inline, e.g. GraphQL's `face`). */
export function cardFace(d: CardDef): CardFaceView {
  if (d.kind === 'block')
    return { defId: d.id, name: d.name, kind: 'block', element: d.element, cost: null, atk: null, def: null, arrows: [] };
  return {
    defId: d.id,
    name: d.name,
    kind: 'monster',
    element: d.element,
    cost: d.cost,
    atk: d.atk,
    def: d.def,
    arrows: d.arrows.map((a) => ({ ...a })),
  };
}

function cardView(s: GameState, i: number, viewer: Viewer): BoardCardView | null {
  const bc = s.board[i];
  if (!bc) return null;
  const owner = instanceOf(s, bc.id)!.owner;
  const def = !bc.covered || viewer === owner ? defOf(s, bc.id) : null;
  const live = !bc.covered && def?.kind === 'monster';
  return {
    id: bc.id,
    owner,
    facing: bc.facing,
    covered: bc.covered,
    growthPlaced: bc.growth,
    damage: bc.damage,
    defId: def?.id ?? null,
    name: def?.name ?? null,
    atk: live ? attackOf(s, i) : null,
    currentDef: live ? currentDef(s, i) : null,
    boardArrows: live ? def.arrows.map((a) => ({ dir: boardDirection(a.dir, bc.facing, s.first), type: a.type })) : null,
  };
}

function ref(s: GameState, id: string): CardRefView {
  const d = defOf(s, id);
  return { id, defId: d.id, name: d.name };
}

export function view(s: GameState, viewer: Viewer): GameView {
  const sc = scores(s);
  const board: CellView[] = [];
  for (let i = 0; i < CELL_COUNT; i++)
    board.push({ cell: cellName(i), zone: isMainZone(i) ? 'main' : 'out', card: cardView(s, i, viewer) });
  const seatView = (seat: Seat): SeatView => ({
    seat,
    credits: s.credits[seat],
    score: sc[seat],
    handCount: s.hands[seat].length,
    deckCount: s.decks[seat].length,
    hand: viewer === seat ? s.hands[seat].map((id) => ref(s, id)) : null,
    graveyard: s.graveyards[seat].map((id) => ref(s, id)),
  });
  return {
    viewer,
    engineVersion: ENGINE_VERSION,
    rulesHash: rulesHash(s.config, s.cardSet, s.rng),
    cardSetId: s.cardSet.id,
    cardSetHash: s.cardSet.hash,
    config: shownConfig(s.config),
    status: s.result ? 'ended' : 'playing',
    turn: s.turn,
    active: s.active,
    first: s.first,
    step: s.step,
    pending: decisionCopy(pendingDecision(s)),
    board,
    seats: { p1: seatView('p1'), p2: seatView('p2') },
    removed: s.removed.map((id) => ref(s, id)),
    result: s.result,
    seedCommitment: s.seedCommitment,
    seed: s.result ? s.seed : null,
  };
}

/** The view's own copy: pendingDecision's answer is shared by everyone who asks about the state. */
function decisionCopy(d: Decision | null): Decision | null {
  if (!d) return null;
  if (d.kind === 'reveal-order' || d.kind === 'trigger-order') return { ...d, cards: [...d.cards] };
  if (d.kind === 'conflict-order') return { ...d, defenders: [...d.defenders] };
  return { ...d };
}
