/** Everything a player can submit. Each decision the rules leave to a player is one of these. */
import { z } from 'zod';

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
export type ActionType = Action['type'];
