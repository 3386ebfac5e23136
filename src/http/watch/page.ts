/**
 * The HTML of the watch page (GET /watch/{id}) and its 404. The server writes only the shell and
 * the link-preview tags (og:title/description/image, from the spectator view); the script
 * (watch.js) fills everything else from the public API, as the reader's own view. Every value
 * interpolated here passes through `escapeHtml`: handles are user input.
 */
import { moduleOf } from '../../games/registry.js';
import type { MatchView } from '../../service/match/types.js';

/** Text for an HTML text node or a double-quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Script from this origin only, no inline script or style, nothing framed; pictures from here
 * and the blob: URLs the script makes of the board SVG it fetched with a seat token.
 */
export const WATCH_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The game's display name; the id of a game this server does not host. */
export const gameName = (id: string): string => moduleOf(id)?.displayName ?? id;

/** A seat by its handle, else "p1"/"p2", or "open seat" while nobody has taken it. */
function label(v: MatchView, seat: string): string {
  const s = v.seats.find((x) => x.seat === seat);
  return s?.handle ?? (s?.joined === false ? 'open seat' : seat);
}

/** "alice vs bob · Evons". */
export function pageTitle(v: MatchView): string {
  return `${label(v, 'p1')} vs ${label(v, 'p2')} · ${gameName(v.gameId)}`;
}

/** One line on the position for link previews: turn, scores or health, whose decision or the result. */
export function pageDescription(v: MatchView): string {
  if (v.status === 'waiting' || !v.game) return `${gameName(v.gameId)} match waiting for a second player.`;
  const game = moduleOf(v.gameId);
  if (!game) return `Match of the game ${gameName(v.gameId)}.`;
  const { turn, score, toMove } = game.watch.preview(v.game, (seat) => label(v, seat));
  let state: string;
  if (v.outcome) {
    const w = v.outcome.winner;
    state = `${w ? `${label(v, w)} won` : 'Drawn'} (${v.outcome.reason})`;
  } else {
    state = toMove ? `${label(v, toMove)} to move` : 'in play';
  }
  return `Turn ${turn} · ${score} · ${state}.`;
}

export interface WatchPageInput {
  view: MatchView;
  /** Absolute base of this server as the reader reached it, e.g. http://localhost:3000. */
  origin: string;
  /** A past version the link points at (its picture previews), or null for the live position. */
  at: number | null;
  /**
   * URLs with a content hash, so a new release is never served a stale file: the page's script and
   * stylesheet, and the match's game's script (null: this server has none for that game).
   */
  assets: { js: string; css: string; game: string | null };
}

export function watchPage({ view, origin, at, assets }: WatchPageInput): string {
  const id = encodeURIComponent(view.id);
  const picture = `${origin}/v1/matches/${id}/board.png${at === null ? '' : `?at=${at}`}`;
  const title = escapeHtml(pageTitle(view));
  const description = escapeHtml(pageDescription(view));
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <meta name="description" content="${description}">
  <meta property="og:type" content="website">
  <meta property="og:site_name" content="Evons match service">
  <meta property="og:title" content="${title}">
  <meta property="og:description" content="${description}">
  <meta property="og:url" content="${escapeHtml(`${origin}/watch/${id}${at === null ? '' : `?at=${at}`}`)}">
  <meta property="og:image" content="${escapeHtml(picture)}">
  <meta property="og:image:type" content="image/png">
  <meta property="og:image:alt" content="${description}">
  <meta name="twitter:card" content="summary_large_image">
  <link rel="stylesheet" href="${escapeHtml(assets.css)}">
  <script type="module" src="${escapeHtml(assets.js)}"></script>
</head>
<body data-match="${escapeHtml(view.id)}" data-game="${escapeHtml(view.gameId)}"${assets.game === null ? '' : ` data-game-script="${escapeHtml(assets.game)}"`}>
  <header class="top">
    <h1 id="title">${title}</h1>
    <p id="connection" class="connection" role="status">Loading…</p>
  </header>
  <main id="main" class="layout">
    <section class="summary" aria-label="Players">
      <p id="status" class="status"></p>
      <div id="players" class="players"></div>
    </section>
    <section class="board" aria-label="Board">
      <figure>
        <p class="note board-hint">The board is wider than this screen: swipe it sideways.</p>
        <img id="board" alt="" hidden>
        <figcaption id="board-note" class="note"></figcaption>
      </figure>
      <div class="history" aria-label="History">
        <input id="slider" type="range" min="1" max="1" value="1" aria-label="Position in the history (event number)">
        <div class="history-buttons">
          <button id="first" type="button" title="First position (Home)">First</button>
          <button id="prev" type="button" title="One event back (←)">◀</button>
          <output id="position" for="slider"></output>
          <button id="next" type="button" title="One event forward (→)">▶</button>
          <button id="live" type="button" title="Live position (End)">Live</button>
        </div>
        <p class="note">← → step one event, PgUp PgDn one listed move, Home End the first and the live position.</p>
      </div>
    </section>
    <aside class="side">
      <section id="hand-box" class="hand" hidden>
        <h2 id="hand-title">Your hand</h2>
        <ul id="hand"></ul>
      </section>
      <form id="seat-form" class="seat-form" autocomplete="off">
        <label for="token">Seat token <span class="note">(kept in this page only)</span></label>
        <div class="row">
          <input id="token" type="password" autocomplete="off" spellcheck="false" placeholder="paste a seat token">
          <button type="submit">View as seat</button>
          <button id="spectate" type="button" hidden>Spectator view</button>
        </div>
        <p id="viewer" class="note">Spectator view.</p>
      </form>
      <section class="moves">
        <h2>Moves</h2>
        <ol id="moves"></ol>
      </section>
    </aside>
  </main>
  <noscript><p>This page needs JavaScript. The match as JSON: <a href="/v1/matches/${id}">/v1/matches/${id}</a>.</p></noscript>
</body>
</html>
`;
}

export function notFoundPage(id: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>No such match</title>
  <meta name="robots" content="noindex">
</head>
<body>
  <h1>No such match</h1>
  <p>There is no match with the id <code>${escapeHtml(id)}</code> on this server.</p>
</body>
</html>
`;
}
