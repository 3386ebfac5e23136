/**
 * The Evons position as a picture, drawn from one caller's view (src/games/evons/view.ts) and
 * nothing else: the 7×7 board with the 5×5 main zone outlined (R-BOARD-4), every card in its
 * owner's colour with a band on the edge it faces (R-BOARD-9: printed up toward row 0 when it faces
 * the first player) in the facing seat's colour, current ATK/DEF (damage marked), its arrows turned
 * to the board by kind, covered cards face down (named only where the view names them), each
 * seat's score, credits, hand, deck and graveyard (count and top card), and whose decision it is.
 * The same words are in `<desc>` for screen readers.
 */
import { DELTA, type Direction } from '../games/evons/board.js';
import type { ArrowType } from '../games/evons/cards.js';
import type { BoardCardView, GameView } from '../games/evons/view.js';
import type { Seat } from '../core/ruleset.js';
import { SEATS, SEAT_COLOUR, outcomeWords, seatLabel, viewerWords, type PictureFrame } from './frame.js';
import { clip, document, el, num, points, text, wrap } from './svg.js';

const WIDTH = 1000;
const CELL = 84;
const PAD = 4;
const CARD = CELL - 2 * PAD;
const BOARD_X = 48;
const BOARD_Y = 96;
const SIDE = 7;
const COLUMNS = ['X', 'A', 'B', 'C', 'D', 'E', 'Y'];
const PANEL_X = BOARD_X + SIDE * CELL + 28;
const PANEL_W = WIDTH - PANEL_X - 24;
const INK = '#111827';
const MUTED = '#4b5563';
const HIGHLIGHT = '#d97706';

/** How each arrow kind is drawn: Normal a dark triangle, Block a bar, each ability a lettered badge in its colour. */
export const ARROW_STYLE: Record<ArrowType, { colour: string; mark: 'triangle' | 'bar' | 'badge'; letter: string }> = {
  Normal: { colour: '#1f2937', mark: 'triangle', letter: '' },
  Block: { colour: '#475569', mark: 'bar', letter: '' },
  Remove: { colour: '#be185d', mark: 'badge', letter: 'X' },
  Firestorm: { colour: '#ea580c', mark: 'badge', letter: 'F' },
  Growth: { colour: '#15803d', mark: 'badge', letter: 'G' },
  Magnetism: { colour: '#0e7490', mark: 'badge', letter: 'M' },
  Resurrection: { colour: '#6d28d9', mark: 'badge', letter: 'R' },
  Shockwave: { colour: '#a16207', mark: 'badge', letter: 'W' },
  Swap: { colour: '#78350f', mark: 'badge', letter: 'S' },
};

const cellXY = (index: number): [number, number] => [BOARD_X + (index % SIDE) * CELL, BOARD_Y + Math.floor(index / SIDE) * CELL];

/** One arrow on the edge (or corner) of a card whose top-left corner is (x, y). */
function arrowMark(x: number, y: number, dir: Direction, type: ArrowType): string {
  const [dx, dy] = DELTA[dir];
  return markAt(x + CARD / 2 + (dx * CARD) / 2, y + CARD / 2 + (dy * CARD) / 2, dir, type);
}

/** An arrow mark whose point is at (cx, cy), pointing `dir`. */
function markAt(cx: number, cy: number, dir: Direction, type: ArrowType): string {
  const [dx, dy] = DELTA[dir];
  const len = Math.hypot(dx, dy);
  const [ux, uy] = [dx / len, dy / len];
  const [px, py] = [-uy, ux];
  const style = ARROW_STYLE[type];
  const at = (along: number, across: number): [number, number] => [cx + ux * along + px * across, cy + uy * along + py * across];
  if (style.mark === 'triangle') {
    return el('polygon', { points: points([at(3, 0), at(-9, 6.5), at(-9, -6.5)]), fill: style.colour });
  }
  if (style.mark === 'bar') {
    return el('polygon', { points: points([at(2, 8), at(2, -8), at(-4, -8), at(-4, 8)]), fill: style.colour, stroke: '#ffffff', 'stroke-width': 1 });
  }
  const [bx, by] = at(-10, 0);
  return (
    el('polygon', { points: points([at(3.5, 0), at(-4, 4.5), at(-4, -4.5)]), fill: style.colour }) +
    el('circle', { cx: bx, cy: by, r: 6.5, fill: style.colour, stroke: '#ffffff', 'stroke-width': 1 }) +
    text(bx, by + 3.5, style.letter, { 'font-size': 9.5, 'font-weight': 'bold', fill: '#ffffff', 'text-anchor': 'middle' })
  );
}

function cardPicture(card: BoardCardView, index: number, first: Seat): string {
  const [cx, cy] = cellXY(index);
  const x = cx + PAD;
  const y = cy + PAD;
  const owner = SEAT_COLOUR[card.owner];
  const out: string[] = [];
  const face = card.covered ? `url(#covered-${card.owner})` : owner.light;
  out.push(el('rect', { x, y, width: CARD, height: CARD, rx: 6, fill: face, stroke: owner.strong, 'stroke-width': 2 }));
  // The band on the edge the card's printed top points to, in the colour of the seat it faces.
  const bandY = card.facing === first ? y : y + CARD - 6;
  out.push(el('rect', { x: x + 1, y: bandY, width: CARD - 2, height: 6, fill: SEAT_COLOUR[card.facing].strong }));
  const mid = x + CARD / 2;
  const nameLines = card.name === null ? [] : wrap(card.name, 11, 2);
  const nameAttrs = { 'font-size': 9, 'text-anchor': 'middle', fill: INK, ...(card.covered ? { 'font-style': 'italic' } : {}) };
  if (card.covered) {
    const label = card.name === null ? 'face down' : 'covered';
    out.push(el('rect', { x: x + 10, y: y + 48, width: CARD - 20, height: 14, rx: 3, fill: '#ffffff', opacity: 0.85 }));
    out.push(text(mid, y + 58, label, { 'font-size': 9, 'text-anchor': 'middle', fill: MUTED }));
    if (nameLines.length > 0) {
      out.push(el('rect', { x: x + 6, y: y + 19, width: CARD - 12, height: nameLines.length * 11 + 4, rx: 3, fill: '#ffffff', opacity: 0.85 }));
      nameLines.forEach((l, i) => out.push(text(mid, y + 29 + i * 11, l, nameAttrs)));
    }
  } else {
    nameLines.forEach((l, i) => out.push(text(mid, y + 28 + i * 11, l, nameAttrs)));
    if (card.atk !== null && card.currentDef !== null) {
      const damaged = card.damage > 0;
      out.push(
        el(
          'text',
          { x: mid, y: y + 58, 'font-size': 13, 'font-weight': 'bold', 'text-anchor': 'middle', fill: INK },
          `${card.atk}/`,
          el('tspan', { fill: damaged ? '#dc2626' : INK }, `${card.currentDef}`),
          damaged ? el('tspan', { 'font-size': 8, fill: '#dc2626', dy: -5 }, `−${card.damage}`) : '',
        ),
      );
    } else {
      out.push(text(mid, y + 58, 'BLOCK CARD', { 'font-size': 8, 'font-weight': 'bold', 'text-anchor': 'middle', fill: MUTED }));
    }
  }
  if (card.growthPlaced) out.push(text(x + CARD - 5, y + 44, 'G+', { 'font-size': 8, 'text-anchor': 'end', fill: ARROW_STYLE.Growth.colour }));
  for (const a of card.boardArrows ?? []) out.push(arrowMark(x, y, a.dir, a.type));
  return el('g', {}, ...out);
}

/** The cells a decision is about (highlighted on the board). */
function decisionCells(g: GameView): Set<string> {
  const p = g.pending;
  const byId = new Map(g.board.filter((c) => c.card).map((c) => [c.card!.id, c.cell]));
  const cells = new Set<string>();
  if (!p) return cells;
  const add = (id: string) => {
    const c = byId.get(id);
    if (c) cells.add(c);
  };
  if (p.kind === 'ability') cells.add(p.cell);
  if (p.kind === 'reveal-order' || p.kind === 'trigger-order') p.cards.forEach(add);
  if (p.kind === 'conflict-order') [p.card, ...p.defenders].forEach(add);
  return cells;
}

function cardWords(g: GameView, id: string): string {
  const c = g.board.find((x) => x.card?.id === id);
  if (!c?.card) return 'a card';
  return c.card.name ? `${c.card.name} at ${c.cell}` : `the covered card at ${c.cell}`;
}

/** Whose decision it is, in words. */
export function decisionWords(f: PictureFrame, g: GameView): string {
  const p = g.pending;
  if (!p) return g.status === 'ended' ? 'The game is over.' : `Step ${g.step}.`;
  const who = seatLabel(f, p.seat);
  switch (p.kind) {
    case 'play':
      return `${who} to play a card or pass.`;
    case 'ability':
      return `${who}: ability phase ${p.phase} of ${cardWords(g, p.card)}.`;
    case 'reveal-order':
      return `${who} chooses which covered card to reveal next.`;
    case 'conflict-order':
      return `${who} chooses the next conflict of ${cardWords(g, p.card)}.`;
    case 'trigger-order':
      return `${who} chooses which triggered card goes next.`;
    case 'discard':
      return `${who} discards ${p.count} card${p.count === 1 ? '' : 's'}.`;
  }
}

function cardDescription(c: { cell: string; card: BoardCardView }): string {
  const k = c.card;
  const whose = `of ${k.owner} facing ${k.facing}`;
  if (k.covered) return `${c.cell}: ${k.name ? `covered ${k.name}` : 'a face-down card'} ${whose}`;
  const stats = k.atk !== null && k.currentDef !== null ? `, ATK ${k.atk} DEF ${k.currentDef}${k.damage > 0 ? ` (damage ${k.damage})` : ''}` : ', a Block card';
  const arrows = k.boardArrows && k.boardArrows.length > 0 ? `, arrows ${k.boardArrows.map((a) => `${a.dir} ${a.type}`).join(', ')}` : '';
  return `${c.cell}: ${k.name ?? 'a card'} ${whose}${stats}${arrows}`;
}

function describe(f: PictureFrame, g: GameView): string {
  const seat = (s: Seat) => {
    const v = g.seats[s];
    const top = v.graveyard.at(-1);
    const hand = v.hand ? ` (${v.hand.map((h) => h.name).join(', ') || 'empty'})` : '';
    return `${seatLabel(f, s)}: score ${v.score}, ${v.credits} credits, ${v.handCount} in hand${hand}, ${v.deckCount} in deck, graveyard ${v.graveyard.length}${top ? ` (top ${top.name})` : ''}.`;
  };
  const placed = g.board.filter((c) => c.card);
  const inMain = placed.filter((c) => c.zone === 'main').length;
  return [
    `Evons match ${f.matchId}, ${viewerWords(f)}. Turn ${g.turn}, ${g.first} went first.`,
    outcomeWords(f) ?? decisionWords(f, g),
    ...SEATS.map(seat),
    `Main zone (A1 to E5): ${inMain} of 25 cells taken.`,
    placed.length === 0 ? 'The board is empty.' : `Board: ${placed.map((c) => cardDescription(c as { cell: string; card: BoardCardView })).join('; ')}.`,
    g.removed.length > 0 ? `Removed from the game: ${g.removed.length}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function board(g: GameView): string {
  const out: string[] = [];
  const marked = decisionCells(g);
  for (let i = 0; i < SIDE; i++) {
    out.push(text(BOARD_X + i * CELL + CELL / 2, BOARD_Y - 8, COLUMNS[i]!, { 'font-size': 13, 'text-anchor': 'middle', fill: MUTED }));
    out.push(text(BOARD_X - 14, BOARD_Y + i * CELL + CELL / 2 + 5, String(i), { 'font-size': 13, 'text-anchor': 'middle', fill: MUTED }));
  }
  g.board.forEach((c, i) => {
    const [x, y] = cellXY(i);
    out.push(el('rect', { x, y, width: CELL, height: CELL, fill: c.zone === 'main' ? '#ffffff' : '#eef2f6', stroke: '#cbd5e1', 'stroke-width': 1 }));
  });
  // The main zone: columns A–E, rows 1–5.
  out.push(el('rect', { x: BOARD_X + CELL, y: BOARD_Y + CELL, width: 5 * CELL, height: 5 * CELL, fill: 'none', stroke: '#334155', 'stroke-width': 3 }));
  g.board.forEach((c, i) => {
    if (c.card) out.push(cardPicture(c.card, i, g.first));
  });
  g.board.forEach((c, i) => {
    if (!marked.has(c.cell)) return;
    const [x, y] = cellXY(i);
    out.push(el('rect', { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, fill: 'none', stroke: HIGHLIGHT, 'stroke-width': 3, 'stroke-dasharray': '6 4' }));
  });
  return el('g', {}, ...out);
}

function seatPanel(f: PictureFrame, g: GameView, s: Seat, y: number): { svg: string; height: number } {
  const v = g.seats[s];
  const colour = SEAT_COLOUR[s];
  const out: string[] = [];
  const deciding = g.pending?.seat === s && g.status === 'playing' && !f.outcome;
  const tags = [s === g.first ? 'first' : '', f.viewer === s ? 'you' : ''].filter(Boolean).join(', ');
  let line = y + 22;
  const lines: string[] = [];
  lines.push(`Score ${v.score} · Credits ${v.credits}`);
  lines.push(`Hand ${v.handCount} · Deck ${v.deckCount}`);
  const top = v.graveyard.at(-1);
  lines.push(`Graveyard ${v.graveyard.length}${top ? `, top: ${clip(top.name, 22)}` : ''}`);
  const hand = v.hand ? wrap(`In hand: ${v.hand.map((h) => h.name).join(', ') || 'nothing'}`, 44, 4) : [];
  const height = 34 + lines.length * 20 + hand.length * 15 + 8;
  out.push(el('rect', { x: PANEL_X, y, width: PANEL_W, height, rx: 8, fill: colour.light, stroke: deciding ? HIGHLIGHT : colour.mid, 'stroke-width': deciding ? 3 : 1.5 }));
  out.push(text(PANEL_X + 12, line, clip(seatLabel(f, s), 26), { 'font-size': 17, 'font-weight': 'bold', fill: colour.strong }));
  if (tags) out.push(text(PANEL_X + PANEL_W - 12, line, tags, { 'font-size': 12, 'text-anchor': 'end', fill: MUTED }));
  line += 10;
  for (const l of lines) {
    line += 20;
    out.push(text(PANEL_X + 12, line, l, { 'font-size': 14, fill: INK }));
  }
  for (const l of hand) {
    line += 15;
    out.push(text(PANEL_X + 12, line, l, { 'font-size': 11.5, fill: INK }));
  }
  if (deciding) out.push(text(PANEL_X + PANEL_W - 12, y + 52, 'to decide', { 'font-size': 13, 'font-weight': 'bold', 'text-anchor': 'end', fill: HIGHLIGHT }));
  return { svg: el('g', {}, ...out), height };
}

function legend(y: number): { svg: string; height: number } {
  const out: string[] = [];
  const item = 118;
  const perRow = Math.floor((WIDTH - 48) / item);
  const entries: [string, string][] = (Object.keys(ARROW_STYLE) as ArrowType[]).map((t) => [t, t === 'Normal' ? 'Normal arrow' : t === 'Block' ? 'Block arrow' : t]);
  entries.push(['covered', 'Face down'], ['band', 'Facing band'], ['growth', 'Placed by Growth']);
  entries.forEach(([key, label], i) => {
    const x = 24 + (i % perRow) * item;
    const row = y + Math.floor(i / perRow) * 26;
    if (key === 'covered') out.push(el('rect', { x, y: row - 12, width: 16, height: 16, rx: 3, fill: 'url(#covered-p1)', stroke: SEAT_COLOUR.p1.strong }));
    else if (key === 'growth') out.push(text(x + 8, row + 1, 'G+', { 'font-size': 11, 'text-anchor': 'middle', fill: ARROW_STYLE.Growth.colour }));
    else if (key === 'band') out.push(el('rect', { x, y: row - 10, width: 16, height: 6, fill: SEAT_COLOUR.p2.strong }));
    else out.push(markAt(x + 14, row - 4, 'E', key as ArrowType));
    out.push(text(x + 24, row + 1, label, { 'font-size': 12, fill: INK }));
  });
  const rows = Math.ceil(entries.length / perRow);
  return { svg: el('g', {}, ...out), height: rows * 26 };
}

function defs(): string {
  return SEATS.map((s) =>
    el(
      'pattern',
      { id: `covered-${s}`, width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      el('rect', { width: 8, height: 8, fill: SEAT_COLOUR[s].light }),
      el('rect', { width: 3, height: 8, fill: SEAT_COLOUR[s].mid }),
    ),
  ).join('');
}

export function renderEvonsBoard(f: PictureFrame, g: GameView): string {
  const headline = outcomeWords(f) ?? decisionWords(f, g);
  const scores = `${g.seats.p1.score}–${g.seats.p2.score}`;
  const header =
    text(24, 32, `Evons · turn ${g.turn} · ${scores}`, { 'font-size': 22, 'font-weight': 'bold', fill: INK }) +
    text(WIDTH - 24, 32, `${clip(f.matchId, 28)} · ${viewerWords(f)}`, { 'font-size': 12, 'text-anchor': 'end', fill: MUTED }) +
    text(24, 60, clip(headline, 110), { 'font-size': 15, fill: f.outcome ? HIGHLIGHT : INK, 'font-weight': f.outcome ? 'bold' : 'normal' });
  const panels: string[] = [];
  let y = BOARD_Y;
  for (const s of SEATS) {
    const p = seatPanel(f, g, s, y);
    panels.push(p.svg);
    y += p.height + 14;
  }
  panels.push(text(PANEL_X + 4, y + 12, `Removed from the game: ${g.removed.length}`, { 'font-size': 13, fill: MUTED }));
  panels.push(text(PANEL_X + 4, y + 32, `Step: ${g.step}`, { 'font-size': 13, fill: MUTED }));
  const boardBottom = BOARD_Y + SIDE * CELL;
  const key = legend(Math.max(boardBottom, y + 40) + 30);
  const height = Math.max(boardBottom, y + 40) + 30 + key.height + 8;
  const title = `Evons match ${f.matchId}, turn ${g.turn}: p1 ${g.seats.p1.score}, p2 ${g.seats.p2.score}. ${headline}`;
  return document({
    width: WIDTH,
    height: Number(num(height)),
    title,
    desc: describe(f, g),
    defs: defs(),
    body: header + board(g) + panels.join('') + key.svg,
  });
}
