// The watch page's script (GET /watch/{id}): reads the public API as this reader (a spectator, or
// the seat whose token was typed in) and keeps the page current from the event stream.
// - Everything from the API is put in the page as text (textContent, attributes): no HTML from
//   data, so a handle or a card name can never become markup.
// - The seat token lives in one variable of this module: never in the URL, storage or a cookie.
// - The board picture is fetched (an <img src> cannot send Authorization) and shown through a
//   blob: URL; an SVG shown by <img> runs no script.
// - Nothing here knows a game: the match's game's own script (src/games/<game>/watch.js, served
//   from this origin; its URL is the page's data-game-script) lays out its view and words its
//   events. A game this server has no script for gets a message, not another game's layout.
/* global document, location, history, fetch, Headers, URL, URLSearchParams, Blob, DOMParser, TextDecoder, AbortController, setTimeout, setInterval */
import { createNarrator } from './words.js';

/** @typedef {import('../../games/game-module.js').WatchScript} WatchScript */

const body = document.body;
const matchId = body.dataset.match ?? '';
const base = `/v1/matches/${encodeURIComponent(matchId)}`;
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

const el = {
  main: $('main'),
  title: $('title'),
  connection: $('connection'),
  board: /** @type {HTMLImageElement} */ ($('board')),
  boardNote: $('board-note'),
  slider: /** @type {HTMLInputElement} */ ($('slider')),
  position: $('position'),
  first: /** @type {HTMLButtonElement} */ ($('first')),
  prev: /** @type {HTMLButtonElement} */ ($('prev')),
  next: /** @type {HTMLButtonElement} */ ($('next')),
  live: /** @type {HTMLButtonElement} */ ($('live')),
  status: $('status'),
  players: $('players'),
  handBox: $('hand-box'),
  handTitle: $('hand-title'),
  hand: $('hand'),
  form: /** @type {HTMLFormElement} */ ($('seat-form')),
  token: /** @type {HTMLInputElement} */ ($('token')),
  spectate: /** @type {HTMLButtonElement} */ ($('spectate')),
  viewer: $('viewer'),
  moves: $('moves'),
};

/** The page's state. `token` is the only copy of the seat token: page memory, nothing else. */
const state = {
  game: body.dataset.game ?? '',
  /** @type {string | null} */ token: null,
  /** @type {string | null} */ seat: null,
  /** @type {number | null} null: follow the live position; else the version shown. */ at: initialAt(),
  /** The latest version known (events seen, or the view's version). */ version: 0,
  /** @type {any} */ view: null,
  /** When `view` was read (ms, this browser's clock), for the running clock. */ readAt: 0,
  /** Listed moves: seq and words, oldest first. @type {{ seq: number, text: string }[]} */ moves: [],
  /** Bumped whenever the reader changes: stale fetches and streams of the old one stop. */ generation: 0,
  finished: false,
};

/** Card id → printed name, from the game's public card list. @type {Map<string, string>} */
const cardNames = new Map();
const cardName = (/** @type {string} */ id) => cardNames.get(id) ?? id;
/** The match's game's script, loaded before anything is shown. @type {WatchScript} */
let game;
/** @type {(e: any) => string | null} */
let narrate;

function newNarrator() {
  return createNarrator({ words: game.words, cardName: (id) => cardNames.get(id), seatLabel });
}

function initialAt() {
  const raw = new URLSearchParams(location.search).get('at');
  return raw !== null && /^\d{1,10}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
}

/** "alice", or "p1" when the seat has no handle, or "open seat" while nobody has taken it. */
function seatLabel(/** @type {string} */ seat) {
  const s = state.view?.seats?.find((/** @type {any} */ x) => x.seat === seat);
  return s?.handle ?? (s?.joined === false ? 'open seat' : seat);
}

/** A fetch of this match's API as the current reader. */
function api(/** @type {string} */ path, /** @type {RequestInit} */ init = {}) {
  const headers = new Headers(init.headers);
  if (state.token) headers.set('authorization', `Bearer ${state.token}`);
  return fetch(path, { ...init, headers, cache: 'no-cache' });
}

// ------------------------------------------------------------------ rendering

/** A new element with text (never HTML) and optional class. */
function node(/** @type {string} */ tag, /** @type {string} */ text = '', /** @type {string} */ cls = '') {
  const n = document.createElement(tag);
  if (text) n.textContent = text;
  if (cls) n.className = cls;
  return n;
}

function formatMs(/** @type {number} */ ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  if (d > 0) return `${d}d ${two(h)}h`;
  if (h > 0) return `${h}:${two(m)}:${two(sec)}`;
  return `${m}:${two(sec)}`;
}

/** Time left for a seat now: the running seat's clock counts down from the read while live. */
function clockLeft(/** @type {any} */ clock, /** @type {string} */ seat) {
  const left = clock.remainingMs[seat];
  return clock.running === seat && state.at === null && !state.finished ? left - (Date.now() - state.readAt) : left;
}

/** A decision's kind in words: `AWAIT_MOMENTUM` → "await momentum", `reveal-order` → "reveal order". */
const decision = (/** @type {string} */ kind) => kind.toLowerCase().replace(/[_-]+/g, ' ');

function renderPlayers() {
  const v = state.view;
  const g = v?.game ?? null;
  const toMove = g ? game.toMove(g) : null;
  const pending = toMove?.seat ?? null;
  const boxes = ['p1', 'p2'].map((seat) => {
    const info = v?.seats?.find((/** @type {any} */ x) => x.seat === seat);
    const box = node('section', '', `player ${seat}${pending === seat && !v.outcome ? ' to-move' : ''}`);
    box.dataset.seat = seat;
    const head = node('h2');
    head.append(node('span', '', 'swatch'), node('span', seatLabel(seat), 'handle'));
    const tags = [seat];
    if (info?.verified) tags.push('verified');
    if (info?.bot) tags.push('bot');
    if (state.seat === seat) tags.push('you');
    head.append(node('span', tags.join(' · '), 'tags'));
    box.append(head);
    const facts = node('dl');
    for (const [k, val] of g ? game.seatFacts(g, seat, cardName) : []) facts.append(node('dt', k), node('dd', val));
    if (v?.clock) {
      facts.append(node('dt', 'Clock'));
      const dd = node('dd', formatMs(clockLeft(v.clock, seat)), 'clock');
      dd.dataset.seat = seat;
      facts.append(dd);
    }
    box.append(facts);
    if (toMove && pending === seat && !v.outcome) box.append(node('p', `To move: ${decision(toMove.kind)}`, 'badge'));
    return box;
  });
  el.players.replaceChildren(...boxes);
}

function tickClocks() {
  const clock = state.view?.clock;
  if (!clock) return;
  for (const dd of el.players.querySelectorAll('dd.clock')) {
    const seat = /** @type {HTMLElement} */ (dd).dataset.seat ?? '';
    dd.textContent = formatMs(clockLeft(clock, seat));
  }
}

function renderStatus() {
  const v = state.view;
  if (!v) return;
  let text;
  if (v.outcome) {
    const w = v.outcome.winner;
    text = `${w ? `${seatLabel(w)} won` : 'Drawn'} (${v.outcome.reason}).`;
  } else if (v.status === 'waiting' || !v.game) {
    text = 'Waiting for a second player to join.';
  } else {
    const toMove = game.toMove(v.game);
    text = `Turn ${game.turn(v.game)}. ${toMove ? `${seatLabel(toMove.seat)} to move (${decision(toMove.kind)}).` : ''}`;
  }
  el.status.textContent = text;
  el.title.textContent = `${seatLabel('p1')} vs ${seatLabel('p2')}`;
}

/** The reader's own hand, from the reader's view (a spectator's view has none). */
function renderHand() {
  const g = state.view?.game;
  const seat = state.seat;
  const cards = !g || !seat ? null : game.hand(g, seat, cardName);
  if (!cards) {
    el.handBox.hidden = true;
    el.hand.replaceChildren();
    return;
  }
  el.handBox.hidden = false;
  el.handTitle.textContent = `Hand of ${seatLabel(seat ?? '')} (${cards.length})`;
  el.hand.replaceChildren(...cards.map((name) => node('li', name)));
}

function renderHistory() {
  const max = Math.max(state.version, 1);
  const shown = state.at ?? max;
  el.slider.max = String(max);
  el.slider.value = String(shown);
  el.slider.disabled = state.version < 1;
  el.position.textContent = state.at === null ? `Live · event ${max}` : `Event ${shown} of ${max}`;
  el.first.disabled = shown <= 1;
  el.prev.disabled = shown <= 1;
  el.next.disabled = state.at === null;
  el.live.disabled = state.at === null;
  el.live.classList.toggle('behind', state.at !== null);
  for (const li of el.moves.children) {
    const item = /** @type {HTMLElement} */ (li);
    const current = Number(item.dataset.seq) <= shown && !(Number(item.dataset.next) <= shown);
    if (current) item.setAttribute('aria-current', 'step');
    else item.removeAttribute('aria-current');
    item.classList.toggle('future', Number(item.dataset.seq) > shown);
  }
}

/** Newest first; each entry is a button that shows the position right after it. */
function renderMoves() {
  const items = [];
  for (let i = state.moves.length - 1; i >= 0; i--) {
    const m = state.moves[i];
    const li = node('li');
    li.dataset.seq = String(m.seq);
    li.dataset.next = String(state.moves[i + 1]?.seq ?? Infinity);
    const b = node('button', '', 'move');
    b.type = 'button';
    b.append(node('span', String(m.seq), 'seq'), node('span', m.text, 'text'));
    b.addEventListener('click', () => go(m.seq));
    li.append(b);
    items.push(li);
  }
  el.moves.replaceChildren(...items);
  renderHistory();
}

// ------------------------------------------------------------------ the board picture

let pictureUrl = '';

/** The picture of the position shown, as this reader may see it; its <title>/<desc> become the alt text. */
async function showPicture(/** @type {number} */ gen, /** @type {number | null} */ at) {
  const res = await api(`${base}/board.svg${at === null ? '' : `?at=${at}`}`);
  if (gen !== state.generation) return;
  if (!res.ok) {
    el.board.hidden = true;
    el.boardNote.textContent = `No board picture (HTTP ${res.status}).`;
    return;
  }
  const svg = await res.text();
  if (gen !== state.generation) return;
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const words = ['title', 'desc'].map((t) => doc.querySelector(t)?.textContent?.trim() ?? '').filter(Boolean);
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const old = pictureUrl;
  pictureUrl = url;
  el.board.src = url;
  el.board.alt = words.join('. ') || 'The board';
  el.board.hidden = false;
  el.boardNote.textContent = '';
  if (old) URL.revokeObjectURL(old);
}

// ------------------------------------------------------------------ reading the match

let refreshing = false;
let refreshAgain = false;

/** Reads the view (and picture) for the position shown; calls made while one runs fold into one more. */
async function refresh() {
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  refreshing = true;
  try {
    do {
      refreshAgain = false;
      const gen = state.generation;
      const at = state.at;
      const res = await api(`${base}${at === null ? '' : `?at=${at}`}`);
      if (gen !== state.generation) continue;
      if (res.status === 400 && at !== null) {
        // ?at= past the end (or nonsense): show the live position instead.
        go(null);
        continue;
      }
      if (!res.ok) {
        el.status.textContent = `Could not read the match (HTTP ${res.status}).`;
        continue;
      }
      const view = await res.json();
      if (gen !== state.generation) continue;
      state.view = view;
      state.readAt = Date.now();
      state.version = Math.max(state.version, at === null ? view.version : 0);
      if (at === null && view.outcome) state.finished = true;
      await showPicture(gen, at);
      if (gen !== state.generation || at !== state.at) continue;
      renderStatus();
      renderPlayers();
      renderHand();
      renderHistory();
      // What the page shows now, for anyone (a test, a screen reader) waiting on it.
      el.main.dataset.version = String(at ?? view.version);
      el.main.dataset.viewer = view.seat ?? 'spectator';
    } while (refreshAgain);
  } finally {
    refreshing = false;
  }
}

/** Shows version `at` (null or the latest: live), and keeps ?at= in the address (never the token). */
function go(/** @type {number | null} */ at) {
  const target = at === null || at >= state.version ? null : Math.max(1, Math.floor(at));
  if (target === state.at) return;
  state.at = target;
  const url = new URL(location.href);
  if (target === null) url.searchParams.delete('at');
  else url.searchParams.set('at', String(target));
  history.replaceState(null, '', url);
  renderHistory();
  void refresh();
}

/** The last event seq read (events, stream): the stream goes on after it. */
let lastSeq = 0;

function addEvents(/** @type {any[]} */ events) {
  let added = false;
  for (const e of events) {
    if (typeof e.seq !== 'number' || e.seq <= lastSeq) continue;
    lastSeq = e.seq;
    state.version = Math.max(state.version, e.seq);
    const text = narrate(e);
    if (text) state.moves.push({ seq: e.seq, text });
    added = true;
  }
  return added;
}

async function loadEvents(/** @type {number} */ gen) {
  for (;;) {
    const res = await api(`${base}/events?after=${lastSeq}&limit=500`);
    if (gen !== state.generation || !res.ok) return;
    const page = await res.json();
    if (gen !== state.generation) return;
    addEvents(page.events);
    state.version = Math.max(state.version, page.version);
    if (!page.hasMore) return;
  }
}

/** @type {AbortController | null} */
let streamAbort = null;

/** Follows the NDJSON stream from the last event seen; reconnects after a cut, a shutdown or an error. */
async function follow(/** @type {number} */ gen) {
  let delay = 500;
  while (gen === state.generation && !state.finished) {
    const ctl = new AbortController();
    streamAbort = ctl;
    let ended = false;
    try {
      const res = await api(`${base}/stream?after=${lastSeq}`, { signal: ctl.signal });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      setConnection('live', 'Live');
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        const events = [];
        for (const line of lines) {
          if (!line.trim()) continue; // keep-alive
          const msg = JSON.parse(line);
          if (typeof msg.seq === 'number') events.push(msg);
          else if (msg.end === 'finished') ended = true;
        }
        if (gen !== state.generation) return;
        if (addEvents(events)) {
          delay = 500;
          renderMoves();
          if (state.at === null) void refresh();
        }
      }
    } catch (_err) {
      if (gen !== state.generation) return;
    }
    if (ended) {
      state.finished = true;
      setConnection('over', 'Match over');
      void refresh();
      return;
    }
    setConnection('retry', 'Reconnecting…');
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 10_000);
  }
  if (state.finished && gen === state.generation) setConnection('over', 'Match over');
}

function setConnection(/** @type {string} */ kind, /** @type {string} */ text) {
  el.connection.textContent = text;
  el.connection.dataset.state = kind;
}

/** (Re)reads everything as the current reader: events, view, picture, then follows the stream. */
async function start() {
  if (!game) return;
  const gen = ++state.generation;
  streamAbort?.abort();
  state.moves = [];
  state.finished = false;
  lastSeq = 0;
  narrate = newNarrator();
  // The view first: the move list names the seats by their handles.
  await refresh();
  await loadEvents(gen);
  if (gen !== state.generation) return;
  renderMoves();
  void follow(gen);
}

// ------------------------------------------------------------------ controls

el.slider.addEventListener('input', () => go(Number(el.slider.value)));
el.first.addEventListener('click', () => go(1));
el.prev.addEventListener('click', () => go((state.at ?? state.version) - 1));
el.next.addEventListener('click', () => go((state.at ?? state.version) + 1));
el.live.addEventListener('click', () => go(null));

/** The listed move before or after the position shown. */
function moveStep(/** @type {-1 | 1} */ dir) {
  const shown = state.at ?? state.version;
  const seqs = state.moves.map((m) => m.seq);
  const target = dir < 0 ? seqs.filter((s) => s < shown).pop() : seqs.find((s) => s > shown);
  go(target ?? (dir < 0 ? 1 : null));
}

document.addEventListener('keydown', (e) => {
  const t = /** @type {HTMLElement | null} */ (e.target);
  // Typing in the token field, or the slider moving itself: not ours.
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA') && t !== el.slider) return;
  if (t === el.slider && (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End')) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const shown = state.at ?? state.version;
  const keys = /** @type {Record<string, () => void>} */ ({
    ArrowLeft: () => (e.shiftKey ? moveStep(-1) : go(shown - 1)),
    ArrowRight: () => (e.shiftKey ? moveStep(1) : go(shown + 1)),
    PageUp: () => moveStep(-1),
    PageDown: () => moveStep(1),
    Home: () => go(1),
    End: () => go(null),
  });
  const act = keys[e.key];
  if (!act) return;
  e.preventDefault();
  act();
});

el.form.addEventListener('submit', (e) => {
  e.preventDefault();
  const token = el.token.value.trim();
  if (!token) return;
  void (async () => {
    // Checked before it is used: a wrong token leaves the page as it was.
    const res = await fetch(base, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
    if (!res.ok) {
      el.viewer.textContent =
        res.status === 401 ? 'That token is not a seat of this match.' : `The token was refused (HTTP ${res.status}).`;
      return;
    }
    const view = await res.json();
    el.token.value = '';
    state.token = token;
    state.seat = view.seat ?? null;
    el.viewer.textContent = state.seat
      ? `Viewing as ${state.seat} (the token stays in this page only).`
      : 'That token holds no seat here: spectator view.';
    el.spectate.hidden = false;
    await start();
  })();
});

el.spectate.addEventListener('click', () => {
  state.token = null;
  state.seat = null;
  el.spectate.hidden = true;
  el.viewer.textContent = 'Spectator view.';
  void start();
});

setInterval(tickClocks, 1000);

/** The game's script, else why not: this server has none for the match's game, or it did not load. */
async function loadGame() {
  const url = body.dataset.gameScript;
  if (!url) return `This page cannot show matches of the game "${state.game}": this server has no watch page for it.`;
  try {
    return /** @type {WatchScript} */ ((await import(url)).default);
  } catch (_err) {
    return `This page cannot show this match: the script for the game "${state.game}" did not load.`;
  }
}

// The game's script and the card names come first: the panels and the move list need both.
void (async () => {
  const [script] = await Promise.all([
    loadGame(),
    (async () => {
      try {
        const res = await fetch(`/v1/games/${encodeURIComponent(state.game)}/cards`);
        if (res.ok) for (const c of (await res.json()).cards) cardNames.set(c.id, c.name);
      } catch (_err) {
        // Without names the page shows card ids.
      }
    })(),
  ]);
  if (typeof script === 'string') {
    setConnection('failed', 'Not shown');
    el.status.textContent = script;
    el.form.hidden = true;
    return;
  }
  game = script;
  setConnection('loading', 'Connecting…');
  await start();
})();
