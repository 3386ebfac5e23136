/**
 * Evons as a boardgame.io Game, for the peer benchmark (bench/peers/boardgameio.ts). Our rules run
 * unchanged through the Ruleset contract (src/games/registry.ts, GAMES.evons); boardgame.io only
 * hosts them:
 *
 * - `setup` creates the match with `evons.create` (decks and seed from the lobby's setupData).
 * - The single move `act(action)` applies one action with `evons.apply` for the player's seat
 *   (playerID '0' = p1, '1' = p2) and returns INVALID_MOVE when the rules refuse it (wrong seat,
 *   illegal action). Both players are always active (ActivePlayers.ALL): who decides is the
 *   rules' `pending` seat, not boardgame.io's turn order. `client: false`: clients never run it.
 * - `endIf` ends the match when `evons.outcome` says so.
 * - `playerView` redacts with our per-seat `view` and adds the seat's legal actions when it is the
 *   one to decide: what our REST API answers (the match view, and the legal-actions list).
 *
 * G must be plain JSON (boardgame.io stores it and sends it over socket.io), and the state's card
 * set holds a Map, so G keeps the state without its card set, which is put back (one shared
 * object) whenever the rules run. boardgame.io runs moves inside immer's `produce`; the move reads
 * the draft's base with immer's `original` (no proxies inside our engine) and returns a new G.
 *
 * boardgame.io is not a dependency of the project: the caller passes in the few values it needs
 * from boardgame.io and immer, loaded from the benchmark's temporary install.
 */
import { GAMES } from '../../src/games/registry.js';
import { defaultCardSet, type GameState, type Seat } from '../../src/games/evons/index.js';
import { expandDeck } from '../../src/core/ruleset.js';

const evons = GAMES.evons;
const CARD_SET = defaultCardSet();

/** The state as stored in G: everything but the card set. */
export type StoredState = Omit<GameState, 'cardSet'>;
export interface EvonsG {
  s: StoredState;
}
export interface SetupData {
  seed: string;
  /** Starter deck ids per seat. */
  decks: Record<Seat, string>;
}
/** What each player receives as G. */
export interface PlayerG {
  view: ReturnType<typeof evons.view>;
  /** The seat's legal actions when it is the one to decide, else null. */
  legal: unknown[] | null;
}

/** The values taken from boardgame.io ('boardgame.io/core') and immer, typed loosely (not installed here). */
export interface BgioDeps {
  INVALID_MOVE: string;
  ActivePlayers: { ALL: unknown };
  /** immer's `original`: the base object of a draft. */
  original: <T>(draft: T) => T | undefined;
}

export const GAME_NAME = 'evons';
export const seatOf = (playerID: string | null | undefined): Seat | null => (playerID === '0' ? 'p1' : playerID === '1' ? 'p2' : null);
export const playerIdOf = (seat: Seat): string => (seat === 'p1' ? '0' : '1');

const full = (s: StoredState): GameState => ({ ...s, cardSet: CARD_SET });
function stored(state: GameState): StoredState {
  const { cardSet: _cardSet, ...rest } = state;
  return rest;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- boardgame.io's types are not installed */
export function evonsGame(deps: BgioDeps): any {
  return {
    name: GAME_NAME,
    minPlayers: 2,
    maxPlayers: 2,
    disableUndo: true, // no undo: otherwise every move's G stays on the _undo stack for the whole (one) turn
    setup: (_ctx: any, setupData?: SetupData): EvonsG => {
      if (!setupData) throw new Error('evons needs setupData { seed, decks }');
      const deck = (id: string) => {
        const d = evons.starterDecks.find((x) => x.id === id);
        if (!d) throw new Error(`unknown starter deck ${id}`);
        return expandDeck(d.cards);
      };
      const created = evons.create({
        config: evons.configSchema.parse({}),
        decks: { p1: deck(setupData.decks.p1), p2: deck(setupData.decks.p2) },
        seed: setupData.seed,
      });
      if (!created.ok) throw new Error(created.errors.join('; '));
      return { s: stored(created.state) };
    },
    validateSetupData: (setupData: SetupData | undefined) =>
      setupData && typeof setupData.seed === 'string' && setupData.decks ? undefined : 'setupData { seed, decks } required',
    turn: { activePlayers: deps.ActivePlayers.ALL },
    moves: {
      act: {
        client: false,
        move: ({ G, playerID }: { G: EvonsG; playerID: string }, action: unknown) => {
          const seat = seatOf(playerID);
          if (!seat) return deps.INVALID_MOVE;
          const base = deps.original(G) ?? G;
          const res = evons.apply(full(base.s), seat, action);
          if (!res.ok) return deps.INVALID_MOVE;
          return { s: stored(res.state) };
        },
      },
    },
    endIf: ({ G }: { G: EvonsG }) => {
      const o = evons.outcome(G.s as GameState);
      return o ? { winner: o.winner, reason: o.reason } : undefined;
    },
    playerView: ({ G, playerID }: { G: EvonsG; playerID: string | null }): PlayerG => {
      const state = full(G.s);
      const seat = seatOf(playerID);
      const pending = evons.pending(state);
      return {
        view: evons.view(state, seat ?? 'spectator'),
        legal: seat && pending?.seat === seat && !evons.outcome(state) ? evons.legalActions(state, seat) : null,
      };
    },
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
