/**
 * The UniVersus position as a picture, drawn from one caller's view (src/games/universus/view.ts)
 * and the public card list (names, the character's printed health, an attack's zone, speed and
 * damage): each seat's health bar, hand, deck, discard (count and top card), removed and momentum
 * counts, stage (ready or committed foundations) and card pool, the attack and the check in
 * progress, and whose decision it is. A hand is named only in its own seat's picture. Each seat's
 * cards fill the picture's width, four to a row, so a card's name, cost and stats are at least
 * CARD_FONT (frame.ts).
 */
import type { Seat } from '../../core/ruleset.js';
import { CARD_BY_ID } from './cards/index.js';
import type { PlayerView, UniversusView } from './view.js';
import {
  CARD_FONT,
  HALO,
  PICTURE_WIDTH,
  SEATS,
  SEAT_COLOUR,
  outcomeWords,
  seatLabel,
  viewerWords,
  type PictureFrame,
} from '../../pictures/frame.js';
import { clip, document, el, num, text, wrap } from '../../pictures/svg.js';

const WIDTH = PICTURE_WIDTH;
const MARGIN = 18;
const INK = '#111827';
const MUTED = '#4b5563';
const HIGHLIGHT = '#d97706';
const ZONES = ['HIGH', 'MID', 'LOW'] as const;
/** A seat's band: its inside starts here. */
const INNER_X = MARGIN + 12;
const INNER_W = WIDTH - 2 * INNER_X;
const GAP = 6;
const PER_ROW = 4;
const CARD_W = (INNER_W - (PER_ROW - 1) * GAP) / PER_ROW;
const CARD_H = 92;
/** At most this many rows of cards per zone; the rest are counted. */
const MAX_ROWS = 2;

const nameOf = (card: string): string => CARD_BY_ID.get(card)?.name ?? (card === '' ? 'unknown card' : card);

/**
 * The printed facts worth two lines under the name: an attack's zone, speed and damage, then what
 * every card has, its difficulty (the cost of playing it) and check.
 */
function factsOf(card: string): string[] {
  const c = CARD_BY_ID.get(card);
  if (!c) return [];
  if (c.type === 'CHARACTER') return ['character', `health ${c.health}`];
  const cost = `diff ${c.difficulty} · chk ${c.check}`;
  return c.type === 'ATTACK' ? [`${c.zone} · spd ${c.speed} · dmg ${c.damage}`, cost] : ['foundation', cost];
}

/** The character's printed health (the bar's full length); the current health when unknown or higher. */
function maxHealth(p: PlayerView): number {
  const c = CARD_BY_ID.get(p.character);
  const printed = c?.type === 'CHARACTER' ? c.health : 0;
  return Math.max(printed, p.health, 1);
}

interface SmallCard {
  card: string;
  tag: string;
  dim: boolean;
  marked: boolean;
}

function smallCard(c: SmallCard, x: number, y: number, seat: Seat): string {
  const colour = SEAT_COLOUR[seat];
  const lines = wrap(nameOf(c.card), 20, 2);
  const mid = x + CARD_W / 2;
  return el(
    'g',
    {},
    el('rect', {
      x,
      y,
      width: CARD_W,
      height: CARD_H,
      rx: 5,
      fill: c.dim ? '#e5e7eb' : '#ffffff',
      stroke: c.marked ? HIGHLIGHT : colour.strong,
      'stroke-width': c.marked ? 3 : 1.5,
      'stroke-dasharray': c.dim ? '4 3' : null,
    }),
    ...lines.map((l, i) =>
      text(mid, y + 18 + i * 16, l, { 'font-size': 14, 'font-weight': 'bold', 'text-anchor': 'middle', fill: c.dim ? MUTED : INK }),
    ),
    ...factsOf(c.card).map((l, i) => text(mid, y + 53 + i * 16, l, { 'font-size': CARD_FONT, 'text-anchor': 'middle', fill: INK })),
    text(mid, y + CARD_H - 6, c.tag, {
      'font-size': 12,
      'font-weight': 'bold',
      'text-anchor': 'middle',
      fill: c.marked ? HIGHLIGHT : colour.strong,
    }),
  );
}

/** A labelled row (or two) of small cards; returns its height. */
function cardRow(label: string, cards: SmallCard[], x: number, y: number, seat: Seat): { svg: string; height: number } {
  const out = [text(x, y + 14, `${label} (${cards.length})`, { 'font-size': 14, 'font-weight': 'bold', fill: MUTED })];
  const room = PER_ROW * MAX_ROWS;
  const shown = cards.length > room ? cards.slice(0, room - 1) : cards;
  const at = (i: number): [number, number] => [x + (i % PER_ROW) * (CARD_W + GAP), y + 22 + Math.floor(i / PER_ROW) * (CARD_H + GAP)];
  shown.forEach((c, i) => out.push(smallCard(c, ...at(i), seat)));
  if (shown.length < cards.length) {
    const [mx, my] = at(shown.length);
    out.push(
      text(mx + CARD_W / 2, my + CARD_H / 2 + 5, `+${cards.length - shown.length} more`, {
        'font-size': 14,
        'text-anchor': 'middle',
        fill: MUTED,
      }),
    );
  }
  const rows = Math.max(1, Math.ceil(Math.min(cards.length, room) / PER_ROW));
  if (cards.length === 0) out.push(text(x, y + 40, 'none', { 'font-size': 13, fill: MUTED }));
  return { svg: el('g', {}, ...out), height: 22 + (cards.length === 0 ? 26 : rows * (CARD_H + GAP)) };
}

function playerBand(f: PictureFrame, v: UniversusView, s: Seat, y: number): { svg: string; height: number } {
  const p = v.players[s];
  const colour = SEAT_COLOUR[s];
  const out: string[] = [];
  const deciding = v.pending?.seat === s && v.phase !== 'OVER' && !f.outcome;
  const tags = [v.turnPlayer === s ? 'turn player' : '', f.viewer === s ? 'you' : ''].filter(Boolean).join(', ');
  const right = WIDTH - INNER_X;
  // Top: who, character, health, counts, the hand when the picture is this seat's.
  const top: string[] = [];
  let ly = y + 26;
  top.push(text(INNER_X, ly, clip(seatLabel(f, s), 30), { 'font-size': 17, 'font-weight': 'bold', fill: colour.strong }));
  if (tags) top.push(text(right, ly, tags, { 'font-size': 13, 'text-anchor': 'end', fill: MUTED }));
  ly += 22;
  top.push(text(INNER_X, ly, clip(nameOf(p.character), 40), { 'font-size': 15, 'font-weight': 'bold', fill: INK }));
  if (deciding) top.push(text(right, ly, 'to decide', { 'font-size': 14, 'font-weight': 'bold', 'text-anchor': 'end', fill: HIGHLIGHT }));
  ly += 10;
  const max = maxHealth(p);
  const barW = INNER_W;
  top.push(el('rect', { x: INNER_X, y: ly, width: barW, height: 20, rx: 4, fill: '#e5e7eb', stroke: '#9ca3af', 'stroke-width': 1 }));
  top.push(
    el('rect', { x: INNER_X, y: ly, width: (barW * p.health) / max, height: 20, rx: 4, fill: p.health * 4 <= max ? '#dc2626' : '#16a34a' }),
  );
  top.push(
    text(INNER_X + barW / 2, ly + 15, `Health ${p.health} / ${max}`, {
      'font-size': 14,
      'font-weight': 'bold',
      'text-anchor': 'middle',
      fill: INK,
      ...HALO,
    }),
  );
  ly += 20;
  const last = p.discard.at(-1);
  const lines = [
    `Hand ${p.handCount} (size ${p.handSize}) · Deck ${p.deckCount} · Momentum ${p.momentumCount} · Removed ${p.removedCount}`,
    `Discard ${p.discard.length}${last ? `, top: ${clip(nameOf(last.card), 40)}` : ''}`,
  ];
  for (const l of lines) {
    ly += 20;
    top.push(text(INNER_X, ly, l, { 'font-size': 14, fill: INK }));
  }
  for (const l of p.hand ? wrap(`In hand: ${p.hand.map((h) => nameOf(h.card)).join(', ') || 'nothing'}`, 88, 5) : []) {
    ly += 18;
    top.push(text(INNER_X, ly, l, { 'font-size': CARD_FONT, fill: INK }));
  }
  // Below: the stage (foundations, ready or committed) and the card pool.
  const attackId = v.attack?.id ?? null;
  const stage = cardRow(
    'Stage',
    p.stage.map((e) => ({ card: e.card, tag: e.committed ? 'COMMITTED' : 'READY', dim: e.committed, marked: false })),
    INNER_X,
    ly + 12,
    s,
  );
  const pool = cardRow(
    'Card pool',
    p.cardPool.map((e) => ({
      card: e.card,
      // PLAYED is the usual role: only a block says its role.
      tag: [e.role === 'BLOCK' ? 'BLOCK' : '', e.dealtDamage ? 'HIT' : '', e.built ? 'BUILT' : '', e.id === attackId ? 'ATTACKING' : '']
        .filter(Boolean)
        .join(' · '),
      dim: false,
      marked: e.id === attackId,
    })),
    INNER_X,
    ly + 12 + stage.height + 4,
    s,
  );
  const height = ly + 12 + stage.height + 4 + pool.height + 6 - y;
  out.push(
    el('rect', {
      x: MARGIN,
      y,
      width: WIDTH - 2 * MARGIN,
      height,
      rx: 8,
      fill: colour.light,
      stroke: deciding ? HIGHLIGHT : colour.mid,
      'stroke-width': deciding ? 3 : 1.5,
    }),
  );
  out.push(...top, stage.svg, pool.svg);
  return { svg: el('g', {}, ...out), height };
}

/** Whose decision it is, in words. */
export function pendingWords(f: PictureFrame, v: UniversusView): string {
  const p = v.pending;
  if (!p) return v.phase === 'OVER' ? 'The game is over.' : `Phase ${v.phase}.`;
  const who = seatLabel(f, p.seat);
  switch (p.kind) {
    case 'PLAY':
      return `${who} to play a card or pass.`;
    case 'AWAIT_COMMIT':
      return `${who} commits ${p.shortfall} foundation${p.shortfall === 1 ? '' : 's'} to pass the check, or declines.`;
    case 'AWAIT_BLOCK':
      return `${who} blocks the attack or declines.`;
    case 'AWAIT_MOMENTUM':
      return `${who} picks attacks to add to momentum.`;
  }
}

function attackWords(v: UniversusView): string {
  const a = v.attack;
  if (!a) return 'No attack in progress.';
  const card = v.players[a.attacker].cardPool.find((e) => e.id === a.id)?.card ?? '';
  return `Attack by ${a.attacker}: ${nameOf(card)}, ${a.zone}, speed ${a.speed}, damage ${a.damage}.`;
}

function checkWords(v: UniversusView): string {
  const c = v.check;
  return c
    ? `Check: ${c.seat} tries to ${c.purpose === 'PLAY' ? 'play' : 'block with'} ${nameOf(c.card)}, difficulty ${c.difficulty}.`
    : '';
}

function middleBand(v: UniversusView, y: number): { svg: string; height: number } {
  const out: string[] = [];
  const height = 80;
  out.push(el('rect', { x: MARGIN, y, width: WIDTH - 2 * MARGIN, height, rx: 8, fill: '#f8fafc', stroke: '#cbd5e1', 'stroke-width': 1 }));
  // The words left of the three zones, wrapped; the check under them across the band.
  wrap(attackWords(v), 54, 2).forEach((l, i) =>
    out.push(
      text(INNER_X, y + 26 + i * 20, l, { 'font-size': 15, 'font-weight': v.attack ? 'bold' : 'normal', fill: v.attack ? INK : MUTED }),
    ),
  );
  const check = checkWords(v);
  if (check) out.push(text(INNER_X, y + 70, clip(check, 90), { 'font-size': 14, fill: INK }));
  // The three zones, the attack's filled.
  ZONES.forEach((z, i) => {
    const x = WIDTH - INNER_X - (3 - i) * 64 + 4;
    const on = v.attack?.zone === z;
    out.push(
      el('rect', { x, y: y + 10, width: 60, height: 34, rx: 4, fill: on ? HIGHLIGHT : '#ffffff', stroke: '#94a3b8', 'stroke-width': 1 }),
    );
    out.push(text(x + 30, y + 32, z, { 'font-size': 13, 'font-weight': 'bold', 'text-anchor': 'middle', fill: on ? '#ffffff' : MUTED }));
  });
  return { svg: el('g', {}, ...out), height };
}

/** What the highlights mean: one row under the bands. */
function legend(y: number): string {
  const out: string[] = [];
  out.push(
    el('rect', { x: MARGIN + 1.5, y: y - 13.5, width: 17, height: 17, rx: 3, fill: '#ffffff', stroke: HIGHLIGHT, 'stroke-width': 3 }),
  );
  out.push(text(MARGIN + 26, y + 1, 'The attacking card; the border of the seat to decide', { 'font-size': 13, fill: INK }));
  const x = MARGIN + 400;
  out.push(
    el('rect', {
      x: x + 0.75,
      y: y - 12.75,
      width: 17,
      height: 17,
      rx: 3,
      fill: '#e5e7eb',
      stroke: MUTED,
      'stroke-width': 1.5,
      'stroke-dasharray': '4 3',
    }),
  );
  out.push(text(x + 26, y + 1, 'Committed foundation', { 'font-size': 13, fill: INK }));
  return el('g', {}, ...out);
}

/** The seat whose decision is pending and what it does, for the headline: "p2 to block". */
function toMove(v: UniversusView): string {
  const p = v.pending;
  if (!p || v.phase === 'OVER') return '';
  const verb = { PLAY: 'play', AWAIT_COMMIT: 'commit', AWAIT_BLOCK: 'block', AWAIT_MOMENTUM: 'pick momentum' }[p.kind];
  return ` · ${p.seat} to ${verb}`;
}

function describe(f: PictureFrame, v: UniversusView): string {
  const seat = (s: Seat) => {
    const p = v.players[s];
    const top = p.discard.at(-1);
    const hand = p.hand ? ` (${p.hand.map((h) => nameOf(h.card)).join(', ') || 'empty'})` : '';
    const stage = p.stage.length > 0 ? p.stage.map((e) => `${nameOf(e.card)} ${e.committed ? 'committed' : 'ready'}`).join(', ') : 'empty';
    const pool =
      p.cardPool.length > 0
        ? p.cardPool.map((e) => `${nameOf(e.card)} ${e.role.toLowerCase()}${e.dealtDamage ? ' that dealt damage' : ''}`).join(', ')
        : 'empty';
    return (
      `${seatLabel(f, s)} plays ${nameOf(p.character)}: health ${p.health} of ${maxHealth(p)}, ${p.handCount} in hand${hand}, ${p.deckCount} in deck, ` +
      `discard ${p.discard.length}${top ? ` (top ${nameOf(top.card)})` : ''}, momentum ${p.momentumCount}, removed ${p.removedCount}; stage: ${stage}; card pool: ${pool}.`
    );
  };
  return [
    `UniVersus match ${f.matchId}, ${viewerWords(f)}. Turn ${v.turnNumber}, ${v.turnPlayer}'s turn, phase ${v.phase}.`,
    outcomeWords(f) ?? pendingWords(f, v),
    attackWords(v),
    checkWords(v),
    ...SEATS.map(seat),
  ]
    .filter(Boolean)
    .join(' ');
}

export function renderUniversusBoard(f: PictureFrame, v: UniversusView): string {
  const headline = outcomeWords(f) ?? pendingWords(f, v);
  const out: string[] = [
    // Who is to act is the pending decision's seat, not the turn player's: a block is the defender's.
    text(MARGIN, 32, `UniVersus · turn ${v.turnNumber}${toMove(v)}`, { 'font-size': 22, 'font-weight': 'bold', fill: INK }),
    text(MARGIN, 60, clip(headline, 84), {
      'font-size': 15,
      fill: f.outcome ? HIGHLIGHT : INK,
      'font-weight': f.outcome ? 'bold' : 'normal',
    }),
  ];
  // p2 above, p1 below, the fight between them.
  let y = 80;
  const top = playerBand(f, v, 'p2', y);
  out.push(top.svg);
  y += top.height + 12;
  const mid = middleBand(v, y);
  out.push(mid.svg);
  y += mid.height + 12;
  const bottom = playerBand(f, v, 'p1', y);
  out.push(bottom.svg);
  y += bottom.height + 28;
  out.push(legend(y));
  y += 26;
  out.push(text(MARGIN, y, `${clip(f.matchId, 40)} · ${viewerWords(f)}`, { 'font-size': 12, fill: MUTED }));
  y += 14;
  const title = `UniVersus match ${f.matchId}, turn ${v.turnNumber}: health p1 ${v.players.p1.health}, p2 ${v.players.p2.health}. ${headline}`;
  return document({ width: WIDTH, height: Number(num(y)), title, desc: describe(f, v), body: out.join('') });
}
