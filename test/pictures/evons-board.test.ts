/**
 * The Evons picture (src/pictures/evons-board.ts): snapshots of a dealt match, a position in play
 * and a finished match; what it draws (R-BOARD-4 main zone, R-CARD-8 a board card's owner, facing,
 * cover and current DEF, R-FACE-1 covered cards face down, R-SCORE-1 scores, arrows by kind);
 * determinism; and redaction: the other hand and others' covered cards stay unnamed.
 */
import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import type { GameView } from '../../src/games/evons/view.js';
import { renderBoardSvg } from '../../src/http/board-picture.js';
import { ARROW_STYLE } from '../../src/games/evons/picture.js';
import { defaultCardSet } from '../../src/games/evons/index.js';
import { ALL_CARD_NAMES, VIEWERS, evonsAfter, evonsFinished, evonsMatchView } from './fixtures.js';
import { esc } from '../../src/pictures/svg.js';

const dealt = evonsAfter('pictures-evons', 0);
const midGame = evonsAfter('pictures-evons', 60);
const finished = evonsFinished('pictures-evons-end');

/** The picture's visible text (element content, entities decoded), without tags. */
const visibleText = (svg: string) =>
  svg
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('Evons board picture', () => {
  it('matches the snapshots: dealt (p1), in play (spectator and p2), finished (spectator)', async () => {
    expect(dealt.board.every((c) => c === null)).toBe(true);
    expect(midGame.board.some((c) => c !== null)).toBe(true);
    await expect(renderBoardSvg(evonsMatchView(dealt, 'p1'))).toMatchFileSnapshot('./__snapshots__/evons-dealt.p1.svg');
    await expect(renderBoardSvg(evonsMatchView(midGame, 'spectator'))).toMatchFileSnapshot('./__snapshots__/evons-midgame.spectator.svg');
    await expect(renderBoardSvg(evonsMatchView(midGame, 'p2'))).toMatchFileSnapshot('./__snapshots__/evons-midgame.p2.svg');
    await expect(renderBoardSvg(evonsMatchView(finished, 'spectator'))).toMatchFileSnapshot('./__snapshots__/evons-finished.spectator.svg');
  });

  it('is deterministic and self-contained: same view, same bytes; no scripts, links, images or external fonts; resvg parses it', () => {
    for (const s of [dealt, midGame, finished]) {
      for (const v of VIEWERS) {
        const view = evonsMatchView(s, v);
        const svg = renderBoardSvg(view);
        expect(renderBoardSvg(structuredClone(view))).toBe(svg);
        expect(svg).not.toMatch(/<script|<image|<foreignObject|href=|@import|@font-face|url\((?!#)/i);
        expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* font-family="sans-serif">/);
        expect(() => new Resvg(svg)).not.toThrow();
      }
    }
    expect(() => new Resvg('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>')).toThrow(); // the parse check can fail
  });

  it('says the position in words in <title> and <desc> (scores, decision, every card by cell)', () => {
    const view = evonsMatchView(midGame, 'spectator');
    const g = view.game as GameView;
    const svg = renderBoardSvg(view);
    const title = /<title id="board-title">([^<]*)<\/title>/.exec(svg)?.[1] ?? '';
    const desc = /<desc id="board-desc">([^<]*)<\/desc>/.exec(svg)?.[1] ?? '';
    expect(title).toContain(`p1 ${g.seats.p1.score}, p2 ${g.seats.p2.score}`);
    expect(desc).toContain('spectator view');
    expect(desc).toContain(`${g.pending!.seat} (${g.pending!.seat === 'p1' ? 'alice' : 'bob'})`);
    for (const c of g.board) {
      if (c.card) expect(desc, c.cell).toContain(`${c.cell}: `);
    }
    const end = renderBoardSvg(evonsMatchView(finished, 'spectator'));
    const r = finished.result!;
    expect(end).toContain(r.winner ? `${r.winner} (${r.winner === 'p1' ? 'alice' : 'bob'}) wins: ${r.reason}` : `No winner: ${r.reason}`);
  });

  it('draws the 5×5 main zone (R-BOARD-4), each card in its owner colour with its facing band (R-CARD-8, R-BOARD-9), and a legend of every arrow kind', () => {
    const svg = renderBoardSvg(evonsMatchView(midGame, 'spectator'));
    // The main zone outline: columns A–E × rows 1–5, one cell (104) in from the board's corner.
    expect(svg).toContain('<rect x="138" y="200" width="520" height="520" fill="none" stroke="#334155" stroke-width="3"/>');
    for (const type of Object.keys(ARROW_STYLE)) expect(visibleText(svg)).toContain(type);
    // The outline of the cells a decision is about (a conflict's cards) is in the legend too.
    expect(visibleText(svg)).toContain("Cells of the decision to make: a conflict's attacker and defenders");
    const cards = midGame.board.filter((c) => c !== null).length;
    expect(svg.match(/stroke="#1d4ed8" stroke-width="2"|stroke="#b91c1c" stroke-width="2"/g)?.length).toBe(cards);
  });

  it("writes each named card's printed cost on it, from the public card list", () => {
    const view = evonsMatchView(midGame, 'p2');
    const g = view.game as GameView;
    const named = g.board.filter((c) => c.card?.defId);
    const cards = defaultCardSet().byId;
    const costs = named.map((c) => cards.get(c.card!.defId!)!).flatMap((d) => (d.kind === 'monster' ? [d.cost] : []));
    expect(costs.length).toBeGreaterThan(0);
    const drawn = renderBoardSvg(view).match(/>cost \d+</g) ?? [];
    expect(drawn.sort()).toEqual(costs.map((c) => `>cost ${c}<`).sort());
  });

  it('shows current DEF and the damage of a damaged monster (R-CARD-8)', () => {
    const view = evonsMatchView(midGame, 'spectator');
    const g = view.game as GameView;
    const cell = g.board.find((c) => c.card && !c.card.covered && c.card.currentDef !== null)!;
    const before = renderBoardSvg(view);
    cell.card!.damage = 2;
    cell.card!.currentDef = cell.card!.currentDef! - 2;
    const after = renderBoardSvg(view);
    expect(after).not.toBe(before);
    expect(after).toContain(`>${cell.card!.currentDef}</tspan><tspan font-size="13" fill="#dc2626" dy="-6">−2</tspan>`);
    expect(after).toContain(`DEF ${cell.card!.currentDef} (damage 2)`);
  });

  it('never draws what the view does not show: hands and covered cards of others stay unnamed (R-FACE-1)', () => {
    let sawHidden = false;
    let sawCovered = false;
    for (const s of [dealt, midGame, evonsAfter('pictures-evons', 25), finished]) {
      for (const v of VIEWERS) {
        const view = evonsMatchView(s, v);
        const json = JSON.stringify(view);
        const svg = visibleText(renderBoardSvg(view));
        // Every card name in the picture is in the JSON view of the same caller.
        for (const { name } of ALL_CARD_NAMES) {
          if (svg.includes(name)) expect(json, `${v} picture names ${name}`).toContain(name);
        }
        // And no instance id at all (ids are not drawn, so no hidden one either).
        for (const id of Object.keys(s.cards)) expect(svg).not.toContain(id);
        const coveredOfOthers = s.board.filter((b) => b && b.covered && s.cards[b.id]!.owner !== v);
        if (coveredOfOthers.length > 0) {
          sawCovered = true;
          expect(svg).toContain('face down');
        }
      }
      // The seat sees its own hand by name; the other seat and a spectator do not (unless public elsewhere).
      const own = visibleText(renderBoardSvg(evonsMatchView(s, 'p1')));
      const spectatorJson = JSON.stringify(evonsMatchView(s, 'spectator'));
      const spectator = visibleText(renderBoardSvg(evonsMatchView(s, 'spectator')));
      const opponent = visibleText(renderBoardSvg(evonsMatchView(s, 'p2')));
      for (const id of s.hands.p1) {
        const name = s.cardSet.byId.get(s.cards[id]!.def)!.name;
        expect(own).toContain(esc(name).replace(/&amp;/g, '&'));
        if (!spectatorJson.includes(name)) {
          sawHidden = true;
          expect(spectator).not.toContain(name);
          expect(opponent).not.toContain(name);
        }
      }
    }
    expect(sawHidden, 'some hand card was secret from the spectator').toBe(true);
    expect(sawCovered, 'some covered card was drawn face down').toBe(true);
  });
});
