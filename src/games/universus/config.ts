/** Engine settings (U- §4): each reading of a gap [R:UQ-n] is a named setting, defaults = the spec. */
import { z } from 'zod';

export const configSchema = z
  .object({
    /** UQ-1 (U-BLOCK-2): may a High block stop a Low attack (and vice versa) for half damage? */
    blockZoneRule: z.enum(['ADJACENT_ONLY', 'ANY_ZONE_HALF']).default('ADJACENT_ONLY'),
    /** U-DAMAGE-1: fixed by the seed. */
    halfDamageRounding: z.literal('UP').default('UP'),
    /** UQ-7 (U-PLAY-5). */
    failedCheckEndsTurn: z.boolean().default(true),
    /** UQ-4 (U-COMMIT-1). */
    commitMode: z.enum(['EXACT_SHORTFALL_AFTER_REVEAL', 'NONE']).default('EXACT_SHORTFALL_AFTER_REVEAL'),
    /** UQ-5 (U-FOUND-2). */
    foundationEntersStage: z.enum(['END_PHASE', 'IMMEDIATELY']).default('END_PHASE'),
    /** UQ-13 (U-ATTACK-2): only SKIP is implemented (ALLOW needs the extension's own spec, D-6). */
    enhanceStep: z.literal('SKIP').default('SKIP'),
    /** UQ-6 (U-MOMENTUM-1). */
    autoMomentum: z.enum(['ASK', 'ALL', 'NONE']).default('ASK'),
    /** UQ-9 (U-CYCLE-2). */
    cycleRemoveCount: z.number().int().min(0).default(10),
    /** U-SETUP-1. */
    minDeckSize: z.number().int().min(1).default(60),
    /** UQ-12 (U-CHECK-3). */
    alwaysRevealOnCheck: z.boolean().default(true),
  })
  .strict();

export type UniversusConfig = z.infer<typeof configSchema>;
export const defaultConfig: UniversusConfig = configSchema.parse({});
