/**
 * The Evons position as a picture, drawn from one caller's view (src/games/evons/view.ts) and
 * nothing else: the 7×7 board with the 5×5 main zone outlined (R-BOARD-4), every card in its
 * owner's colour with a band on the edge it faces (R-BOARD-9: printed up toward row 0 when it faces
 * the first player) in the facing seat's colour, current ATK/DEF (damage marked), its arrows turned
 * to the board by kind, covered cards face down (named only where the view names them), each
 * seat's score, credits, hand, deck and graveyard (count and top card), and whose decision it is.
 * The same words are in `<desc>` for screen readers. The board fills the picture's width and the
 * seat panels sit under it, so a card's name, cost and stats are at least CARD_FONT (frame.ts).
 */
import { DELTA, type Direction } from './board.js';
import type { ArrowType } from './cards.js';
import type { BoardCardView, GameView } from './view.js';
import type { Seat } from '../../core/ruleset.js';
import { defaultCardSet } from './data/index.js';
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
import { clip, document, el, num, points, text, wrap } from '../../pictures/svg.js';

const WIDTH = PICTURE_WIDTH;
const CELL = 104;
const PAD = 4;
const CARD = CELL - 2 * PAD;
const BOARD_X = 34;
const BOARD_Y = 96;
const SIDE = 7;
const COLUMNS = ['X', 'A', 'B', 'C', 'D', 'E', 'Y'];
const MARGIN = 18;
const PANEL_GAP = 12;
const PANEL_W = (WIDTH - 2 * MARGIN - PANEL_GAP) / 2;
const INK = '#111827';
const MUTED = '#4b5563';
const HIGHLIGHT = '#d97706';

/** A card's printed cost by its definition id (the public card list), for the cards the view names. */
const COST = new Map([...defaultCardSet().byId.values()].map((c) => [c.id, c.kind === 'monster' ? c.cost : null]));

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
    return el('polygon', {
      points: points([at(2, 8), at(2, -8), at(-4, -8), at(-4, 8)]),
      fill: style.colour,
      stroke: '#ffffff',
      'stroke-width': 1,
    });
  }
  const [bx, by] = at(-11, 0);
  return (
    el('polygon', { points: points([at(3.5, 0), at(-4, 4.5), at(-4, -4.5)]), fill: style.colour }) +
    el('circle', { cx: bx, cy: by, r: 7.5, fill: style.colour, stroke: '#ffffff', 'stroke-width': 1 }) +
    text(bx, by + 4, style.letter, { 'font-size': 11, 'font-weight': 'bold', fill: '#ffffff', 'text-anchor': 'middle' })
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
  const bandY = card.facing === first ? y : y + CARD - 7;
  out.push(el('rect', { x: x + 1, y: bandY, width: CARD - 2, height: 7, fill: SEAT_COLOUR[card.facing].strong }));
  // Arrows first, words over them (with a halo): an arrow on an edge never hides a name.
  for (const a of card.boardArrows ?? []) out.push(arrowMark(x, y, a.dir, a.type));
  const mid = x + CARD / 2;
  const nameLines = card.name === null ? [] : wrap(card.name, 12, 2);
  const nameY = (i: number) => y + (nameLines.length === 1 ? 34 : 27 + i * 15);
  const nameAttrs = {
    'font-size': CARD_FONT,
    'text-anchor': 'middle',
    fill: INK,
    ...HALO,
    ...(card.covered ? { 'font-style': 'italic' } : {}),
  };
  nameLines.forEach((l, i) => out.push(text(mid, nameY(i), l, nameAttrs)));
  if (card.covered) {
    out.push(
      text(mid, y + 70, card.name === null ? 'face down' : 'covered', { 'font-size': 12, 'text-anchor': 'middle', fill: MUTED, ...HALO }),
    );
  } else if (card.atk !== null && card.currentDef !== null) {
    const damaged = card.damage > 0;
    out.push(
      el(
        'text',
        { x: mid, y: y + 66, 'font-size': 19, 'font-weight': 'bold', 'text-anchor': 'middle', fill: INK, ...HALO },
        `${card.atk}/`,
        el('tspan', { fill: damaged ? '#dc2626' : INK }, `${card.currentDef}`),
        damaged ? el('tspan', { 'font-size': CARD_FONT, fill: '#dc2626', dy: -6 }, `−${card.damage}`) : '',
      ),
    );
  } else {
    out.push(text(mid, y + 66, 'BLOCK CARD', { 'font-size': 12, 'font-weight': 'bold', 'text-anchor': 'middle', fill: MUTED, ...HALO }));
  }
  // The cost where the view names the card (an own covered card too: its cost is what revealing it takes).
  const cost = card.defId !== null ? COST.get(card.defId) : undefined;
  if (cost !== undefined && cost !== null)
    out.push(text(mid, y + 84, `cost ${cost}`, { 'font-size': CARD_FONT, 'text-anchor': 'middle', fill: INK, ...HALO }));
  if (card.growthPlaced)
    out.push(text(x + 7, y + 86, 'G+', { 'font-size': 12, 'font-weight': 'bold', fill: ARROW_STYLE.Growth.colour, ...HALO }));
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
  const stats =
    k.atk !== null && k.currentDef !== null
      ? `, ATK ${k.atk} DEF ${k.currentDef}${k.damage > 0 ? ` (damage ${k.damage})` : ''}`
      : ', a Block card';
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
    placed.length === 0
      ? 'The board is empty.'
      : `Board: ${placed.map((c) => cardDescription(c as { cell: string; card: BoardCardView })).join('; ')}.`,
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
    out.push(text(BOARD_X - 13, BOARD_Y + i * CELL + CELL / 2 + 5, String(i), { 'font-size': 13, 'text-anchor': 'middle', fill: MUTED }));
  }
  g.board.forEach((c, i) => {
    const [x, y] = cellXY(i);
    out.push(
      el('rect', {
        x,
        y,
        width: CELL,
        height: CELL,
        fill: c.zone === 'main' ? '#ffffff' : '#eef2f6',
        stroke: '#cbd5e1',
        'stroke-width': 1,
      }),
    );
  });
  // The main zone: columns A–E, rows 1–5.
  out.push(
    el('rect', {
      x: BOARD_X + CELL,
      y: BOARD_Y + CELL,
      width: 5 * CELL,
      height: 5 * CELL,
      fill: 'none',
      stroke: '#334155',
      'stroke-width': 3,
    }),
  );
  g.board.forEach((c, i) => {
    if (c.card) out.push(cardPicture(c.card, i, g.first));
  });
  g.board.forEach((c, i) => {
    if (!marked.has(c.cell)) return;
    const [x, y] = cellXY(i);
    out.push(
      el('rect', {
        x: x + 1.5,
        y: y + 1.5,
        width: CELL - 3,
        height: CELL - 3,
        fill: 'none',
        stroke: HIGHLIGHT,
        'stroke-width': 3,
        'stroke-dasharray': '6 4',
      }),
    );
  });
  return el('g', {}, ...out);
}

/** The lines of a seat's panel: counts, graveyard, and the hand when the view shows it. */
function seatLines(g: GameView, s: Seat): { lines: string[]; hand: string[] } {
  const v = g.seats[s];
  const top = v.graveyard.at(-1);
  const lines = [
    `Score ${v.score} · Credits ${v.credits}`,
    `Hand ${v.handCount} · Deck ${v.deckCount}`,
    `Graveyard ${v.graveyard.length}${top ? `, top: ${clip(top.name, 26)}` : ''}`,
  ];
  const hand = v.hand ? wrap(`In hand: ${v.hand.map((h) => h.name).join(', ') || 'nothing'}`, 44, 8) : [];
  return { lines, hand };
}

const panelHeight = (l: { lines: string[]; hand: string[] }) => 34 + l.lines.length * 20 + l.hand.length * 17 + 10;

function seatPanel(f: PictureFrame, g: GameView, s: Seat, x: number, y: number, height: number): string {
  const colour = SEAT_COLOUR[s];
  const out: string[] = [];
  const deciding = g.pending?.seat === s && g.status === 'playing' && !f.outcome;
  const tags = [s === g.first ? 'first' : '', f.viewer === s ? 'you' : ''].filter(Boolean).join(', ');
  const { lines, hand } = seatLines(g, s);
  let line = y + 24;
  out.push(
    el('rect', {
      x,
      y,
      width: PANEL_W,
      height,
      rx: 8,
      fill: colour.light,
      stroke: deciding ? HIGHLIGHT : colour.mid,
      'stroke-width': deciding ? 3 : 1.5,
    }),
  );
  out.push(text(x + 12, line, clip(seatLabel(f, s), 24), { 'font-size': 17, 'font-weight': 'bold', fill: colour.strong }));
  if (tags) out.push(text(x + PANEL_W - 12, line, tags, { 'font-size': 13, 'text-anchor': 'end', fill: MUTED }));
  line += 10;
  for (const l of lines) {
    line += 20;
    out.push(text(x + 12, line, l, { 'font-size': 14, fill: INK }));
  }
  for (const l of hand) {
    line += 17;
    out.push(text(x + 12, line, l, { 'font-size': CARD_FONT, fill: INK }));
  }
  if (deciding)
    out.push(
      text(x + PANEL_W - 12, y + 54, 'to decide', { 'font-size': 14, 'font-weight': 'bold', 'text-anchor': 'end', fill: HIGHLIGHT }),
    );
  return el('g', {}, ...out);
}

function legend(y: number): { svg: string; height: number } {
  const out: string[] = [];
  const item = (WIDTH - 2 * MARGIN) / 5;
  const perRow = 5;
  const entries: [string, string][] = (Object.keys(ARROW_STYLE) as ArrowType[]).map((t) => [
    t,
    t === 'Normal' ? 'Normal arrow' : t === 'Block' ? 'Block arrow' : t,
  ]);
  entries.push(['covered', 'Face down'], ['band', 'Facing band'], ['growth', 'Placed by Growth']);
  entries.forEach(([key, label], i) => {
    const x = MARGIN + (i % perRow) * item;
    const row = y + Math.floor(i / perRow) * 26;
    if (key === 'covered')
      out.push(el('rect', { x, y: row - 13, width: 18, height: 18, rx: 3, fill: 'url(#covered-p1)', stroke: SEAT_COLOUR.p1.strong }));
    else if (key === 'growth')
      out.push(
        text(x + 9, row + 1, 'G+', { 'font-size': 12, 'font-weight': 'bold', 'text-anchor': 'middle', fill: ARROW_STYLE.Growth.colour }),
      );
    else if (key === 'band') out.push(el('rect', { x, y: row - 10, width: 18, height: 7, fill: SEAT_COLOUR.p2.strong }));
    else out.push(markAt(x + 16, row - 4, 'E', key as ArrowType));
    out.push(text(x + 26, row + 1, label, { 'font-size': 13, fill: INK }));
  });
  // The outline drawn round the cells a decision is about, on a row of its own (a longer label).
  const rows = Math.ceil(entries.length / perRow);
  const last = y + rows * 26;
  out.push(
    el('rect', {
      x: MARGIN + 1.5,
      y: last - 14.5,
      width: 17,
      height: 17,
      fill: 'none',
      stroke: HIGHLIGHT,
      'stroke-width': 3,
      'stroke-dasharray': '6 4',
    }),
  );
  out.push(
    text(MARGIN + 26, last + 1, "Cells of the decision to make: a conflict's attacker and defenders, cards to order, an ability", {
      'font-size': 13,
      fill: INK,
    }),
  );
  return { svg: el('g', {}, ...out), height: (rows + 1) * 26 };
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
    text(MARGIN, 32, `Evons · turn ${g.turn} · ${scores}`, { 'font-size': 22, 'font-weight': 'bold', fill: INK }) +
    text(MARGIN, 60, clip(headline, 84), {
      'font-size': 15,
      fill: f.outcome ? HIGHLIGHT : INK,
      'font-weight': f.outcome ? 'bold' : 'normal',
    });
  // The two seats side by side under the board, as tall as the taller.
  let y = BOARD_Y + SIDE * CELL + 20;
  const height = Math.max(...SEATS.map((s) => panelHeight(seatLines(g, s))));
  const panels = SEATS.map((s, i) => seatPanel(f, g, s, MARGIN + i * (PANEL_W + PANEL_GAP), y, height));
  y += height + 22;
  panels.push(text(MARGIN + 4, y, `Removed from the game: ${g.removed.length} · Step: ${g.step}`, { 'font-size': 13, fill: MUTED }));
  const key = legend(y + 32);
  y += 32 + key.height;
  const foot = text(MARGIN, y + 6, `${clip(f.matchId, 40)} · ${viewerWords(f)}`, { 'font-size': 12, fill: MUTED });
  const title = `Evons match ${f.matchId}, turn ${g.turn}: p1 ${g.seats.p1.score}, p2 ${g.seats.p2.score}. ${headline}`;
  return document({
    width: WIDTH,
    height: Number(num(y + 18)),
    title,
    desc: describe(f, g),
    defs: defs(),
    body: header + board(g) + panels.join('') + key.svg + foot,
  });
}
