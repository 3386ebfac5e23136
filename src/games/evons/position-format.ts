/**
 * The position format's schema (`evons-position/1`), apart from the code that loads and writes
 * positions, so events can name the type without importing the loader (and the flow it runs).
 */
import { z } from 'zod';
import { RulesConfigSchema } from './config.js';

const seat = z.enum(['p1', 'p2']);
const cardId = z.string().min(1).max(64);
const perSeat = <T extends z.ZodType>(t: T) => z.strictObject({ p1: t, p2: t });

export const PositionSchema = z.strictObject({
  format: z.literal('evons-position/1'),
  cardSetId: z.string(),
  config: RulesConfigSchema.default(RulesConfigSchema.parse({})),
  /** The seat that took turn 1 (sits on the row-6 side, R-BOARD-9). */
  first: seat,
  turn: z.number().int().min(0),
  active: seat,
  step: z.enum(['setup', 'start', 'reveal', 'play', 'activate', 'discard', 'end']),
  credits: perSeat(z.number().int().min(0)),
  /** Every card instance of the match: opaque id → definition id and owner (whose deck). */
  cards: z.record(cardId, z.strictObject({ def: z.string(), owner: seat })),
  /** Occupied cells only, by name (`C3`). */
  board: z.record(
    z.string().regex(/^[XABCDEY][0-6]$/),
    z.strictObject({
      id: cardId,
      facing: seat,
      covered: z.boolean().default(false),
      growth: z.boolean().default(false),
      damage: z.number().int().min(0).default(0),
      moved: z.boolean().default(false),
    }),
  ),
  decks: perSeat(z.array(cardId)),
  hands: perSeat(z.array(cardId)),
  graveyards: perSeat(z.array(cardId)),
  removed: z.array(cardId).default([]),
  revealDue: z.array(cardId).default([]),
  played: z.boolean().default(false),
  stack: z
    .array(
      z.strictObject({
        card: cardId,
        kind: z.enum(['activation', 'reactivation']),
        phase: z.enum(['ability1', 'conflicts', 'flip', 'ability2']),
        used: z.array(z.number().int().min(0).max(7)).default([]),
        revivedCost: z.number().int().min(0).default(0),
        conflicts: z.array(cardId).nullable().default(null),
        triggers: z.array(cardId).default([]),
      }),
    )
    .default([]),
  stalled: z.number().int().min(0).default(0),
});

export type PositionData = z.input<typeof PositionSchema>;
export type Position = z.output<typeof PositionSchema>;
