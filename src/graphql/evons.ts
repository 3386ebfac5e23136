/**
 * The EvonsMatch fields: the board, graveyards, credits and scores, read from the caller's view
 * (the engine computed it for them, so nothing here can show more than they may see). Printed
 * card data comes from the card set, resolved only when a query asks for it.
 */
import { cardFace, defaultCardSet, type GameView, type Seat } from '../games/evons/index.js';
import type { MatchView } from '../service/match-service.js';
import type { MatchSource } from './match-source.js';

type EvonsSource = MatchSource<Extract<MatchView, { gameId: 'evons' }>>;

const cardSet = defaultCardSet();
const face = (defId: string) => cardFace(cardSet.byId.get(defId)!);
const game = (s: EvonsSource): GameView | null => s.mv.game;

export const evonsMatchResolvers = {
  turn: (s: EvonsSource) => game(s)?.turn ?? null,
  active: (s: EvonsSource) => game(s)?.active ?? null,
  first: (s: EvonsSource) => game(s)?.first ?? null,
  step: (s: EvonsSource) => game(s)?.step ?? null,
  result: (s: EvonsSource) => game(s)?.result ?? null,
  credits: (s: EvonsSource) => {
    const g = game(s);
    return g ? { p1: g.seats.p1.credits, p2: g.seats.p2.credits } : null;
  },
  scores: (s: EvonsSource) => {
    const g = game(s);
    return g ? { p1: g.seats.p1.score, p2: g.seats.p2.score } : null;
  },
  board: (s: EvonsSource) => (game(s)?.board ?? []).map((c) => ({ name: c.cell, zone: c.zone, card: c.card })),
  graveyards: (s: EvonsSource) => {
    const g = game(s);
    return { p1: g?.seats.p1.graveyard ?? [], p2: g?.seats.p2.graveyard ?? [] };
  },
  removed: (s: EvonsSource) => game(s)?.removed ?? [],
  hand: (s: EvonsSource) => {
    const g = game(s);
    const seat = s.mv.seat as Seat | null;
    return g && seat ? g.seats[seat].hand : null;
  },
  players: (s: EvonsSource) => {
    const g = game(s);
    return (['p1', 'p2'] as const).map((seat) => {
      const info = s.mv.seats.find((x) => x.seat === seat);
      const sv = g?.seats[seat];
      return {
        seat,
        handle: info?.handle ?? null,
        credits: sv?.credits ?? 0,
        score: sv?.score ?? 0,
        handCount: sv?.handCount ?? 0,
        deckCount: sv?.deckCount ?? 0,
      };
    });
  },
};

export const evonsTypeResolvers = {
  BoardCard: {
    face: (c: { defId: string | null }) => (c.defId ? face(c.defId) : null),
  },
  Card: {
    face: (c: { defId: string }) => face(c.defId),
  },
};
