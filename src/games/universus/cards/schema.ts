/** Card data model (U- §2): one Zod schema validates the shipped JSON and any test fixture. */
import { z } from 'zod';

export const zoneSchema = z.enum(['HIGH', 'MID', 'LOW']);
export type Zone = z.infer<typeof zoneSchema>;

const common = { id: z.string().min(1), name: z.string().min(1), symbols: z.array(z.string()) };
const blockable = {
  difficulty: z.number().int().min(0),
  check: z.number().int(),
  blockZone: zoneSchema.nullable(),
  blockModifier: z.number().int().min(0),
};

export const characterSchema = z.object({
  ...common,
  type: z.literal('CHARACTER'),
  health: z.number().int().positive(),
  handSize: z.number().int().positive(),
});
export const attackSchema = z.object({
  ...common,
  ...blockable,
  type: z.literal('ATTACK'),
  zone: zoneSchema,
  speed: z.number().int().min(0),
  damage: z.number().int().min(0),
});
export const foundationSchema = z.object({ ...common, ...blockable, type: z.literal('FOUNDATION') });
export const cardSchema = z.discriminatedUnion('type', [characterSchema, attackSchema, foundationSchema]);
export type Card = z.infer<typeof cardSchema>;

export const cardSetSchema = z.object({ id: z.string(), name: z.string(), placeholder: z.boolean(), cards: z.array(cardSchema) });
