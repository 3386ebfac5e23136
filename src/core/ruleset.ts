/**
 * The contract every game hosted by the service implements (in the spirit of boardgame.io's game
 * object, but typed and event-sourced): a pure, deterministic rules engine that turns actions into
 * events, folds events into state, and says what each seat may see. The service, persistence,
 * REST and GraphQL know games only through this contract and the registry.
 *
 * Rules for implementations:
 * - Pure: no I/O, no clock, no Math.random, no environment. Randomness comes from the match seed
 *   (keyed streams, one per purpose), time (when a game needs it) from the caller's events.
 * - Replay is the only way to load a match: `replay(events)` must equal the live state that
 *   produced those events, for every version of the rules that ever wrote a match.
 * - Hidden information: `view`, `redactEvent` and `describeAction` are the only ways state leaves
 *   the engine, and each is computed for one viewer. Nothing they return names a card the viewer
 *   may not know; rule error messages never do either.
 */
import type { z } from 'zod';
import type { GeneratorId, RandomSource } from './random.js';

export type Seat = 'p1' | 'p2';
export type Viewer = Seat | 'spectator';

/** The seat across the table. */
export const otherSeat = (s: Seat): Seat => (s === 'p1' ? 'p2' : 'p1');
/** Who may read a stored event whole: everyone, one seat, or the server only. */
export type Visibility = 'public' | Seat | 'server';

/** A rejected action: a stable code (UPPER_SNAKE) and a reason that reveals nothing hidden. */
export interface RuleError {
  code: string;
  message: string;
}

export type ApplyResult<S, E> = { ok: true; state: S; events: E[] } | { ok: false; error: RuleError };
export type CreateResult<S, E> = { ok: true; state: S; events: E[] } | { ok: false; errors: string[] };

/** The decision a game waits for; `kind` is the game's own name for it. */
export interface PendingDecision {
  seat: Seat;
  kind: string;
}

export interface GameOutcome {
  /** Null for a draw. */
  winner: Seat | null;
  reason: string;
}

/** A deck as players send it: card ids with counts. */
export interface DeckEntry {
  card: string;
  count: number;
}

/** A deck list as one card id per copy (what `create` and `validateDeck` take). */
export function expandDeck(entries: readonly DeckEntry[]): string[] {
  // A plain loop (no array per entry): every new match expands two decks. Counts that are not
  // array lengths keep the old expression's answer (or its RangeError).
  const out: string[] = [];
  for (const { card, count } of entries) {
    if (Number.isInteger(count) && count >= 0 && count < 2 ** 32) for (let i = 0; i < count; i++) out.push(card);
    else out.push(...Array<string>(count).fill(card));
  }
  return out;
}

export interface StarterDeck {
  id: string;
  name: string;
  description?: string;
  cards: DeckEntry[];
}

/** The printed cards a game plays with (public data), identified and hashed for rules pinning. */
export interface CardSetInfo<Card = unknown> {
  id: string;
  name: string;
  /** sha256 of the canonical card data: part of every match's rules hash. */
  hash: string;
  /** Placeholder sets say so: their cards are invented, not an official list. */
  placeholder: boolean;
  cards: readonly Card[];
}

export interface CreateOptions<C> {
  config: C;
  /** Card ids (expanded, one entry per copy) per seat. */
  decks: Record<Seat, string[]>;
  /** The match seed: secret until the game ends (its sha256 is the public commitment). */
  seed: string;
  /**
   * The generator to deal with (default: the game's current one). Only to re-create a match
   * opened under an older generator, e.g. an open seat joined after an upgrade.
   */
  generator?: GeneratorId;
}

export interface Ruleset<S, A extends { type: string }, E extends { type: string }, V, C> {
  /** Stable id used in URLs, rows and the registry: `evons`, `universus`. */
  readonly id: string;
  readonly name: string;
  /** Version of the implemented rules; bump when any rule's behaviour changes. */
  readonly rulesVersion: string;
  readonly engineVersion: string;
  /** The generator new deals use (recorded with an open seat, so its later deal uses the same). */
  readonly generator: GeneratorId;

  /** The settings (readings of rule gaps, optional rules) with their defaults. */
  readonly configSchema: z.ZodType<C>;
  /** Actions as clients send them; apply() validates with it. */
  readonly actionSchema: z.ZodType<A>;

  readonly cardSet: CardSetInfo;
  readonly starterDecks: readonly StarterDeck[];
  /** Errors in a deck list for this game (empty when legal). */
  validateDeck(cards: readonly string[], config: C): string[];

  /** A new game from a seed: the deal and the opening events. */
  create(opts: CreateOptions<C>): CreateResult<S, E>;
  /**
   * Pins a match to its exact rules: hash of (rules version, config, card set, generator).
   * `generator` defaults to the game's current one; null = no deal (a game opened from a position).
   */
  rulesHash(config: C, generator?: GeneratorId | null): string;

  /**
   * Sandbox positions in the game's own format (`evons-position/1`, `universus-position/1`).
   * A game opened from a position starts with a `PositionLoaded` event (how a loaded match knows
   * it is a sandbox).
   */
  readonly positions: {
    readonly format: string;
    fromPosition(position: unknown, seed: string): CreateResult<S, E>;
    toPosition(state: S): unknown;
  };

  pending(state: S): PendingDecision | null;
  outcome(state: S): GameOutcome | null;
  legalActions(state: S, seat: Seat): A[];
  /** Validates and applies; bad input is a result, never an exception; the input is not mutated. */
  apply(state: S, seat: Seat, action: unknown): ApplyResult<S, E>;
  /** The state rebuilt from a match's events (the first one opens the game). */
  replay(events: readonly E[]): S;
  /** `state` moved on by later events, as a new state (`state` is not mutated): catching up a cache. */
  evolve(state: S, events: readonly E[]): S;

  view(state: S, viewer: Viewer): V;
  /**
   * The pending decision whole, exactly as every view shows it (`view(state, v).pending`), without
   * building the view: the lean action answer carries it.
   */
  pendingView(state: S): unknown;
  eventVisibility(event: E): Visibility;
  /** The event as `viewer` may see it, or null when the viewer sees nothing of it. */
  redactEvent(event: E, viewer: Viewer): Record<string, unknown> | null;
  /**
   * Words for the actions of one state, naming only what `viewer` may know. A describer per
   * state, since naming cards needs the viewer's view of it, built once for a whole list.
   */
  actionDescriber(state: S, viewer: Viewer): (action: A) => string;

  /**
   * A seeded, uniform-ish random player for tests, benchmarks and practice bots: it picks one of
   * `actions` (the legal actions of `state` for the seat whose decision is pending). Called
   * without `actions`, it makes the same choice from the pending decision's legal actions, and
   * may do so without building the whole list (what benchmarks and bots use).
   */
  randomPlayer(seed: string): (state: S, actions?: readonly A[]) => A;

  /**
   * Hidden information, for computer players that must play honestly: what one seat knows (its
   * view and the events it may see, as `redactEvent` gave them, oldest first) turned into a
   * sampler of full states. Every sample is a legal state whose `view(sample, seat)` equals
   * `view`, with the cards the seat cannot see (the other hand, deck orders, face-down cards)
   * drawn from `rng` consistently with what the seat knows; the same draws give the same state.
   * Each game documents what the seat is taken to know (e.g. which deck lists). Optional: a game
   * without it has no computer opponent.
   */
  readonly hiddenInformation?: HiddenInformation<S, V>;
}

/** A game's support for computer players (Ruleset.hiddenInformation). */
export interface HiddenInformation<S, V> {
  /** Folds the seat's knowledge once; each call of the answer draws one full state. */
  sampler(view: V, seat: Seat, events: readonly SeatEvent[]): (rng: RandomSource) => S;
  /**
   * A heuristic value of `state` for `seat` (higher is better; a won game is far above any
   * running one): the leaf evaluation of a search. Read by the caller only on sampled states.
   */
  evaluate(state: S, seat: Seat): number;
}

/** A game event as `redactEvent(event, seat)` returned it to the seat. */
export type SeatEvent = Record<string, unknown> & { type: string };

/** Any ruleset, for registries and generic code. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRuleset = Ruleset<any, any, any, unknown, any>;
