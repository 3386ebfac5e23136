import { describe, it, expect } from 'vitest';
import {
  ARROW_TYPES,
  ELEMENTS,
  DECK_SIZE,
  MAX_COPIES,
  expandDeckList,
  loadCardSet,
  validateDeck,
  type CardSet,
  type CardSetFile,
  type MonsterDef,
} from '../../../src/games/evons/cards.js';
import { defaultCardSet, set00 } from '../../../src/games/evons/data/index.js';

const ORTHOGONAL = new Set(['N', 'E', 'S', 'W']);

function monsters(cs: CardSet): MonsterDef[] {
  return cs.file.cards.filter((c): c is MonsterDef => c.kind === 'monster');
}

/** A deep copy of the shipped file, for mutation tests. */
function fileCopy(): CardSetFile {
  return structuredClone(set00.file);
}

function errorsOf(input: unknown): string[] {
  const r = loadCardSet(input);
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.errors;
}

function monsterIn(file: CardSetFile, id: string): MonsterDef {
  const c = file.cards.find((x) => x.id === id);
  if (!c || c.kind !== 'monster') throw new Error(`no monster ${id}`);
  return c;
}

describe('shipped placeholder card set (set00)', () => {
  it('R-CARD-1 R-ELEM-5: set00.json loads and is labelled as a placeholder', () => {
    expect(loadCardSet(set00.file).ok).toBe(true);
    expect(set00.id).toBe('set00-placeholder');
    expect(set00.placeholder).toBe(true);
    expect(set00.file.notes).toMatch(/placeholder/i);
    expect(set00.file.notes).toMatch(/Fire/);
    expect(set00.file.notes).toMatch(/Water/);
    expect(defaultCardSet()).toBe(set00);
    expect(set00.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('R-ELEM-2 R-ELEM-5: only the four known element/ability pairs are enforced', () => {
    expect(set00.file.elementAbilities).toEqual({
      Growth: 'Nature',
      Shockwave: 'Earth',
      Magnetism: 'Electric',
      Resurrection: 'Darkness',
    });
  });

  it('R-ELEM-1 R-CARD-2: at least 42 monsters, 7+ in each of the 6 elements, sensible stats', () => {
    const ms = monsters(set00);
    expect(ms.length).toBeGreaterThanOrEqual(42);
    for (const el of ELEMENTS) {
      expect(ms.filter((m) => m.element === el).length, el).toBeGreaterThanOrEqual(7);
    }
    const costs = new Set(ms.map((m) => m.cost));
    expect(costs.has(0)).toBe(true);
    expect(Math.max(...costs)).toBeGreaterThanOrEqual(9);
    for (const m of ms) {
      expect(m.atk, m.id).toBeGreaterThanOrEqual(0);
      expect(m.atk, m.id).toBeLessThanOrEqual(6);
      expect(m.def, m.id).toBeGreaterThanOrEqual(1);
      expect(m.def, m.id).toBeLessThanOrEqual(7);
      expect(m.arrows.length, m.id).toBeGreaterThanOrEqual(1);
      expect(m.arrows.length, m.id).toBeLessThanOrEqual(4);
    }
  });

  it('R-CARD-5: every one of the 9 arrow types appears on at least 3 cards', () => {
    expect(ARROW_TYPES).toHaveLength(9);
    for (const t of ARROW_TYPES) {
      const n = monsters(set00).filter((m) => m.arrows.some((a) => a.type === t)).length;
      expect(n, t).toBeGreaterThanOrEqual(3);
    }
  });

  it('R-ELEM-2: ability arrows sit on their element (Firestorm on Fire, Swap on Water by convention)', () => {
    const home: Record<string, string> = {
      Growth: 'Nature',
      Shockwave: 'Earth',
      Magnetism: 'Electric',
      Resurrection: 'Darkness',
      Firestorm: 'Fire',
      Swap: 'Water',
    };
    for (const m of monsters(set00)) {
      for (const a of m.arrows) {
        const el = home[a.type];
        if (el) expect(m.element, `${m.id} ${a.type}`).toBe(el);
      }
    }
  });

  it('R-ELEM-3 R-AB-BLK-1: Block arrows appear on cards of several elements', () => {
    const els = new Set(
      monsters(set00)
        .filter((m) => m.arrows.some((a) => a.type === 'Block'))
        .map((m) => m.element),
    );
    expect(els.size).toBeGreaterThanOrEqual(3);
  });

  it('R-CARD-7: arrows are mostly orthogonal, with a few diagonal-arrow cards', () => {
    const ms = monsters(set00);
    const all = ms.flatMap((m) => m.arrows);
    const orth = all.filter((a) => ORTHOGONAL.has(a.dir)).length;
    expect(orth / all.length).toBeGreaterThan(0.75);
    expect(ms.filter((m) => m.arrows.some((a) => !ORTHOGONAL.has(a.dir))).length).toBeGreaterThanOrEqual(3);
  });

  it('R-CARD-3 R-ELEM-6: one Block card per element', () => {
    const blocks = set00.file.cards.filter((c) => c.kind === 'block');
    expect(blocks).toHaveLength(ELEMENTS.length);
    for (const el of ELEMENTS) {
      const b = set00.byId.get(`block-${el.toLowerCase()}`);
      expect(b?.kind).toBe('block');
      expect(b?.element).toBe(el);
    }
  });

  it('R-CARD-4: card ids and monster names are unique', () => {
    const ids = set00.file.cards.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const names = monsters(set00).map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('R-DECK-1..3: every starter deck is legal and holds 4-8 Block cards', () => {
    const decks = set00.file.starterDecks;
    expect(decks.length).toBeGreaterThanOrEqual(2);
    expect(decks.map((d) => d.id)).toEqual(expect.arrayContaining(['starter-verdant-quake', 'starter-storm-shade', 'starter-ember-tide']));
    for (const d of decks) {
      const cards = expandDeckList(d.cards);
      expect(cards, d.id).toHaveLength(DECK_SIZE);
      expect(validateDeck(set00, cards), d.id).toEqual({ ok: true });
      const blocks = cards.filter((c) => set00.byId.get(c)?.kind === 'block').length;
      expect(blocks, d.id).toBeGreaterThanOrEqual(4);
      expect(blocks, d.id).toBeLessThanOrEqual(8);
    }
  });
});

describe('deck construction (EX-24)', () => {
  const ms = monsters(set00);
  /** 15 distinct monsters × 4 copies = 60. */
  const fourEach = ms.slice(0, 15).flatMap((m) => Array<string>(MAX_COPIES).fill(m.id));

  it('R-DECK-1 R-DECK-2 EX-24: a 60-card deck with 4 copies of a monster is legal', () => {
    expect(fourEach).toHaveLength(60);
    expect(validateDeck(set00, fourEach)).toEqual({ ok: true });
  });

  it('R-DECK-2 EX-24: five copies of a monster is illegal', () => {
    const deck = [...fourEach.slice(0, 55), ...Array<string>(5).fill(ms[20]!.id)];
    const r = validateDeck(set00, deck);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/5 copies of "[^"]+".*R-DECK-2/);
  });

  it('R-DECK-3 EX-24: 30 Block cards of one kind is legal', () => {
    const deck = [...Array<string>(30).fill('block-earth'), ...fourEach.slice(0, 30)];
    expect(deck).toHaveLength(60);
    expect(validateDeck(set00, deck)).toEqual({ ok: true });
  });

  it('R-DECK-1 EX-24: a 59-card deck is illegal', () => {
    const r = validateDeck(set00, fourEach.slice(0, 59));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/exactly 60 cards, this one has 59.*R-DECK-1/);
  });

  it('R-DECK-1 EX-24: a 61-card deck is illegal', () => {
    const r = validateDeck(set00, [...fourEach, 'block-fire']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/this one has 61/);
  });

  it('R-DECK-1: an unknown card id makes a deck illegal with a clear message', () => {
    const r = validateDeck(set00, [...fourEach.slice(0, 59), 'no-such-card']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toContain('unknown card "no-such-card" in card set set00-placeholder');
  });

  it('R-CARD-4 R-DECK-2: the copy limit counts Block cards as unlimited but monsters by name', () => {
    const deck = [...fourEach.slice(0, 56), ...Array<string>(4).fill(ms[0]!.id)];
    const r = validateDeck(set00, deck);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toContain(`8 copies of "${ms[0]!.name}"`);
  });
});

describe('loadCardSet rejects bad card data', () => {
  it('R-ELEM-2: an ability arrow on the wrong element is rejected', () => {
    const f = fileCopy();
    monsterIn(f, 'cinder-pup').arrows = [{ dir: 'N', type: 'Growth' }];
    const errors = errorsOf(f);
    expect(errors).toContain('cards.cinder-pup: Growth arrows are only for Nature cards (R-ELEM-2), not Fire');
  });

  it('R-ELEM-3 R-ELEM-5: Block and Remove arrows are allowed on any element', () => {
    const f = fileCopy();
    monsterIn(f, 'cinder-pup').arrows = [
      { dir: 'N', type: 'Block' },
      { dir: 'S', type: 'Remove' },
    ];
    expect(loadCardSet(f).ok).toBe(true);
  });

  it('R-CARD-4: duplicate card ids are rejected', () => {
    const f = fileCopy();
    f.cards.push({ ...monsterIn(f, 'moss-hare'), name: 'Moss Hare Again' });
    expect(errorsOf(f)).toContain('cards: duplicate id moss-hare');
  });

  it('R-CARD-4: two monsters sharing a name are rejected', () => {
    const f = fileCopy();
    f.cards.push({ ...monsterIn(f, 'moss-hare'), id: 'moss-hare-2' });
    expect(errorsOf(f).join('\n')).toMatch(/moss-hare-2: name "Moss Hare" is also used by moss-hare/);
  });

  it('R-CARD-7: two arrows with the same direction are rejected', () => {
    const f = fileCopy();
    monsterIn(f, 'moss-hare').arrows = [
      { dir: 'N', type: 'Normal' },
      { dir: 'N', type: 'Remove' },
    ];
    const idx = f.cards.findIndex((c) => c.id === 'moss-hare');
    expect(errorsOf(f)).toContain(`cards.${idx}.arrows: a card has at most one arrow per direction`);
  });

  it('malformed input yields clear error strings naming the path', () => {
    expect(errorsOf(null)[0]).toMatch(/^\(root\): /);
    expect(errorsOf('nope')[0]).toMatch(/^\(root\): /);

    const f = fileCopy() as unknown as { cards: Record<string, unknown>[] };
    f.cards[0]!['cost'] = -1;
    f.cards[1]!['def'] = 0;
    f.cards[2]!['element'] = 'Plasma';
    (f.cards[3]!['arrows'] as Record<string, unknown>[])[0]!['dir'] = 'UP';
    f.cards[4]!['id'] = 'Bad Id';
    f.cards[5]!['extra'] = true;
    const errors = errorsOf(f);
    const joined = errors.join('\n');
    expect(joined).toMatch(/^cards\.0\.cost: /m);
    expect(joined).toMatch(/^cards\.1\.def: /m);
    expect(joined).toMatch(/^cards\.2\.element: /m);
    expect(joined).toMatch(/^cards\.3\.arrows\.0\.dir: /m);
    expect(joined).toMatch(/^cards\.4\.id: ids are lower-case letters, digits and dashes$/m);
    expect(joined).toMatch(/^cards\.5: .*extra/m);

    const missing = fileCopy() as unknown as Record<string, unknown>;
    delete missing['elementAbilities'];
    expect(errorsOf(missing).join('\n')).toMatch(/^elementAbilities: /m);
  });

  it('R-DECK-1: an illegal starter deck is rejected with the deck id in the error', () => {
    const f = fileCopy();
    f.starterDecks[0]!.cards[0]!.count = 5;
    const errors = errorsOf(f);
    expect(errors.join('\n')).toMatch(new RegExp(`^starterDecks\\.${f.starterDecks[0]!.id}: .*R-DECK-2`, 'm'));
  });
});

describe('card set hash', () => {
  it('R-CARD-1: the hash is stable for equal input, even with keys in another order', () => {
    const a = loadCardSet(fileCopy());
    const b = loadCardSet(JSON.parse(JSON.stringify(set00.file)));
    const reordered = Object.fromEntries(Object.entries(fileCopy()).reverse());
    const c = loadCardSet(reordered);
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (a.ok && b.ok && c.ok) {
      expect(a.cardSet.hash).toBe(set00.hash);
      expect(b.cardSet.hash).toBe(set00.hash);
      expect(c.cardSet.hash).toBe(set00.hash);
    }
  });

  it('R-CARD-1: the hash changes when a card changes', () => {
    const f = fileCopy();
    monsterIn(f, 'magma-brute').atk += 1;
    const r = loadCardSet(f);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.cardSet.hash).not.toBe(set00.hash);
  });
});
