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
    /**
     * Issue 34 (an engine safeguard, not a rule): the last turn of a match. When turn `maxTurns`
     * ends, the game ends as a draw (GameDrawn, TURN_LIMIT). null: no limit, and every config
     * stored before the setting (it lacks it).
     */
    maxTurns: z
      .number()
      .int()
      .min(1)
      .max(100000)
      .nullable()
      .default(200)
      .describe('The game ends as a draw (GameDrawn, TURN_LIMIT) when this turn ends (docs/rules-decisions.md). null: no limit.'),
  })
  .strict();

export type UniversusConfig = z.infer<typeof configSchema>;
export const defaultConfig: UniversusConfig = configSchema.parse({});

/** The last turn under `config`: a config stored before maxTurns lacks it and has no limit. */
export function turnLimit(config: UniversusConfig): number {
  return config.maxTurns ?? Number.POSITIVE_INFINITY;
}

/** The settings every config stored before maxTurns names (a stored config is a whole parse). */
const OLDER_SETTINGS = Object.keys(configSchema.shape).filter((k) => k !== 'maxTurns');

/**
 * `input` parsed, as stored: a stored config from before maxTurns (every other setting named,
 * maxTurns not) stays without it, so it plays, hashes and deals as it did. Any other input
 * (settings given in part, `{}`) gets the defaults, maxTurns included.
 */
export function storedConfig(input: unknown, parsed: UniversusConfig): UniversusConfig {
  if (typeof input !== 'object' || input === null || 'maxTurns' in input) return parsed;
  if (!OLDER_SETTINGS.every((k) => k in input)) return parsed;
  const { maxTurns: _omitted, ...rest } = parsed;
  return rest as UniversusConfig;
}

/** A config as views show it: one stored before maxTurns names it null (no limit, as it is played). */
export function shownConfig(config: UniversusConfig): UniversusConfig {
  return config.maxTurns === undefined ? { ...config, maxTurns: null } : config;
}
