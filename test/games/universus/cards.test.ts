/** Placeholder card set (U- §6 guideline), rules hash, action text and redaction basics. */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/games/universus/config.js';
import { universus } from '../../../src/games/universus/index.js';
import { Game, position } from './helpers.js';

describe('card set and rules pinning', () => {
  it('is a labelled placeholder with stats inside the guideline ranges (U- §6)', () => {
    expect(universus.cardSet.placeholder).toBe(true);
    expect(universus.cardSet.id).toBe('uvs-placeholder-1');
    const inRange = (v: number, lo: number, hi: number) => expect(v >= lo && v <= hi, `${v} in ${lo}..${hi}`).toBe(true);
    for (const c of universus.cardSet.cards as { type: string; [k: string]: unknown }[]) {
      if (c.type === 'CHARACTER') {
        inRange(c.health as number, 18, 26);
        inRange(c.handSize as number, 5, 7);
        continue;
      }
      inRange(c.check as number, 1, 6);
      inRange(c.difficulty as number, 0, 7);
      inRange(c.blockModifier as number, 0, 3);
      if (c.type === 'ATTACK') {
        inRange(c.speed as number, 2, 7);
        inRange(c.damage as number, 2, 7);
      }
    }
    const names = universus.cardSet.cards.map((c) => (c as { name: string }).name);
    for (const n of ['Seize the Opportunity', "Levi's Overhead Strike", 'Bar the Door', 'Against a Tough Bunch', "Mikasa's Admission"])
      expect(names).toContain(n);
  });
  it('rules hash depends on the config and is stable', () => {
    const a = universus.rulesHash(configSchema.parse({}));
    expect(universus.rulesHash(configSchema.parse({}))).toBe(a);
    expect(universus.rulesHash(configSchema.parse({ blockZoneRule: 'ANY_ZONE_HALF' }))).not.toBe(a);
  });
});

describe('per-viewer words and redaction (U-CHECK-1, hidden hands)', () => {
  it('a hand card is named to its owner only; drawn cards are a count for others', () => {
    const g = new Game(position({ hand: ['A01'], deck: ['F03'] }, {}));
    const act = { type: 'PlayCard' as const, cardId: g.id('p1', 'A01') };
    expect(universus.actionDescriber(g.state, 'p1')(act)).toBe('p1 attempts to play Seize the Opportunity');
    expect(universus.actionDescriber(g.state, 'p2')(act)).toBe('p1 attempts to play a card');
    expect(universus.actionDescriber(g.state, 'spectator')(act)).toBe('p1 attempts to play a card');
    const drawn = { type: 'CardsDrawn' as const, seat: 'p1' as const, cards: [{ id: 'cx', card: 'A01' }] };
    expect(universus.redactEvent(drawn, 'p2')).toEqual({ type: 'CardsDrawn', seat: 'p1', count: 1 });
    expect(universus.redactEvent(drawn, 'p1')).toEqual(drawn);
    expect(universus.view(g.state, 'p2').players.p1.hand).toBeNull();
    expect(universus.view(g.state, 'p1').players.p1.hand?.[0]?.card).toBe('A01');
  });
});
