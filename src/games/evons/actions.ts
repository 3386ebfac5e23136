/** Everything a player can submit. Each decision the rules leave to a player is one of these. */
import { z } from 'zod';
import { cellIndex } from './board.js';

const cardId = z.string().min(1).max(64);
const cell = z.string().regex(/^[XABCDEY][0-6]$/, 'a cell name such as C3');

export const ActionSchema = z.discriminatedUnion('type', [
  /** Step 3: reveal this covered card next (R-FACE-5). */
  z.strictObject({ type: z.literal('reveal'), card: cardId }),
  /** Step 4: play a card from hand (R-PLAY-1..3). */
  z.strictObject({ type: z.literal('play'), card: cardId, cell, covered: z.boolean() }),
  /** The pass point (R-TURN-2). */
  z.strictObject({ type: z.literal('pass') }),
  /**
   * Use one ability arrow (R-ACT-1). `card` is the hand card for Growth/Block placement or the
   * graveyard card for Resurrection; `pull` is the cell Magnetism pulls from.
   */
  z.strictObject({
    type: z.literal('ability'),
    arrow: z.number().int().min(0).max(7),
    target: cell,
    card: cardId.optional(),
    pull: cell.optional(),
  }),
  /** Finish the current Ability Phase (R-ACT-2). */
  z.strictObject({ type: z.literal('end-phase') }),
  /** Resolve the conflict with this defending card next (R-CONF-4). */
  z.strictObject({ type: z.literal('conflict'), defender: cardId }),
  /** Start this triggered card's (re)activation next (R-ACT-17). */
  z.strictObject({ type: z.literal('activate'), card: cardId }),
  /** Step 8: discard this card (R-HAND-2); repeated until the hand is at the limit. */
  z.strictObject({ type: z.literal('discard'), card: cardId }),
  /** Concede; always allowed while the game runs. The other seat wins. */
  z.strictObject({ type: z.literal('resign') }),
]);

export type Action = z.infer<typeof ActionSchema>;

const isCardId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 64;
const isCell = (v: unknown): v is string => typeof v === 'string' && cellIndex(v) !== undefined;

/**
 * A fast path for `ActionSchema.safeParse`: a copy of `input` when it is a plain object the
 * schema certainly accepts (exactly its keys, valid values), otherwise null. Parsing with Zod
 * cost more than some whole moves on the engine's hot path; anything this does not accept still
 * goes through the schema, so rejections and their messages are the schema's alone.
 */
export function wellFormedAction(input: unknown): Action | null {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Object.prototype) return null;
  const a = input as Record<string, unknown>;
  const keys = Object.keys(a).length;
  switch (a.type) {
    case 'pass':
    case 'end-phase':
    case 'resign':
      return keys === 1 ? { type: a.type } : null;
    case 'reveal':
    case 'activate':
    case 'discard':
      return keys === 2 && isCardId(a.card) ? { type: a.type, card: a.card } : null;
    case 'conflict':
      return keys === 2 && isCardId(a.defender) ? { type: 'conflict', defender: a.defender } : null;
    case 'play':
      return keys === 4 && isCardId(a.card) && isCell(a.cell) && typeof a.covered === 'boolean'
        ? { type: 'play', card: a.card, cell: a.cell, covered: a.covered }
        : null;
    case 'ability': {
      const { arrow, target, card, pull } = a;
      const hasCard = 'card' in a;
      const hasPull = 'pull' in a;
      if (keys !== 3 + (hasCard ? 1 : 0) + (hasPull ? 1 : 0)) return null;
      if (typeof arrow !== 'number' || !Number.isInteger(arrow) || arrow < 0 || arrow > 7 || !isCell(target)) return null;
      if ((hasCard && !isCardId(card)) || (hasPull && !isCell(pull))) return null;
      // Keys set one by one, not spread from literals: every ability action a player sends comes here.
      const out: Extract<Action, { type: 'ability' }> = { type: 'ability', arrow, target };
      if (hasCard) out.card = card as string;
      if (hasPull) out.pull = pull as string;
      return out;
    }
    default:
      return null;
  }
}
