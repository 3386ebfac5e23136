/**
 * RulesConfig: every [R:OQ-n] reading of the spec under the name the spec gives it, with the
 * recommended default, plus the [T] (testing) rules, off by default. A match records the config
 * it was created with and never changes it.
 */
import { z } from 'zod';
import { issueLines } from '../../core/issues.js';

export const RulesConfigSchema = z.strictObject({
  /** R-ARROW-5..7 (OQ-2): LINE scans to the first occupied cell; ADJACENT sees the neighbour only. */
  arrowReach: z.enum(['LINE', 'ADJACENT']).default('LINE'),
  /** R-FACE-12 (OQ-4): what an arrow does to a standard covered opponent card in the Flip step. */
  coveredHitByArrow: z.enum(['DESTROY', 'FLIP_OWNERSHIP', 'IGNORE']).default('DESTROY'),
  /** R-FACE-7 (OQ-6): whether Growth-placed cards are revealed (free) at step 3. */
  growthAutoReveal: z.boolean().default(false),
  /** R-FACE-4 (OQ-7): a covered card whose cost cannot be paid when it is revealed. */
  unpaidCoverBehaviour: z.enum(['STAY_COVERED', 'DESTROY']).default('STAY_COVERED'),
  /** R-PLAY-5 (OQ-9): whether Block cards may be played from hand as the turn's card. */
  allowDirectBlockPlay: z.boolean().default(false),
  /** R-HAND-4 (OQ-10): cards dealt to each player before turn 1. */
  startingHandSize: z.number().int().min(0).max(20).default(5),
  /** R-HAND-4 (OQ-10): who takes turn 1. RANDOM uses the match's seeded generator. */
  firstPlayer: z.enum(['RANDOM', 'p1', 'p2']).default('RANDOM'),
  /** R-HAND-4 (OQ-10): no mulligan rule is sourced; NONE is the only value for now. */
  mulligan: z.enum(['NONE']).default('NONE'),
  /** R-HAND-5 (OQ-11): drawing from an empty deck: SKIP (no penalty) or LOSE (that player loses). */
  emptyDeckDraw: z.enum(['SKIP', 'LOSE']).default('SKIP'),
  /** R-HAND-2: hand limit checked at step 8. */
  handLimit: z.number().int().min(1).max(60).default(8),
  /** R-CRED-1/2: starting credits and the per-turn gain. */
  startingCredits: z.number().int().min(0).default(50),
  creditsPerTurn: z.number().int().min(0).default(5),
  /** R-END-4 (OQ-12): equal scores at the end. DRAW is the only sourced-compatible reading. */
  tieBreak: z.enum(['DRAW']).default('DRAW'),
  /**
   * R-END-5 (OQ-13): engine safeguard, not a rule. The game ends (scored) after this many
   * consecutive turns in which the active player passed with an empty deck and no legal play.
   */
  stalemateTurns: z.number().int().min(2).max(1000).default(6),
  /** R-BONUS-4 (OQ-22): the Cell Bonus system; its 6 options are unsourced, so it is a disabled hook. */
  cellBonus: z.enum(['DISABLED']).default('DISABLED'),
  /** R-SYN-1 [T]: Color Synergy (testing rule, off by default). */
  colorSynergy: z.boolean().default(false),
  /** R-AB-MAG-11 [T] (OQ-31): Magnetism may pull the activating card itself. */
  magnetismSelfPull: z.boolean().default(false),
  /**
   * R-CHAIN-1 (issue 20): engine safeguard, not a rule (the rulebook sets no depth limit, and two
   * own Swap cards can reactivate each other for ever). A chain holds at most this many sequences:
   * at that depth a queued reactivation is dropped (TriggerDropped, reason chain-depth) and
   * Resurrection, whose revived card would open one more, is not offered. null: no limit, the
   * rulebook as written (and how every match stored before this setting plays: its config lacks it).
   */
  maxChainDepth: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .default(8)
    .describe(
      'A chain holds at most this many sequences; deeper reactivations are dropped (docs/rules-decisions.md, decision 11). null: no limit.',
    ),
  /**
   * Issue 34 (engine safeguard, not a rule): a turn uses at most this many abilities. Abilities
   * are the only choices a turn can repeat without end (a Swap moves a card, the moved card
   * reactivates, R-ACT-11): every other choice of a turn is bounded by the hand and the board.
   * Once a turn has used this many, no ability is offered for the rest of it: each Ability Phase
   * ends on its own and the turn finishes. null: no limit (and every match stored before the
   * setting: its config lacks it).
   */
  maxTurnAbilities: z
    .number()
    .int()
    .min(1)
    .max(10000)
    .nullable()
    .default(200)
    .describe(
      'A turn uses at most this many abilities; after that none is offered until the next turn (docs/rules-decisions.md, decision 13). null: no limit.',
    ),
  /**
   * Issue 34 (engine safeguard, not a rule): a match has at most this many turns. When turn
   * `maxTurns` ends, the game ends and is scored as it stands (R-END-3/4, reason turn-limit),
   * like the stalemate safeguard. null: no limit (and every match stored before the setting).
   */
  maxTurns: z
    .number()
    .int()
    .min(1)
    .max(100000)
    .nullable()
    .default(500)
    .describe(
      'The game ends, scored as it stands (reason turn-limit), when this turn ends (docs/rules-decisions.md, decision 13). null: no limit.',
    ),
});

export type RulesConfig = z.infer<typeof RulesConfigSchema>;
export type RulesConfigInput = z.input<typeof RulesConfigSchema>;

export const DEFAULT_CONFIG: RulesConfig = RulesConfigSchema.parse({});

/** How deep a chain may go under `config` (a stored config without the setting: no limit, as it was played). */
export function chainDepthLimit(config: RulesConfig): number {
  return config.maxChainDepth ?? Number.POSITIVE_INFINITY;
}

/** How many abilities a turn may use under `config` (a stored config without the setting: no limit). */
export function turnAbilityLimit(config: RulesConfig): number {
  return config.maxTurnAbilities ?? Number.POSITIVE_INFINITY;
}

/** The last turn of a match under `config` (a stored config without the setting: no limit). */
export function turnLimit(config: RulesConfig): number {
  return config.maxTurns ?? Number.POSITIVE_INFINITY;
}

/**
 * Settings added after matches were stored, oldest first: a stored config lacks a tail of this
 * list (one stored before maxChainDepth lacks all three) and is played with no limit for each.
 */
export const LATER_SETTINGS = ['maxChainDepth', 'maxTurnAbilities', 'maxTurns'] as const;

/** Configs as views show them, by the stored config: one object per config, so memos keyed by it keep working. */
const SHOWN = new WeakMap<RulesConfig, RulesConfig>();

/**
 * A stored config with every setting named: one stored before a setting existed shows the value
 * it is played by (maxChainDepth, maxTurnAbilities, maxTurns null), not today's default. Its rules hash is the stored config's.
 */
export function shownConfig(config: RulesConfig): RulesConfig {
  if (config.maxChainDepth !== undefined && config.maxTurnAbilities !== undefined && config.maxTurns !== undefined) return config;
  let shown = SHOWN.get(config);
  if (!shown) {
    shown = { ...config };
    for (const key of LATER_SETTINGS) if (shown[key] === undefined) shown[key] = null;
    SHOWN.set(config, shown);
  }
  return shown;
}

export type ConfigResult = { ok: true; config: RulesConfig } | { ok: false; errors: string[] };

export function parseConfig(input: unknown = {}): ConfigResult {
  const r = RulesConfigSchema.safeParse(input ?? {});
  if (r.success) return { ok: true, config: r.data };
  return { ok: false, errors: issueLines(r.error.issues) };
}
