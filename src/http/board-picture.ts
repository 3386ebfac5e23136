/**
 * The board picture of a match view, drawn by the renderer of the view's own game from the
 * registry (src/pictures draws what every picture has and knows no game).
 */
import { GAME_MODULES } from '../games/registry.js';
import { drawBoardSvg } from '../pictures/index.js';
import type { MatchView } from '../service/match/types.js';

/** The SVG picture of one caller's match view (GET /v1/matches/{id}/board.svg). */
export function renderBoardSvg(view: MatchView): string {
  return drawBoardSvg(view, GAME_MODULES[view.gameId].picture);
}
