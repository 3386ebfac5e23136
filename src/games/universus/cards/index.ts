/** The placeholder card set (U- §6): invented cards, validated at load, hashed for rules pinning. */
import { canonicalJson, sha256Hex } from '../../../core/hash.js';
import type { CardSetInfo, StarterDeck } from '../../../core/ruleset.js';
import data from './data.json' with { type: 'json' };
import { cardSetSchema, type Card } from './schema.js';

const parsed = cardSetSchema.parse(data);
export const CARDS: readonly Card[] = parsed.cards;
export const CARD_BY_ID: ReadonlyMap<string, Card> = new Map(CARDS.map((c) => [c.id, c]));

export const cardSet: CardSetInfo<Card> = {
  id: parsed.id,
  name: parsed.name,
  placeholder: parsed.placeholder,
  hash: sha256Hex(canonicalJson(parsed)),
  cards: CARDS,
};

/** 60-card decks (U-SETUP-1); the character is the first entry, count 1. */
export const starterDecks: readonly StarterDeck[] = [
  {
    id: 'scouts',
    name: 'Scout Regiment',
    description: 'Placeholder deck: fast High attacks, High/Mid blocks.',
    cards: [
      { card: 'C01', count: 1 },
      { card: 'A01', count: 8 },
      { card: 'A02', count: 6 },
      { card: 'A07', count: 8 },
      { card: 'A04', count: 6 },
      { card: 'F01', count: 10 },
      { card: 'F02', count: 6 },
      { card: 'F03', count: 6 },
      { card: 'F05', count: 10 },
    ],
  },
  {
    id: 'garrison',
    name: 'Garrison Wall',
    description: 'Placeholder deck: sturdy foundations and Low attacks.',
    cards: [
      { card: 'C02', count: 1 },
      { card: 'A03', count: 10 },
      { card: 'A06', count: 4 },
      { card: 'A08', count: 8 },
      { card: 'A04', count: 6 },
      { card: 'F04', count: 10 },
      { card: 'F06', count: 10 },
      { card: 'F02', count: 6 },
      { card: 'F01', count: 6 },
    ],
  },
  {
    id: 'shifters',
    name: 'Titan Shifters',
    description: 'Placeholder deck: heavy damage, few blocks.',
    cards: [
      { card: 'C03', count: 1 },
      { card: 'A05', count: 6 },
      { card: 'A06', count: 6 },
      { card: 'A08', count: 8 },
      { card: 'A03', count: 8 },
      { card: 'F03', count: 8 },
      { card: 'F05', count: 8 },
      { card: 'F04', count: 8 },
      { card: 'F02', count: 8 },
    ],
  },
];
