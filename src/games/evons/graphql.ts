/**
 * The Evons part of the GraphQL schema (see ../game-module.ts, GameGraphql): the fields
 * `EvonsMatch` adds to the Match interface (the board, graveyards, credits and scores), the object
 * types they use, and their resolvers. Everything is read from the caller's view (the engine
 * computed it for them, so nothing here can show more than they may see); printed card data comes
 * from the card set, resolved only when a query asks for it. The type names are older than the
 * game prefix (Cell, Card, …) and stay as clients know them.
 */
import type { GameGraphql, GraphqlMatchSource } from '../game-module.js';
import { defaultCardSet } from './data/index.js';
import { cardFace, type GameView } from './view.js';

type Source = GraphqlMatchSource<GameView>;

const cardSet = defaultCardSet();
const face = (defId: string) => cardFace(cardSet.byId.get(defId)!);

const matchFields = /* GraphQL */ `
    "Null while a seat is open (no game yet)."
    turn: Int
    active: Seat
    first: Seat
    step: String
    result: GameResult
    credits: SeatNumbers
    scores: SeatNumbers
    "All 49 cells, row-major (X0 … Y6). Empty while a seat is open."
    board: [Cell!]!
    graveyards: Graveyards!
    "Cards removed from the game, in order."
    removed: [Card!]!
    "The caller's own hand; null for a spectator."
    hand: [Card!]
    players: [Player!]!
`;

const typeDefs = /* GraphQL */ `
  type Player {
    seat: Seat!
    handle: String
    credits: Int!
    score: Int!
    handCount: Int!
    deckCount: Int!
  }

  type GameResult {
    reason: String!
    winner: Seat
    scores: SeatNumbers!
  }

  type Cell {
    "Cell name such as C3."
    name: String!
    "main (A1–E5) or out."
    zone: String!
    card: BoardCard
  }

  type BoardCard {
    id: ID!
    owner: Seat!
    facing: Seat!
    covered: Boolean!
    growthPlaced: Boolean!
    damage: Int!
    "The card definition; null when the caller may not know the card (a covered card they do not own)."
    defId: String
    name: String
    "Printed card data from the card set; null when defId is."
    face: CardFace
    "Current ATK and DEF (face-up monsters only)."
    atk: Int
    currentDef: Int
    "Arrows turned to the board (face-up monsters only)."
    boardArrows: [Arrow!]
  }

  type CardFace {
    defId: String!
    name: String!
    kind: String!
    element: String!
    cost: Int
    atk: Int
    def: Int
    arrows: [Arrow!]!
  }

  type Arrow {
    dir: String!
    type: String!
  }

  type Card {
    id: ID!
    defId: String!
    name: String!
    face: CardFace!
  }

  type Graveyards {
    p1: [Card!]!
    p2: [Card!]!
  }
`;

export const evonsGraphql: GameGraphql<GameView> = {
  matchType: 'EvonsMatch',
  matchDescription: 'An Evons match: the 7×7 board, graveyards, credits and scores.',
  matchFields,
  typeDefs,
  matchResolvers: {
    turn: (s: Source) => s.view?.turn ?? null,
    active: (s: Source) => s.view?.active ?? null,
    first: (s: Source) => s.view?.first ?? null,
    step: (s: Source) => s.view?.step ?? null,
    result: (s: Source) => s.view?.result ?? null,
    credits: (s: Source) => (s.view ? { p1: s.view.seats.p1.credits, p2: s.view.seats.p2.credits } : null),
    scores: (s: Source) => (s.view ? { p1: s.view.seats.p1.score, p2: s.view.seats.p2.score } : null),
    board: (s: Source) => (s.view?.board ?? []).map((c) => ({ name: c.cell, zone: c.zone, card: c.card })),
    graveyards: (s: Source) => ({ p1: s.view?.seats.p1.graveyard ?? [], p2: s.view?.seats.p2.graveyard ?? [] }),
    removed: (s: Source) => s.view?.removed ?? [],
    hand: (s: Source) => (s.view && s.seat ? s.view.seats[s.seat].hand : null),
    players: (s: Source) =>
      (['p1', 'p2'] as const).map((seat) => {
        const sv = s.view?.seats[seat];
        return {
          seat,
          handle: s.seats.find((x) => x.seat === seat)?.handle ?? null,
          credits: sv?.credits ?? 0,
          score: sv?.score ?? 0,
          handCount: sv?.handCount ?? 0,
          deckCount: sv?.deckCount ?? 0,
        };
      }),
  },
  typeResolvers: {
    BoardCard: { face: (c: { defId: string | null }) => (c.defId ? face(c.defId) : null) },
    Card: { face: (c: { defId: string }) => face(c.defId) },
  },
  // The view shows the settings as the match plays by them (one stored before a setting existed: its value then).
  settingsOf: (view) => view.config,
  pendingKinds:
    'reveal-order (cards), play, ability (card, cell, phase), conflict-order (card, defenders), trigger-order (cards), discard (count)',
  pendingFields: {
    cards: { type: '[ID!]', description: 'reveal-order and trigger-order: the cards to order.' },
    card: { type: 'ID', description: 'ability and conflict-order: the activated card.' },
    cell: { type: 'String', description: "ability: the activated card's cell." },
    phase: { type: 'Int', description: 'ability: ability phase 1 or 2.' },
    defenders: { type: '[ID!]', description: 'conflict-order: the defenders to order.' },
    count: { type: 'Int', description: 'discard: cards left to discard.' },
  },
  actionInputFields: {
    card: {
      type: 'String',
      description:
        'reveal, play, activate and discard: the card; ability: the hand card Growth or Block places, or the graveyard card Resurrection revives.',
    },
    cell: { type: 'String', description: 'play: the cell (such as C3).' },
    covered: { type: 'Boolean', description: 'play: face down.' },
    arrow: { type: 'Int', description: 'ability: the ability arrow (0–7).' },
    target: { type: 'String', description: 'ability: the target cell.' },
    pull: { type: 'String', description: 'ability: the cell Magnetism pulls from.' },
    defender: { type: 'String', description: 'conflict: the defending card to resolve next.' },
  },
  listSizes: {
    'EvonsMatch.board': 49,
    'EvonsMatch.removed': 120,
    'EvonsMatch.hand': 20,
    'Graveyards.p1': 60,
    'Graveyards.p2': 60,
  },
};
