/**
 * What a hosted game gives the service: its rules engine and everything else that is its own
 * (schemas, picture, docs; the GraphQL and watch-page parts join here too). The registry
 * (registry.ts) lists one module per game id: a module that lacks a piece does not compile, and
 * REST, OpenAPI, GraphQL, pictures and the watch page are assembled from the registry, with no
 * per-game branch outside the game's folder.
 *
 * Everything here is pure, like the engine: each piece is computed from the game's view for one
 * caller (already redacted), so no piece can show more than the view does.
 */
import type { z } from 'zod';
import type { AnyRuleset, Ruleset, Seat } from '../core/ruleset.js';
import type { PictureFrame } from '../pictures/frame.js';

/**
 * The game's own Zod schemas, each registered with a component id (`.meta({ id })`) that starts
 * with the game's `typePrefix` (or is the game's historic name, e.g. Evons' `GameView`).
 */
export interface GameSchemas {
  /** Its settings as a create body sends them (every field defaulted). */
  settings: z.ZodType<Record<string, unknown>>;
  /** A sandbox position in the game's own format. */
  position: z.ZodType;
  /** `ruleset.view(state, viewer)`. */
  view: z.ZodType;
  /** `ruleset.pendingView(state)` when a decision is pending. */
  pending: z.ZodType;
  /** The game's own decisions (a `resign` of its engine is the match's action, not listed here). */
  action: z.ZodType<{ type: string }>;
  /** Its events as `redactEvent` returns them. */
  event: z.ZodType<{ type: string }>;
}

/**
 * What a game's GraphQL resolvers read of a match: the caller's view and the seats (src/graphql
 * adapts the service's match view to it, so a game needs nothing of the service).
 */
export interface GraphqlMatchSource<V> {
  /** The engine's view for the caller; null while a seat is open (no game yet). */
  readonly view: V | null;
  /** The caller's seat; null for a spectator. */
  readonly seat: Seat | null;
  /** Both seats, p1 first, with their handles. */
  readonly seats: readonly { readonly seat: Seat; readonly handle: string | null }[];
}

/** A field a game adds to a type the games share (PendingDecision, ActionInput). */
export interface GraphqlField {
  /** Its GraphQL type (`[ID!]`): a field two games both add must have the same type in each. */
  readonly type: string;
  readonly description: string;
}

/**
 * The game's part of the GraphQL schema: its Match type (the fields it adds to the Match
 * interface and their resolvers), its own object types, and what it adds to the shared types.
 * SDL may use the shared types (Seat, SeatNumbers, JSON, …); type names are the game's own.
 */
export interface GameGraphql<V> {
  /** The type of its matches, implementing Match ("EvonsMatch"). */
  readonly matchType: string;
  readonly matchDescription: string;
  /** SDL of the fields the match type adds to the Match interface's. */
  readonly matchFields: string;
  /** SDL of its own types. */
  readonly typeDefs: string;
  /** Resolvers of its match fields, by field. */
  readonly matchResolvers: Readonly<Record<string, (s: GraphqlMatchSource<V>) => unknown>>;
  /** Resolvers of its own types' fields, by type and field (printed card data, …). */
  readonly typeResolvers: Readonly<Record<string, Readonly<Record<string, (parent: never) => unknown>>>>;
  /**
   * What Match.config shows, when the game's view carries its settings as the match plays by
   * them; without it, Match.config is the match's stored settings.
   */
  readonly settingsOf?: (view: V) => unknown;
  /** Its decision kinds, with the PendingDecision fields each sets ("discard (count), …"). */
  readonly pendingKinds: string;
  /** Fields it adds to PendingDecision (beside kind and seat). */
  readonly pendingFields: Readonly<Record<string, GraphqlField>>;
  /** Fields it adds to ActionInput (beside type): each action of its own as a typed input. */
  readonly actionInputFields: Readonly<Record<string, GraphqlField>>;
  /** Most items each of its list fields holds (`EvonsMatch.board`: 49), for the query cost budget. */
  readonly listSizes: Readonly<Record<string, number>>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- inference over the contract's type parameters */
/** The per-seat view type of a ruleset. */
export type ViewOfRuleset<R> = R extends Ruleset<any, any, any, infer V, any> ? V : never;
/** The action type of a ruleset. */
export type ActionOfRuleset<R> = R extends Ruleset<any, infer A, any, any, any> ? A : never;
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface GameModule<R extends AnyRuleset = AnyRuleset> {
  readonly ruleset: R;
  /** How people write its name ("Evons", "UniVersus"). */
  readonly displayName: string;
  /** Prefix of its OpenAPI components and GraphQL types ("Evons", "UniVersus"). */
  readonly typePrefix: string;
  readonly schemas: GameSchemas;
  /** The board picture of one caller's view (pure: the same view gives the same bytes). */
  readonly picture: (frame: PictureFrame, view: ViewOfRuleset<R>) => string;
  /** Its documentation page, relative to the repository root (linked from GET /v1/games). */
  readonly docs: string;
  /** Its part of the watch page (GET /watch/{id}). */
  readonly watch: GameWatch<ViewOfRuleset<R>>;
  /** Its part of the GraphQL schema (src/graphql assembles the schema from every game's). */
  readonly graphql: GameGraphql<ViewOfRuleset<R>>;
}

/**
 * What the watch page needs of a game. The page itself (src/http/watch/) knows no game: the server
 * writes the link preview from `preview`, and the page script loads `script` for the match's game.
 */
export interface GameWatch<V> {
  /**
   * The link preview's facts of one view (the spectator's): the turn number, the score line (the
   * seats named by `seat`: their handles), and the seat whose decision it is, if any.
   */
  readonly preview: (view: V, seat: (seat: string) => string) => { turn: number; score: string; toMove: string | null };
  /**
   * A browser ES module in the game's folder (plain JavaScript: no imports, no DOM, nothing from the
   * server) whose default export is a `WatchScript`. Served as /watch/games/{game id}.js and copied
   * beside the compiled code by `npm run build`.
   */
  readonly script: URL;
}

/** Helpers the page gives a game's `words`: seat and card names as this reader knows them. */
export interface WatchWordHelpers {
  /** A seat as the page calls it (its handle, else the seat id); "nobody" for a missing seat. */
  seat(seat: unknown): string;
  /** A card's printed name by its definition id (the game's public card list), else the id. */
  def(defId: unknown): string | null;
  /** Remembers that a card instance is this definition (an event named it to this reader). */
  learn(instanceId: unknown, defId: unknown): void;
  /** The definition an instance turned out to be, if an earlier event named it. */
  learned(instanceId: unknown): string | undefined;
  /** "3 cards", "1 card". */
  count(n: number, what: string): string;
}

/**
 * The default export of a game's watch-page script (`GameWatch.script`). Each function reads the
 * game's part of the reader's match view (`view.game`, already redacted for that reader) or one
 * event as the API sent it to that reader: it can show nothing the API did not.
 */
export interface WatchScript {
  /** The turn number of the status line. */
  turn(game: unknown): number;
  /** Whose decision it is and its kind (e.g. "AWAIT_MOMENTUM"), or null. */
  toMove(game: unknown): { seat: string; kind: string } | null;
  /** One seat's facts for its panel, in order, as [label, value]. `cardName` gives a printed name (else the id). */
  seatFacts(game: unknown, seat: string, cardName: (id: string) => string): [string, string][];
  /** The card names of a seat's hand, or null when this view does not show that hand. */
  hand(game: unknown, seat: string, cardName: (id: string) => string): string[] | null;
  /**
   * One of the game's events in words (the match's own records are the page's): null leaves a
   * bookkeeping event out of the move list; undefined says the type is unknown (the page then
   * spells out the type).
   */
  words(event: { type: string; [k: string]: unknown }, h: WatchWordHelpers): string | null | undefined;
}

/** Any game's module, for registries and generic code. */
export type AnyGameModule = GameModule<AnyRuleset>;

/** Checks a module against the contract while keeping its exact type (for the registry's mapped types). */
export const defineGame = <R extends AnyRuleset>(m: GameModule<R>): GameModule<R> => m;
