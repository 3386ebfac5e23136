/**
 * The HTML of the public tournament page (GET /tournament/{id}) and its 404: everything rendered
 * on the server from the tournament's view and standings, with no script at all (the CSP allows
 * none). Every value interpolated here passes through `escapeHtml`: the tournament's name and
 * the handles are user input.
 */
import type { TimeControl } from '../../core/clock.js';
import type { StandingsView, TournamentBoardView, TournamentView } from '../../service/tournaments/tournament-views.js';
import { escapeHtml, gameName } from '../watch/page.js';

/**
 * Stricter than the watch page's: no script at all, styles and pictures from this origin only,
 * nothing framed. (A `<meta http-equiv="refresh">` needs no permission.)
 */
export const TOURNAMENT_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Rows of standings, and boards, one page shows: a 1,000-player Swiss was 20.9 MB of HTML, most of
 * it a million-cell crosstable and every round's 500 boards.
 */
export const PAGE_ROWS = 100;
/** The crosstable is drawn up to this many players; past it, the CSV has it. */
export const CROSSTABLE_MAX_PLAYERS = 32;

/** Which part of a large tournament a page shows (its query: ?standings=, ?round=, ?boards=). */
export interface PagePart {
  /** The standings page, from 1. */
  standings: number;
  /** The round whose boards are shown when they do not all fit; null: the latest. */
  round: number | null;
  /** That round's boards page, from 1. */
  boards: number;
}

export const FIRST_PART: PagePart = { standings: 1, round: null, boards: 1 };

/** How often a running (or not yet started) tournament's page reloads itself, in seconds. */
export const REFRESH_SECONDS = 60;

const FORMATS: Record<TournamentView['format'], string> = {
  swiss: 'Swiss',
  'round-robin': 'Round robin',
  'double-round-robin': 'Double round robin',
};

const STATUS: Record<TournamentView['status'], string> = {
  open: 'Open for entries',
  running: 'Running',
  finished: 'Finished',
  canceled: 'Canceled',
};

export function timeControlText(tc: TimeControl): string {
  if (tc.kind === 'correspondence') return `Correspondence, ${tc.daysPerMove} ${tc.daysPerMove === 1 ? 'day' : 'days'} per move`;
  if (tc.kind === 'live') {
    const m = tc.initialSeconds / 60;
    const initial = Number.isInteger(m) ? `${m} min` : `${tc.initialSeconds} s`;
    return `Live, ${initial} + ${tc.incrementSeconds} s`;
  }
  return 'No clock';
}

/** An instant as UTC in a <time> element (no script, so no local time): "2026-11-27 14:00 UTC". */
function when(iso: string): string {
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(text)}</time>`;
}

/** Points as chess writes them: 2½, ½, 3. */
export function pointsText(p: number): string {
  const whole = Math.floor(p);
  const half = p - whole >= 0.5 ? '½' : '';
  return whole === 0 && half ? half : `${whole}${half}`;
}

/** A tiebreak: halves as ½, anything finer with two decimals. */
function tiebreakText(v: number): string {
  return Number.isInteger(v * 2) ? pointsText(v) : v.toFixed(2);
}

/** "1–0", "0–1", "½–½", forfeits "+ –" style with the word; "bye"; "playing" while the match runs. */
export function resultText(b: TournamentBoardView): string {
  switch (b.result) {
    case null:
      return 'playing';
    case 'bye':
      return 'bye';
    case 'draw':
      return '½–½';
    case 'double-forfeit':
      return '0–0 (double forfeit)';
    case 'p1':
      return b.forfeit ? '1–0 (forfeit)' : '1–0';
    case 'p2':
      return b.forfeit ? '0–1 (forfeit)' : '0–1';
  }
}

/** How many rounds the tournament will have, when known (a round robin learns it at the start). */
function roundsOf(t: TournamentView): number | null {
  if (t.rounds !== null) return t.rounds;
  const n = t.players.length;
  if (t.format === 'swiss' || n < 2) return null;
  const single = n % 2 === 0 ? n - 1 : n;
  return t.format === 'double-round-robin' ? 2 * single : single;
}

function statusLine(t: TournamentView): string {
  const rounds = roundsOf(t);
  switch (t.status) {
    case 'open':
      return t.startsAt ? `Open for entries; starts ${when(t.startsAt)}` : 'Open for entries; the organizer starts it';
    case 'running': {
      const deadline = t.roundEndsAt ? `; the round ends ${when(t.roundEndsAt)}` : '; the round lasts until its matches end';
      return `Round ${t.round}${rounds === null ? '' : ` of ${rounds}`}${deadline}`;
    }
    case 'finished':
      return `Finished after ${t.round} ${t.round === 1 ? 'round' : 'rounds'}${t.finishedAt ? ` on ${when(t.finishedAt)}` : ''}`;
    case 'canceled':
      return 'Canceled before it started';
  }
}

function facts(t: TournamentView): string {
  const rows: [string, string][] = [
    ['Game', escapeHtml(gameName(t.game))],
    ['Format', escapeHtml(FORMATS[t.format] ?? t.format)],
    ['Rounds', String(roundsOf(t) ?? '—')],
    ['Time control', escapeHtml(timeControlText(t.timeControl))],
    ['Rated', t.rated ? 'yes' : 'no'],
    ['Organizer', escapeHtml(t.organizer)],
    ['Players', `${t.players.length} (at most ${t.maxPlayers})`],
  ];
  return `<dl class="facts">\n${rows.map(([k, v]) => `      <div><dt>${k}</dt><dd>${v}</dd></div>`).join('\n')}\n    </dl>`;
}

/** The page's own URL with `part` changed (relative, so it works behind any prefix). */
function partHref(id: string, part: PagePart): string {
  const q = new URLSearchParams();
  if (part.standings > 1) q.set('standings', String(part.standings));
  if (part.round !== null) q.set('round', String(part.round));
  if (part.boards > 1) q.set('boards', String(part.boards));
  const query = q.toString();
  return `/tournament/${encodeURIComponent(id)}${query ? `?${query}` : ''}`;
}

/** "Page 2 of 10" with its neighbours' links, for a list cut into pages; nothing for one page. */
function pager(label: string, page: number, pages: number, href: (page: number) => string): string {
  if (pages <= 1) return '';
  const prev = page > 1 ? `<a rel="prev" href="${escapeHtml(href(page - 1))}">Previous</a>` : '';
  const next = page < pages ? `<a rel="next" href="${escapeHtml(href(page + 1))}">Next</a>` : '';
  return `<nav class="pager" aria-label="${escapeHtml(label)}">${prev} <span>Page ${page} of ${pages}</span> ${next}</nav>`;
}

const pageCount = (n: number): number => Math.max(1, Math.ceil(n / PAGE_ROWS));
const clamp = (page: number, pages: number): number => Math.min(Math.max(1, Math.floor(page) || 1), pages);

function standingsTable(t: TournamentView, s: StandingsView, part: PagePart): string {
  if (s.standings.length === 0) return '<p class="note">Nobody has entered yet.</p>';
  const pages = pageCount(s.standings.length);
  const page = clamp(part.standings, pages);
  const rows = s.standings
    .slice((page - 1) * PAGE_ROWS, page * PAGE_ROWS)
    .map(
      (r) =>
        `<tr${r.withdrawn ? ' class="withdrawn"' : ''}><td class="num">${r.rank}</td><th scope="row">${escapeHtml(r.handle)}${
          r.withdrawn ? ' <span class="tag">withdrawn</span>' : ''
        }</th><td class="num">${pointsText(r.points)}</td><td class="num">${tiebreakText(r.directEncounter)}</td><td class="num">${tiebreakText(r.buchholz)}</td><td class="num">${tiebreakText(
          r.sonnebornBerger,
        )}</td><td class="num">${r.games}</td></tr>`,
    );
  return `<div class="scroll" tabindex="0" role="region" aria-label="Standings table">
      <table class="standings">
        <thead><tr><th scope="col" class="num">#</th><th scope="col">Player</th><th scope="col" class="num">Points</th><th scope="col" class="num"><abbr title="Direct encounter">DE</abbr></th><th scope="col" class="num"><abbr title="Buchholz">Bh</abbr></th><th scope="col" class="num"><abbr title="Sonneborn-Berger">SB</abbr></th><th scope="col" class="num">Games</th></tr></thead>
        <tbody>
          ${rows.join('\n          ')}
        </tbody>
      </table>
    </div>
    ${pager('Standings pages', page, pages, (n) => partHref(t.id, { ...part, standings: n }))}
    <p class="note">Ties are broken by the direct encounter (DE), then Buchholz (Bh), then Sonneborn-Berger (SB).</p>`;
}

function crosstableTable(t: TournamentView, s: StandingsView): string {
  const { players, points, cells } = s.crosstable;
  if (players.length === 0) return '';
  if (players.length > CROSSTABLE_MAX_PLAYERS) {
    return `<section aria-labelledby="crosstable-title">
    <h2 id="crosstable-title">Crosstable</h2>
    <p class="note">${players.length} players are too many for a table here: every result is in <a href="/v1/tournaments/${encodeURIComponent(t.id)}/standings.csv">the standings as CSV</a>.</p>
  </section>`;
  }
  const head = players.map((_, j) => `<th scope="col" class="num">${j + 1}</th>`).join('');
  const rows = players.map((p, i) => {
    const row = players
      .map((_, j) =>
        i === j ? '<td class="self" aria-label="—"></td>' : `<td class="num">${escapeHtml((cells[i]?.[j] ?? []).join(' '))}</td>`,
      )
      .join('');
    return `<tr><td class="num">${i + 1}</td><th scope="row">${escapeHtml(p)}</th>${row}<td class="num">${pointsText(points[i] ?? 0)}</td></tr>`;
  });
  return `<section aria-labelledby="crosstable-title">
    <h2 id="crosstable-title">Crosstable</h2>
    <div class="scroll fit" tabindex="0" role="region" aria-label="Crosstable">
      <table class="crosstable">
        <thead><tr><th scope="col" class="num">#</th><th scope="col">Player</th>${head}<th scope="col" class="num">Points</th></tr></thead>
        <tbody>
          ${rows.join('\n          ')}
        </tbody>
      </table>
    </div>
    <p class="note">1 win, ½ draw, 0 loss, + forfeit win, − forfeit loss; a bye is not shown here.</p>
  </section>`;
}

/**
 * Every round's boards when they fit on one page (most tournaments); else the links to each round
 * and one round's boards, a page at a time.
 */
function roundsSection(t: TournamentView, part: PagePart): string {
  const rounds = [...t.pairings].sort((a, b) => b.round - a.round);
  if (rounds.length === 0) return '<p class="note">No round has started yet.</p>';
  const boards = rounds.reduce((n, r) => n + r.boards.length, 0);
  if (boards <= PAGE_ROWS) return rounds.map((r) => roundSection(t, r, r.boards)).join('\n    ');
  const shown = rounds.find((r) => r.round === part.round) ?? rounds[0]!;
  const pages = pageCount(shown.boards.length);
  const page = clamp(part.boards, pages);
  const links = rounds
    .slice()
    .reverse()
    .map((r) =>
      r.round === shown.round
        ? `<strong aria-current="page">${r.round}</strong>`
        : `<a href="${escapeHtml(partHref(t.id, { ...part, round: r.round, boards: 1 }))}">${r.round}</a>`,
    )
    .join(' ');
  return `<nav class="pager" aria-label="Rounds">Round: ${links}</nav>
    ${roundSection(t, shown, shown.boards.slice((page - 1) * PAGE_ROWS, page * PAGE_ROWS))}
    ${pager(`Round ${shown.round} board pages`, page, pages, (n) => partHref(t.id, { ...part, round: shown.round, boards: n }))}`;
}

function roundSection(t: TournamentView, round: { round: number }, boards: TournamentBoardView[]): string {
  const rows = boards.map((b) => {
    const watch = b.matchId === null ? '' : `<a href="/watch/${encodeURIComponent(b.matchId)}">Watch</a>`;
    const p2 = b.p2 === null ? '<span class="note">bye</span>' : escapeHtml(b.p2);
    const cls = b.result === null ? 'playing' : b.forfeit ? 'forfeit' : b.result === 'bye' ? 'bye' : 'done';
    return `<tr class="${cls}"><td class="num">${b.board}</td><td>${escapeHtml(b.p1)}</td><td class="result">${escapeHtml(resultText(b))}</td><td>${p2}</td><td class="link">${watch}</td></tr>`;
  });
  const current = t.status === 'running' && round.round === t.round;
  return `<section class="round" aria-labelledby="round-${round.round}">
      <h3 id="round-${round.round}">Round ${round.round}${current ? ' <span class="tag">now</span>' : ''}</h3>
      <div class="scroll" tabindex="0" role="region" aria-label="Round ${round.round} boards">
        <table class="boards">
          <thead><tr><th scope="col" class="num"><abbr title="Board">#</abbr></th><th scope="col">First seat</th><th scope="col">Result</th><th scope="col">Second seat</th><th scope="col"><span class="sr">Link</span></th></tr></thead>
          <tbody>
            ${rows.join('\n            ')}
          </tbody>
        </table>
      </div>
    </section>`;
}

export interface TournamentPageInput {
  tournament: TournamentView;
  standings: StandingsView;
  /** The stylesheet's URL, with a content hash. */
  css: string;
  /** Which page of the standings and boards (default: the first of each, the latest round). */
  part?: PagePart;
}

export function tournamentPage({ tournament: t, standings: s, css, part = FIRST_PART }: TournamentPageInput): string {
  const id = encodeURIComponent(t.id);
  const name = escapeHtml(t.name);
  const refresh = t.status === 'running' || t.status === 'open';
  const standingsTitle = s.final
    ? 'Final standings'
    : s.round > 0
      ? `Standings after round ${s.round}${t.status === 'running' ? ' (so far)' : ''}`
      : 'Players';
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${name} · ${escapeHtml(gameName(t.game))} tournament</title>${refresh ? `\n  <meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : ''}
  <meta name="description" content="${escapeHtml(`${FORMATS[t.format] ?? t.format} tournament of ${gameName(t.game)}, organized by ${t.organizer}: ${STATUS[t.status] ?? t.status}.`)}">
  <link rel="stylesheet" href="${escapeHtml(css)}">
</head>
<body data-tournament="${escapeHtml(t.id)}" data-status="${escapeHtml(t.status)}">
  <header class="top">
    <h1 id="title">${name}</h1>
    <p id="status" class="status" role="status">${statusLine(t)}</p>
  </header>
  <main id="main">
    ${facts(t)}
    <section aria-labelledby="standings-title">
      <h2 id="standings-title">${escapeHtml(standingsTitle)}</h2>
      ${standingsTable(t, s, part)}
    </section>
    ${crosstableTable(t, s)}
    <section aria-labelledby="rounds-title">
      <h2 id="rounds-title">Rounds</h2>
      ${roundsSection(t, part)}
    </section>
  </main>
  <footer class="note">
    ${refresh ? `This page reloads itself every ${REFRESH_SECONDS} seconds. ` : ''}As JSON: <a href="/v1/tournaments/${id}">the tournament</a>, <a href="/v1/tournaments/${id}/standings">the standings</a>; <a href="/v1/tournaments/${id}/standings.csv">the standings as CSV</a>.
  </footer>
</body>
</html>
`;
}

export function tournamentNotFoundPage(id: string, css: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>No such tournament</title>
  <meta name="robots" content="noindex">
  <link rel="stylesheet" href="${escapeHtml(css)}">
</head>
<body>
  <h1>No such tournament</h1>
  <p>There is no tournament with the id <code>${escapeHtml(id)}</code> on this server.</p>
</body>
</html>
`;
}
