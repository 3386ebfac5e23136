/**
 * Who may see each event, in one place. The engine emits full events; the store keeps them
 * whole; every reader gets `redactEvent(event, viewer)`. Hidden: hands, deck order, covered
 * cards' identities (except to their owner), the seed (until the game ends), deck lists.
 */
import type { GameEvent } from './events.js';
import type { Seat } from './state.js';

export type Viewer = Seat | 'spectator';
export type Visibility = 'public' | Seat | 'server';

export function eventVisibility(e: GameEvent): Visibility {
  switch (e.type) {
    case 'MatchCreated':
    case 'PositionLoaded':
      return 'server';
    case 'CardDrawn':
    case 'CardGrown':
      return e.seat;
    case 'CardPlayed':
      return e.covered ? e.seat : 'public';
    default:
      return 'public';
  }
}

/** What `viewer` may see of `e`: the event itself, its public form, or null. */
export function redactEvent(e: GameEvent, viewer: Viewer): Record<string, unknown> | null {
  const v = eventVisibility(e);
  if (v === 'public' || v === viewer) return e;
  switch (e.type) {
    case 'MatchCreated':
      return {
        type: e.type,
        engineVersion: e.engineVersion,
        rulesHash: e.rulesHash,
        cardSetId: e.cardSetId,
        cardSetHash: e.cardSetHash,
        config: e.config,
        seedCommitment: e.seedCommitment,
        first: e.first,
        // Public: with the seed and deck lists revealed at the end, anyone can re-deal.
        ...(e.rng ? { rng: e.rng } : {}),
      };
    case 'PositionLoaded':
      return {
        type: e.type,
        engineVersion: e.engineVersion,
        rulesHash: e.rulesHash,
        cardSetId: e.cardSetId,
        cardSetHash: e.cardSetHash,
        seedCommitment: e.seedCommitment,
      };
    case 'CardDrawn':
      return { type: e.type, seat: e.seat };
    case 'CardPlayed':
      return { type: e.type, seat: e.seat, card: e.card, cell: e.cell, covered: e.covered, paid: e.paid, total: e.total };
    case 'CardGrown':
      return { type: e.type, seat: e.seat, card: e.card, cell: e.cell };
    default:
      return null;
  }
}
