/**
 * The UniVersus picture (src/pictures/universus-board.ts): snapshots of an attack being blocked
 * (U-BLOCK-1, U-CHECK-1), a committed stage (U-COMMIT-3) and a finished match (U-WIN-1); health bars
 * (U-DAMAGE-2), and redaction: a hand is named only in its own seat's picture (U- secrecy).
 */
import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { CARD_BY_ID } from '../../src/games/universus/cards/index.js';
import { renderBoardSvg } from '../../src/http/board-picture.js';
import { Game, position } from '../games/universus/helpers.js';
import { ALL_CARD_NAMES, VIEWERS, universusAfter, universusMatchView } from './fixtures.js';

const visibleText = (svg: string) =>
  svg
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const nameOf = (id: string) => CARD_BY_ID.get(id)!.name;

/** P1 attacks with Seize the Opportunity (A01); P2 is asked to block (U-BLOCK-1). P1's stage: one ready, one committed foundation. */
function attackAwaitingBlock(): Game {
  const g = new Game(
    position(
      {
        hand: ['A01', 'A03'],
        deck: ['F03'],
        stage: [
          { card: 'F05', committed: false },
          { card: 'F06', committed: true },
        ],
      },
      { hand: ['F01', 'F02', 'A02'], deck: ['F03'], health: 9 },
    ),
  );
  g.act('p1', { type: 'PlayCard', cardId: g.id('p1', 'A01') });
  return g;
}

describe('UniVersus board picture', () => {
  it('matches the snapshots: an attack awaiting a block (p2 and spectator), a dealt match played on, a finished match', async () => {
    const g = attackAwaitingBlock();
    expect(g.state.pending).toEqual({ kind: 'AWAIT_BLOCK', seat: 'p2' });
    await expect(renderBoardSvg(universusMatchView(g.state, 'p2'))).toMatchFileSnapshot('./__snapshots__/universus-block.p2.svg');
    await expect(renderBoardSvg(universusMatchView(g.state, 'spectator'))).toMatchFileSnapshot(
      './__snapshots__/universus-block.spectator.svg',
    );
    await expect(renderBoardSvg(universusMatchView(universusAfter('pictures-uvs', 30), 'p1'))).toMatchFileSnapshot(
      './__snapshots__/universus-midgame.p1.svg',
    );
    const over = universusAfter('pictures-uvs-end', 5000);
    expect(over.phase).toBe('OVER');
    await expect(renderBoardSvg(universusMatchView(over, 'spectator'))).toMatchFileSnapshot(
      './__snapshots__/universus-finished.spectator.svg',
    );
  });

  it('draws the attack (zone, speed, damage), whose decision it is, health bars and the stage as ready/committed', () => {
    const g = attackAwaitingBlock();
    const svg = renderBoardSvg(universusMatchView(g.state, 'spectator'));
    const text = visibleText(svg);
    expect(text).toContain(`Attack by p1: ${nameOf('A01')}, HIGH, speed 4, damage 5.`);
    expect(text).toContain('p2 (bob) blocks the attack or declines.');
    expect(text).toContain('Health 9 / 22');
    expect(text).toContain('Health 22 / 22');
    expect(text).toContain('COMMITTED');
    expect(text).toContain('READY');
    expect(text).toContain('ATTACKING');
    // The health bar's fill is health / printed health of the bar's width (720).
    expect(svg).toContain(`width="${Math.round((720 * 9 * 10) / 22) / 10}" height="20" rx="4" fill="#16a34a"`);
    const desc = /<desc id="board-desc">([^<]*)<\/desc>/.exec(svg)![1]!;
    expect(desc).toContain('stage: Horse Relay ready');
    expect(desc).toMatch(/committed; card pool: Seize the Opportunity played/);
  });

  it("names the seat whose decision is pending at the top: p2 to block p1's attack, not the turn player p1", () => {
    const g = attackAwaitingBlock();
    expect(g.state.turnPlayer).toBe('p1');
    for (const v of VIEWERS) {
      const head = /<text[^>]*font-size="22"[^>]*>([^<]*)<\/text>/.exec(renderBoardSvg(universusMatchView(g.state, v)))![1]!;
      expect(head).toMatch(/^UniVersus · turn \d+ · p2 to block$/);
    }
    const commit = new Game(position({ hand: ['A01'], deck: ['F03'] }, { hand: ['F01'], deck: ['F03'] }));
    const pending = commit.state.pending!;
    const head = /<text[^>]*font-size="22"[^>]*>([^<]*)<\/text>/.exec(renderBoardSvg(universusMatchView(commit.state, 'spectator')))![1]!;
    expect(head).toContain(
      `${pending.seat} to ${pending.kind === 'PLAY' ? 'play' : pending.kind === 'AWAIT_COMMIT' ? 'commit' : pending.kind === 'AWAIT_BLOCK' ? 'block' : 'pick momentum'}`,
    );
  });

  it('is deterministic and parses', () => {
    for (const s of [attackAwaitingBlock().state, universusAfter('pictures-uvs', 30)]) {
      for (const v of VIEWERS) {
        const view = universusMatchView(s, v);
        const svg = renderBoardSvg(view);
        expect(renderBoardSvg(structuredClone(view))).toBe(svg);
        expect(() => new Resvg(svg)).not.toThrow();
        expect(svg).not.toMatch(/<script|<image|href=|url\(/i);
      }
    }
  });

  it('names a hand only in its own seat picture; every name drawn is a card the JSON view shows', () => {
    const g = attackAwaitingBlock();
    const hidden = nameOf('F02'); // in p2's hand only
    const p2 = visibleText(renderBoardSvg(universusMatchView(g.state, 'p2')));
    expect(p2).toContain(hidden);
    for (const v of ['p1', 'spectator'] as const) expect(visibleText(renderBoardSvg(universusMatchView(g.state, v)))).not.toContain(hidden);
    for (const s of [g.state, universusAfter('pictures-uvs', 30), universusAfter('pictures-uvs', 80)]) {
      for (const v of VIEWERS) {
        const view = universusMatchView(s, v);
        const shown = JSON.stringify(view);
        const text = visibleText(renderBoardSvg(view));
        for (const c of ALL_CARD_NAMES.filter((x) => x.game === 'universus')) {
          if (!text.includes(c.name)) continue;
          const id = [...CARD_BY_ID.values()].find((x) => x.name === c.name)!.id;
          expect(shown, `${v} picture names ${c.name}`).toContain(`"${id}"`);
        }
      }
    }
  });
});
