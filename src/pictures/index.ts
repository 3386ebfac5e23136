/**
 * Board pictures: the caller's match view (the body of GET /v1/matches/{id}, already redacted for
 * them) drawn as a self-contained SVG by the game's own renderer. Pure: the same view gives the
 * same bytes, and nothing reaches a picture that is not in the view (the card lists read to name
 * a card are public, GET /v1/games/{game}/cards). Each game's module (src/games/<game>/module.ts)
 * supplies its renderer, and the caller passes it (src/http/board-picture.ts takes it from the
 * registry): this module knows no game, and draws what every picture has.
 */
import type { Seat } from '../core/ruleset.js';
import { outcomeWords, seatLabel, viewerWords, SEATS, type PictureFrame } from './frame.js';
import { document, text } from './svg.js';

/** What a picture reads of a match view (the service's MatchView has these fields and more). */
export interface PictureView {
  id: string;
  gameId: string;
  status: PictureFrame['status'];
  /** The caller's seat; null for a spectator. */
  seat: Seat | null;
  seats: readonly { seat: Seat; handle: string | null }[];
  outcome: PictureFrame['outcome'];
  /** The game's own view for the caller; null before the deal. */
  game: unknown;
}

/**
 * A game's renderer (its module's `picture`), for the game of the view it is given: each takes
 * its own game's view, which the caller guarantees by taking it from the view's game.
 */
export type BoardRenderer = (frame: PictureFrame, game: never) => string;

/**
 * Part of every picture's ETag: bump it whenever a renderer draws anything differently, so that
 * no cache keeps an old drawing of a version under a tag that now means another one.
 */
export const PICTURE_VERSION = 2;

function frameOf(v: PictureView): PictureFrame {
  const handle = (s: Seat) => v.seats.find((x) => x.seat === s)?.handle ?? null;
  return {
    matchId: v.id,
    status: v.status,
    viewer: v.seat ?? 'spectator',
    handles: { p1: handle('p1'), p2: handle('p2') },
    outcome: v.outcome,
  };
}

/** Before the deal (a seat still open) there is no position: the picture says who is waiting. */
function waitingPicture(f: PictureFrame, gameId: string): string {
  const seated = SEATS.filter((s) => f.handles[s] !== null).map((s) => seatLabel(f, s));
  const words = outcomeWords(f) ?? `Waiting for an opponent to join${seated.length ? `; seated: ${seated.join(', ')}` : ''}.`;
  return document({
    width: 600,
    height: 160,
    title: `${gameId} match ${f.matchId}: ${words}`,
    desc: `${gameId} match ${f.matchId}, ${viewerWords(f)}. ${words}`,
    body:
      text(24, 48, `${gameId} · match ${f.matchId}`, { 'font-size': 22, 'font-weight': 'bold', fill: '#111827' }) +
      text(24, 92, words, { 'font-size': 16, fill: '#4b5563' }),
  });
}

/** The picture of a match view: the game's board by `render` (the view's game's), or the waiting picture before the deal. */
export function drawBoardSvg(view: PictureView, render: BoardRenderer): string {
  const f = frameOf(view);
  if (view.game === null) return waitingPicture(f, view.gameId);
  return (render as (f: PictureFrame, game: unknown) => string)(f, view.game);
}
