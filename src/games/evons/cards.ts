/**
 * Card definitions and card-set files (R-CARD-1..7, R-ELEM-1..6), validated with Zod.
 * A card set is data: loading another set (say, the official one) is a configuration change.
 */
import { expandDeck } from '../../core/ruleset.js';
import { z } from 'zod';
import { DIRECTIONS, type Direction } from './board.js';
import { sha256Hex, canonicalJson } from '../../core/hash.js';
import { issueLines } from '../../core/issues.js';

export const ELEMENTS = ['Nature', 'Earth', 'Electric', 'Darkness', 'Fire', 'Water'] as const;

export const ABILITIES = ['Remove', 'Block', 'Firestorm', 'Growth', 'Magnetism', 'Resurrection', 'Shockwave', 'Swap'] as const;
export type Ability = (typeof ABILITIES)[number];
export type ArrowType = 'Normal' | Ability;
export const ARROW_TYPES: readonly ArrowType[] = ['Normal', ...ABILITIES];

const id = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'ids are lower-case letters, digits and dashes');

export const ArrowSchema = z.strictObject({
  dir: z.enum(DIRECTIONS),
  type: z.enum(['Normal', ...ABILITIES] as [ArrowType, ...ArrowType[]]),
});

export const MonsterSchema = z.strictObject({
  id,
  kind: z.literal('monster'),
  name: z.string().min(1).max(80),
  element: z.enum(ELEMENTS),
  cost: z.number().int().min(0).max(99),
  atk: z.number().int().min(0).max(99),
  def: z.number().int().min(1).max(99),
  arrows: z
    .array(ArrowSchema)
    .max(8)
    .refine((a) => new Set(a.map((x) => x.dir)).size === a.length, 'a card has at most one arrow per direction'),
  text: z.string().max(500).optional(),
});

export const BlockCardSchema = z.strictObject({
  id,
  kind: z.literal('block'),
  name: z.string().min(1).max(80),
  element: z.enum(ELEMENTS),
});

export const CardDefSchema = z.discriminatedUnion('kind', [MonsterSchema, BlockCardSchema]);

export const DeckListSchema = z.array(z.strictObject({ card: id, count: z.number().int().min(1).max(60) })).min(1);

export const CardSetSchema = z.strictObject({
  id,
  name: z.string().min(1),
  version: z.string().min(1),
  /** True for sets we made up because no official list is public. */
  placeholder: z.boolean(),
  notes: z.string().optional(),
  /** R-ELEM-2/5: which element an ability is tied to; abilities absent here are unrestricted. */
  elementAbilities: z.partialRecord(z.enum(ABILITIES), z.enum(ELEMENTS)),
  cards: z.array(CardDefSchema).min(1),
  starterDecks: z.array(z.strictObject({ id, name: z.string().min(1), cards: DeckListSchema })).default([]),
});

export type Arrow = z.infer<typeof ArrowSchema>;
export type MonsterDef = z.infer<typeof MonsterSchema>;
export type CardDef = z.infer<typeof CardDefSchema>;
export type CardSetFile = z.infer<typeof CardSetSchema>;
export type DeckList = z.infer<typeof DeckListSchema>;

/** A loaded, validated card set with lookups. Immutable; shared by every match that uses it. */
export interface CardSet {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly placeholder: boolean;
  /** sha256 of the canonical JSON of the file: pins matches to the exact card data. */
  readonly hash: string;
  readonly file: CardSetFile;
  readonly byId: ReadonlyMap<string, CardDef>;
}

export type CardSetResult = { ok: true; cardSet: CardSet } | { ok: false; errors: string[] };

/** Validates a card-set file (schema, unique ids, element → ability table, starter decks). */
export function loadCardSet(input: unknown): CardSetResult {
  const parsed = CardSetSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, errors: issueLines(parsed.error.issues) };
  }
  const file = parsed.data;
  const errors: string[] = [];
  const byId = new Map<string, CardDef>();
  for (const c of file.cards) {
    if (byId.has(c.id)) errors.push(`cards: duplicate id ${c.id}`);
    byId.set(c.id, c);
    if (c.kind !== 'monster') continue;
    for (const a of c.arrows) {
      if (a.type === 'Normal') continue;
      const required = file.elementAbilities[a.type];
      if (required && required !== c.element) {
        errors.push(`cards.${c.id}: ${a.type} arrows are only for ${required} cards (R-ELEM-2), not ${c.element}`);
      }
    }
  }
  const names = new Map<string, string>();
  for (const c of file.cards) {
    const other = names.get(c.name);
    if (other && byId.get(other)?.kind === 'monster' && c.kind === 'monster') {
      errors.push(`cards.${c.id}: name "${c.name}" is also used by ${other}; the 4-copy limit counts by name (R-CARD-4)`);
    }
    names.set(c.name, c.id);
  }
  const cardSet: CardSet = {
    id: file.id,
    name: file.name,
    version: file.version,
    placeholder: file.placeholder,
    hash: sha256Hex(canonicalJson(file)),
    file,
    byId,
  };
  for (const deck of file.starterDecks) {
    const r = validateDeck(cardSet, expandDeckList(deck.cards));
    if (!r.ok) errors.push(...r.errors.map((e) => `starterDecks.${deck.id}: ${e}`));
  }
  return errors.length ? { ok: false, errors } : { ok: true, cardSet };
}

/** Evons's name for the core's deck expansion. */
export const expandDeckList: (list: DeckList) => string[] = expandDeck;

export const DECK_SIZE = 60;
export const MAX_COPIES = 4;

export type DeckResult = { ok: true } | { ok: false; errors: string[] };

/** R-DECK-1..3: exactly 60 cards, at most 4 copies of a monster (by name), Block cards unlimited. */
export function validateDeck(cardSet: CardSet, cards: readonly string[]): DeckResult {
  const errors: string[] = [];
  if (cards.length !== DECK_SIZE) errors.push(`a deck has exactly ${DECK_SIZE} cards, this one has ${cards.length} (R-DECK-1)`);
  const copies = new Map<string, number>();
  const unknown = new Set<string>();
  for (const c of cards) {
    const def = cardSet.byId.get(c);
    if (!def) {
      unknown.add(c);
      continue;
    }
    if (def.kind === 'monster') copies.set(def.name, (copies.get(def.name) ?? 0) + 1);
  }
  for (const u of unknown) errors.push(`unknown card "${u}" in card set ${cardSet.id}`);
  for (const [name, n] of copies) {
    if (n > MAX_COPIES) errors.push(`${n} copies of "${name}"; at most ${MAX_COPIES} copies of a monster (R-DECK-2)`);
  }
  return errors.length ? { ok: false, errors } : { ok: true };
}

export function monster(cardSet: CardSet, defId: string): MonsterDef | undefined {
  const d = cardSet.byId.get(defId);
  return d?.kind === 'monster' ? d : undefined;
}

export type { Direction };
