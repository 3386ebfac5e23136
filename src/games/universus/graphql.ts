/**
 * The UniVersus part of the GraphQL schema (see ../game-module.ts, GameGraphql): the fields
 * `UniVersusMatch` adds to the Match interface, the object types they use, and their resolvers.
 * Everything comes from the engine's view for the caller (view.ts), so nothing hidden can leave
 * here that the view did not show; names and printed stats come from the card set.
 */
import type { GameGraphql, GraphqlMatchSource } from '../game-module.js';
import { CARD_BY_ID } from './cards/index.js';
import type { Card } from './cards/schema.js';
import type { UniversusView } from './view.js';

/** Fields of `type UniVersusMatch implements Match` beyond the interface's. Null while a seat is open (no game yet). */
const matchFields = /* GraphQL */ `
    "Whose turn it is; null while a seat is open."
    turnPlayer: Seat
    turnNumber: Int
    "COMBAT, END or OVER."
    phase: String
    "The check in progress (U-CHECK-1: revealed to both seats)."
    check: UniVersusCheck
    "The attack being resolved."
    attack: UniVersusAttack
    "Both seats, p1 first (also while a seat is open)."
    players: [UniVersusPlayer!]!
    "The caller's own hand; null for a spectator or while a seat is open."
    hand: [UniVersusCard!]
    "HEALTH_ZERO or EXHAUSTED once the game is won, TURN_LIMIT when it ended drawn at maxTurns (winner null)."
    winReason: String
`;

const typeDefs = /* GraphQL */ `
  "One seat of a UniVersus match. Game fields are null (counts 0, lists empty) while a seat is open."
  type UniVersusPlayer {
    seat: Seat!
    handle: String
    "The character card id."
    character: String
    characterFace: UniVersusCardFace
    "Remaining health; shown as 0 when below (U-DAMAGE-2)."
    health: Int
    handSize: Int
    "Cards in hand (the cards themselves: Match.hand, for the caller's own seat only)."
    handCount: Int!
    deckCount: Int!
    "Removed face down by cycling (U-CYCLE-2)."
    removedCount: Int!
    "Momentum is face down: a count only (U-MOMENTUM-2)."
    momentumCount: Int!
    "Oldest first."
    discard: [UniVersusCard!]!
    cardPool: [UniVersusPoolCard!]!
    stage: [UniVersusStageCard!]!
  }

  "A card the caller may know."
  type UniVersusCard {
    "Opaque instance id, stable for the whole match."
    id: ID!
    "The printed card id."
    card: String!
    name: String!
    face: UniVersusCardFace!
  }

  "Printed card data from the card set. Stats that a kind lacks are null."
  type UniVersusCardFace {
    card: String!
    name: String!
    "CHARACTER, ATTACK or FOUNDATION."
    kind: String!
    symbols: [String!]!
    "Characters only."
    health: Int
    "Characters only."
    handSize: Int
    "Attacks and foundations."
    difficulty: Int
    "Check value (attacks and foundations)."
    check: Int
    "HIGH, MID or LOW; null when the card cannot block."
    blockZone: String
    blockModifier: Int
    "Attacks only: HIGH, MID or LOW."
    zone: String
    speed: Int
    damage: Int
  }

  "A card in a card pool (counts for progressive difficulty, U-PROG-1)."
  type UniVersusPoolCard {
    id: ID!
    card: String!
    name: String!
    face: UniVersusCardFace!
    "PLAYED or BLOCK."
    role: String!
    "An attack that dealt damage (eligible for momentum)."
    dealtDamage: Boolean!
    "A foundation that passed its play check this turn."
    built: Boolean!
  }

  "A built foundation on a stage."
  type UniVersusStageCard {
    id: ID!
    card: String!
    name: String!
    face: UniVersusCardFace!
    "Committed until its owner's next Ready Step (U-COMMIT-3)."
    committed: Boolean!
  }

  "A check in progress."
  type UniVersusCheck {
    seat: Seat!
    "PLAY or BLOCK."
    purpose: String!
    "The attempted card (public from the attempt on)."
    id: ID!
    card: String!
    name: String!
    face: UniVersusCardFace!
    difficulty: Int!
  }

  "The attack being resolved (printed zone, speed and damage, U-ATTACK-3)."
  type UniVersusAttack {
    "The attack card's instance, in the attacker's card pool."
    id: ID!
    attacker: Seat!
    "HIGH, MID or LOW."
    zone: String!
    speed: Int!
    damage: Int!
    card: String
    name: String
    face: UniVersusCardFace
  }
`;

type Source = GraphqlMatchSource<UniversusView>;

export interface UniversusCardFace {
  card: string;
  name: string;
  kind: Card['type'];
  symbols: string[];
  health: number | null;
  handSize: number | null;
  difficulty: number | null;
  check: number | null;
  blockZone: string | null;
  blockModifier: number | null;
  zone: string | null;
  speed: number | null;
  damage: number | null;
}

function cardOf(id: string): Card {
  const card = CARD_BY_ID.get(id);
  // The engine only deals cards of its own set: an unknown id is a server bug, not bad input.
  if (!card) throw new Error(`UniVersus card ${id} is not in the card set`);
  return card;
}

export function universusCardFace(id: string): UniversusCardFace {
  const c = cardOf(id);
  const blockable = c.type === 'CHARACTER' ? null : c;
  const attack = c.type === 'ATTACK' ? c : null;
  return {
    card: c.id,
    name: c.name,
    kind: c.type,
    symbols: [...c.symbols],
    health: c.type === 'CHARACTER' ? c.health : null,
    handSize: c.type === 'CHARACTER' ? c.handSize : null,
    difficulty: blockable?.difficulty ?? null,
    check: blockable?.check ?? null,
    blockZone: blockable?.blockZone ?? null,
    blockModifier: blockable?.blockModifier ?? null,
    zone: attack?.zone ?? null,
    speed: attack?.speed ?? null,
    damage: attack?.damage ?? null,
  };
}

const SEATS = ['p1', 'p2'] as const;

/** Name and printed face of anything that carries a card id. */
const printed = {
  name: (c: { card: string }) => cardOf(c.card).name,
  face: (c: { card: string }) => universusCardFace(c.card),
};

export const universusGraphql: GameGraphql<UniversusView> = {
  matchType: 'UniVersusMatch',
  matchDescription: 'A UniVersus match: health, hands, card pools, stages, momentum and the attack in progress.',
  matchFields,
  typeDefs,
  matchResolvers: {
    turnPlayer: (s: Source) => s.view?.turnPlayer ?? null,
    turnNumber: (s: Source) => s.view?.turnNumber ?? null,
    phase: (s: Source) => s.view?.phase ?? null,
    check: (s: Source) => s.view?.check ?? null,
    // The attack's card is public: it sits in the attacker's pool (placed there before AttackStarted).
    attack: (s: Source) => {
      const g = s.view;
      if (!g?.attack) return null;
      const { id, attacker } = g.attack;
      return { ...g.attack, card: g.players[attacker].cardPool.find((e) => e.id === id)?.card ?? null };
    },
    players: (s: Source) =>
      SEATS.map((seat) => {
        const p = s.view?.players[seat];
        return {
          seat,
          handle: s.seats.find((x) => x.seat === seat)?.handle ?? null,
          character: p?.character ?? null,
          characterFace: p ? universusCardFace(p.character) : null,
          health: p?.health ?? null,
          handSize: p?.handSize ?? null,
          handCount: p?.handCount ?? 0,
          deckCount: p?.deckCount ?? 0,
          removedCount: p?.removedCount ?? 0,
          momentumCount: p?.momentumCount ?? 0,
          discard: p?.discard ?? [],
          cardPool: p?.cardPool ?? [],
          stage: p?.stage ?? [],
        };
      }),
    // Taken from the caller's own seat of their own view: another seat's hand is null there anyway.
    hand: (s: Source) => (s.view && s.seat ? s.view.players[s.seat].hand : null),
    winReason: (s: Source) => s.view?.winReason ?? null,
  },
  typeResolvers: {
    UniVersusCard: printed,
    UniVersusPoolCard: printed,
    UniVersusStageCard: printed,
    UniVersusCheck: printed,
    UniVersusAttack: {
      name: (a: { card: string | null }) => (a.card ? cardOf(a.card).name : null),
      face: (a: { card: string | null }) => (a.card ? universusCardFace(a.card) : null),
    },
  },
  pendingKinds: 'PLAY, AWAIT_COMMIT (shortfall), AWAIT_BLOCK, AWAIT_MOMENTUM',
  pendingFields: {
    shortfall: { type: 'Int', description: 'AWAIT_COMMIT: ready foundations to commit to pass the check.' },
  },
  actionInputFields: {
    cardId: { type: 'String', description: 'PlayCard and Block: the card.' },
    foundationIds: { type: '[String!]', description: 'CommitForCheck: the foundations to commit.' },
    attackIds: { type: '[String!]', description: 'ChooseMomentum: the attacks to take as momentum.' },
  },
  listSizes: {
    'UniVersusMatch.hand': 60,
    'UniVersusMatch.players': 2,
    'UniVersusPlayer.discard': 200,
    'UniVersusPlayer.cardPool': 60,
    'UniVersusPlayer.stage': 60,
  },
};
