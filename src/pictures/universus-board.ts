/**
 * The UniVersus position as a picture, drawn from one caller's view (src/games/universus/view.ts)
 * and the public card list (names, the character's printed health, an attack's zone, speed and
 * damage): each seat's health bar, hand, deck, discard (count and top card), removed and momentum
 * counts, stage (ready or committed foundations) and card pool, the attack and the check in
 * progress, and whose decision it is. A hand is named only in its own seat's picture.
 */
import type { Seat } from '../core/ruleset.js';
import { CARD_BY_ID } from '../games/universus/cards/index.js';
import type { PlayerView, UniversusView } from '../games/universus/view.js';
import { SEATS, SEAT_COLOUR, outcomeWords, seatLabel, viewerWords, type PictureFrame } from './frame.js';
import { clip, document, el, num, text, wrap } from './svg.js';

const WIDTH = 1000;
const INK = '#111827';
const MUTED = '#4b5563';
const HIGHLIGHT = '#d97706';
const ZONES = ['HIGH', 'MID', 'LOW'] as const;
const LEFT_W = 330;
const CARDS_X = 24 + LEFT_W + 20;
const CARD_W = 98;
const CARD_H = 54;
const PER_ROW = Math.floor((WIDTH - 24 - CARDS_X + 6) / (CARD_W + 6));
/** At most this many rows of cards per zone; the rest are counted. */
const MAX_ROWS = 2;

const nameOf = (card: string): string => CARD_BY_ID.get(card)?.name ?? (card === '' ? 'unknown card' : card);

/** The printed facts worth a line under the name: an attack's zone, speed and damage; a foundation's check. */
function factsOf(card: string): string {
  const c = CARD_BY_ID.get(card);
  if (!c) return '';
  if (c.type === 'ATTACK') return `${c.zone} · spd ${c.speed} · dmg ${c.damage}`;
  if (c.type === 'FOUNDATION') return `foundation · chk ${c.check}`;
  return 'character';
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
  const lines = wrap(nameOf(c.card), 16, 2);
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
    ...lines.map((l, i) => text(x + CARD_W / 2, y + 14 + i * 11, l, { 'font-size': 9.5, 'text-anchor': 'middle', fill: c.dim ? MUTED : INK })),
    text(x + CARD_W / 2, y + 38, factsOf(c.card), { 'font-size': 8, 'text-anchor': 'middle', fill: MUTED }),
    text(x + CARD_W / 2, y + 49, c.tag, { 'font-size': 8, 'font-weight': 'bold', 'text-anchor': 'middle', fill: c.marked ? HIGHLIGHT : colour.strong }),
  );
}

/** A labelled row (or two) of small cards; returns its height. */
function cardRow(label: string, cards: SmallCard[], x: number, y: number, seat: Seat): { svg: string; height: number } {
  const out = [text(x, y + 12, `${label} (${cards.length})`, { 'font-size': 12, 'font-weight': 'bold', fill: MUTED })];
  const room = PER_ROW * MAX_ROWS;
  const shown = cards.length > room ? cards.slice(0, room - 1) : cards;
  shown.forEach((c, i) => out.push(smallCard(c, x + (i % PER_ROW) * (CARD_W + 6), y + 18 + Math.floor(i / PER_ROW) * (CARD_H + 6), seat)));
  if (shown.length < cards.length) {
    const i = shown.length;
    out.push(text(x + (i % PER_ROW) * (CARD_W + 6) + CARD_W / 2, y + 18 + Math.floor(i / PER_ROW) * (CARD_H + 6) + 30, `+${cards.length - i} more`, { 'font-size': 11, 'text-anchor': 'middle', fill: MUTED }));
  }
  const rows = Math.max(1, Math.ceil(Math.min(cards.length, room) / PER_ROW));
  if (cards.length === 0) out.push(text(x, y + 36, 'none', { 'font-size': 11, fill: MUTED }));
  return { svg: el('g', {}, ...out), height: 18 + (cards.length === 0 ? 26 : rows * (CARD_H + 6)) };
}

function playerBand(f: PictureFrame, v: UniversusView, s: Seat, y: number): { svg: string; height: number } {
  const p = v.players[s];
  const colour = SEAT_COLOUR[s];
  const out: string[] = [];
  const deciding = v.pending?.seat === s && v.phase !== 'OVER' && !f.outcome;
  const tags = [v.turnPlayer === s ? 'turn player' : '', f.viewer === s ? 'you' : ''].filter(Boolean).join(', ');
  // Left: who, health, counts, the hand when the picture is this seat's.
  const left: string[] = [];
  let ly = y + 24;
  left.push(text(36, ly, clip(seatLabel(f, s), 24), { 'font-size': 17, 'font-weight': 'bold', fill: colour.strong }));
  if (tags) left.push(text(24 + LEFT_W - 8, ly, tags, { 'font-size': 11, 'text-anchor': 'end', fill: MUTED }));
  ly += 20;
  left.push(text(36, ly, clip(nameOf(p.character), 26), { 'font-size': 14, fill: INK }));
  ly += 12;
  const max = maxHealth(p);
  const barW = LEFT_W - 40;
  left.push(el('rect', { x: 36, y: ly, width: barW, height: 16, rx: 4, fill: '#e5e7eb', stroke: '#9ca3af', 'stroke-width': 1 }));
  left.push(el('rect', { x: 36, y: ly, width: (barW * p.health) / max, height: 16, rx: 4, fill: p.health * 4 <= max ? '#dc2626' : '#16a34a' }));
  left.push(text(36 + barW / 2, ly + 12.5, `Health ${p.health} / ${max}`, { 'font-size': 11, 'font-weight': 'bold', 'text-anchor': 'middle', fill: INK }));
  ly += 16;
  const top = p.discard.at(-1);
  const lines = [
    `Hand ${p.handCount} (size ${p.handSize}) · Deck ${p.deckCount}`,
    `Discard ${p.discard.length}${top ? `, top: ${clip(nameOf(top.card), 20)}` : ''}`,
    `Momentum ${p.momentumCount} · Removed ${p.removedCount}`,
  ];
  for (const l of lines) {
    ly += 19;
    left.push(text(36, ly, l, { 'font-size': 13, fill: INK }));
  }
  for (const l of p.hand ? wrap(`In hand: ${p.hand.map((h) => nameOf(h.card)).join(', ') || 'nothing'}`, 48, 5) : []) {
    ly += 14;
    left.push(text(36, ly, l, { 'font-size': 10.5, fill: INK }));
  }
  // Right: the stage (foundations, ready or committed) and the card pool.
  const attackId = v.attack?.id ?? null;
  const stage = cardRow(
    'Stage',
    p.stage.map((e) => ({ card: e.card, tag: e.committed ? 'COMMITTED' : 'READY', dim: e.committed, marked: false })),
    CARDS_X,
    y + 10,
    s,
  );
  const pool = cardRow(
    'Card pool',
    p.cardPool.map((e) => ({
      card: e.card,
      tag: [e.role, e.dealtDamage ? 'HIT' : '', e.built ? 'BUILT' : '', e.id === attackId ? 'ATTACKING' : ''].filter(Boolean).join(' · '),
      dim: false,
      marked: e.id === attackId,
    })),
    CARDS_X,
    y + 10 + stage.height + 6,
    s,
  );
  const height = Math.max(ly - y + 14, 10 + stage.height + 6 + pool.height + 8);
  out.push(el('rect', { x: 24, y, width: WIDTH - 48, height, rx: 8, fill: colour.light, stroke: deciding ? HIGHLIGHT : colour.mid, 'stroke-width': deciding ? 3 : 1.5 }));
  out.push(...left, stage.svg, pool.svg);
  if (deciding) out.push(text(24 + LEFT_W - 8, y + 44, 'to decide', { 'font-size': 13, 'font-weight': 'bold', 'text-anchor': 'end', fill: HIGHLIGHT }));
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
  return c ? `Check: ${c.seat} tries to ${c.purpose === 'PLAY' ? 'play' : 'block with'} ${nameOf(c.card)}, difficulty ${c.difficulty}.` : '';
}

function middleBand(v: UniversusView, y: number): { svg: string; height: number } {
  const out: string[] = [];
  out.push(el('rect', { x: 24, y, width: WIDTH - 48, height: 64, rx: 8, fill: '#f8fafc', stroke: '#cbd5e1', 'stroke-width': 1 }));
  out.push(text(36, y + 26, attackWords(v), { 'font-size': 15, 'font-weight': v.attack ? 'bold' : 'normal', fill: v.attack ? INK : MUTED }));
  const check = checkWords(v);
  if (check) out.push(text(36, y + 50, check, { 'font-size': 13, fill: INK }));
  // The three zones, the attack's filled.
  ZONES.forEach((z, i) => {
    const x = WIDTH - 36 - (3 - i) * 72;
    const on = v.attack?.zone === z;
    out.push(el('rect', { x, y: y + 14, width: 66, height: 36, rx: 4, fill: on ? HIGHLIGHT : '#ffffff', stroke: '#94a3b8', 'stroke-width': 1 }));
    out.push(text(x + 33, y + 37, z, { 'font-size': 12, 'font-weight': 'bold', 'text-anchor': 'middle', fill: on ? '#ffffff' : MUTED }));
  });
  return { svg: el('g', {}, ...out), height: 64 };
}

function describe(f: PictureFrame, v: UniversusView): string {
  const seat = (s: Seat) => {
    const p = v.players[s];
    const top = p.discard.at(-1);
    const hand = p.hand ? ` (${p.hand.map((h) => nameOf(h.card)).join(', ') || 'empty'})` : '';
    const stage = p.stage.length > 0 ? p.stage.map((e) => `${nameOf(e.card)} ${e.committed ? 'committed' : 'ready'}`).join(', ') : 'empty';
    const pool = p.cardPool.length > 0 ? p.cardPool.map((e) => `${nameOf(e.card)} ${e.role.toLowerCase()}${e.dealtDamage ? ' that dealt damage' : ''}`).join(', ') : 'empty';
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
  const health = `${v.players.p1.health}–${v.players.p2.health}`;
  const out: string[] = [
    text(24, 32, `UniVersus · turn ${v.turnNumber}${v.phase === 'OVER' ? '' : ` · ${v.turnPlayer} to move`} · health ${health}`, { 'font-size': 22, 'font-weight': 'bold', fill: INK }),
    text(WIDTH - 24, 32, `${clip(f.matchId, 28)} · ${viewerWords(f)}`, { 'font-size': 12, 'text-anchor': 'end', fill: MUTED }),
    text(24, 60, clip(headline, 110), { 'font-size': 15, fill: f.outcome ? HIGHLIGHT : INK, 'font-weight': f.outcome ? 'bold' : 'normal' }),
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
  y += bottom.height + 16;
  const title = `UniVersus match ${f.matchId}, turn ${v.turnNumber}: health p1 ${v.players.p1.health}, p2 ${v.players.p2.health}. ${headline}`;
  return document({ width: WIDTH, height: Number(num(y)), title, desc: describe(f, v), body: out.join('') });
}
