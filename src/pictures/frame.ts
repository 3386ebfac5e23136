/**
 * What every picture says besides the game itself, taken from the caller's match view: which
 * match, who sits where (handles are public), who is looking, and how the match ended (an
 * ending outside the game, a timeout or an abort, is the match's, not the game's). Clocks are
 * left out on purpose: they change between versions, and a picture is cached per version.
 */
import type { Seat, Viewer } from '../core/ruleset.js';

export const SEATS = ['p1', 'p2'] as const satisfies readonly Seat[];

export interface PictureFrame {
  matchId: string;
  status: 'waiting' | 'active' | 'finished';
  viewer: Viewer;
  handles: Record<Seat, string | null>;
  /** How the match ended (the match view's `outcome`); null while it runs. */
  outcome: { winner: Seat | null; reason: string; seat?: Seat | null } | null;
}

/** "p1 (alice)", or "p1" for a seat without a handle. */
export function seatLabel(f: PictureFrame, s: Seat): string {
  const h = f.handles[s];
  return h ? `${s} (${h})` : s;
}

/** The seat colours (p1 blue, p2 red): a strong one for lines and text, a light one for fills. */
export const SEAT_COLOUR: Record<Seat, { strong: string; light: string; mid: string }> = {
  p1: { strong: '#1d4ed8', light: '#dbeafe', mid: '#93c5fd' },
  p2: { strong: '#b91c1c', light: '#fee2e2', mid: '#fca5a5' },
};

/** "p1 (alice) wins: main-zone-full", "Draw: stalemate", "p2 (bob) wins: p1 timed out". */
export function outcomeWords(f: PictureFrame): string | null {
  const o = f.outcome;
  if (!o) return null;
  const why = o.seat ? `${o.reason} (${o.seat})` : o.reason;
  return o.winner ? `${seatLabel(f, o.winner)} wins: ${why}` : `No winner: ${why}`;
}

/** Who looks: "as p1 (alice)" or "spectator view". */
export function viewerWords(f: PictureFrame): string {
  return f.viewer === 'spectator' ? 'spectator view' : `as ${seatLabel(f, f.viewer)}`;
}

/**
 * Both games' pictures are this wide, in SVG units. Every text about a card (its name, cost and
 * stats) is at least CARD_FONT units, so a picture shown 720 px wide or more (12/13 of the width;
 * the watch page's CSS keeps it so) or as the default 800 px PNG draws it at 12 px or more.
 */
export const PICTURE_WIDTH = 780;
export const CARD_FONT = 13;

/**
 * Text that stays readable over arrows, bands and patterns: a white halo drawn under the glyphs
 * (paint-order stroke, which Chromium and resvg both honour).
 */
export const HALO = { stroke: '#ffffff', 'stroke-width': 3, 'stroke-linejoin': 'round', 'paint-order': 'stroke' } as const;
