/**
 * The UniVersus view (view.ts) as Zod schemas: REST validates and serialises with them, and the
 * OpenAPI document takes its components from the `.meta({ id })` ids. Strict objects throughout so
 * a field the engine adds without a schema change fails (test/architecture/universus-view-shapes).
 */
import { z } from 'zod';
import { actionSchema } from './actions.js';
import type { UniversusView } from './view.js';

// Not registered as a component: the service's own `Seat` component is the same enum.
const Seat = z.enum(['p1', 'p2']);
const Zone = z.enum(['HIGH', 'MID', 'LOW']);
const InstanceId = z.string().describe('Opaque card instance id, stable for the whole match.');
const CardId = z.string().describe('The printed card (GET /v1/games/universus/cards).');

export const UniversusCardInstanceSchema = z
  .strictObject({ id: InstanceId, card: CardId })
  .meta({ id: 'UniVersusCardInstance', description: 'A card the viewer may know: its instance and printed card.' });

export const UniversusPoolEntrySchema = z
  .strictObject({
    id: InstanceId,
    card: CardId,
    role: z.enum(['PLAYED', 'BLOCK']).describe('PLAYED by the turn player, or a passed BLOCK (U-BLOCK-5).'),
    dealtDamage: z.boolean().describe('An attack that dealt damage (U-DAMAGE-3): eligible for momentum (U-MOMENTUM-1).'),
    built: z.boolean().describe('A foundation that passed its play check this turn (U-FOUND-2).'),
  })
  .meta({ id: 'UniVersusPoolEntry', description: 'A card in a card pool; every pool card counts for progressive difficulty (U-PROG-1).' });

export const UniversusStageEntrySchema = z
  .strictObject({
    id: InstanceId,
    card: CardId,
    committed: z.boolean().describe("Committed for a check; ready again at its owner's next Ready Step (U-COMMIT-3)."),
  })
  .meta({ id: 'UniVersusStageEntry', description: "A built foundation on its owner's stage (U-FOUND-1)." });

export const UniversusPendingSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('PLAY'), seat: Seat }).describe('The turn player plays a card or passes (U-TURN-4).'),
    z
      .strictObject({
        kind: z.literal('AWAIT_COMMIT'),
        seat: Seat,
        shortfall: z.number().int().describe('Ready foundations to commit to pass the check (U-COMMIT-1).'),
      })
      .describe('The checker commits exactly `shortfall` foundations or declines.'),
    z.strictObject({ kind: z.literal('AWAIT_BLOCK'), seat: Seat }).describe('The defender blocks or declines (U-BLOCK-1).'),
    z
      .strictObject({ kind: z.literal('AWAIT_MOMENTUM'), seat: Seat })
      .describe('The turn player picks attacks for momentum (U-MOMENTUM-1).'),
  ])
  .meta({ id: 'UniVersusPending', description: 'The decision the game waits for, by kind.' });

export const UniversusCheckSchema = z
  .strictObject({
    seat: Seat.describe('Whose check.'),
    purpose: z.enum(['PLAY', 'BLOCK']),
    id: InstanceId.describe('The attempted card: public from the attempt on, in no zone during the check (D-5).'),
    card: CardId,
    difficulty: z.number().int().describe('Card difficulty (+ speed and block modifier for a block) + progressive difficulty.'),
  })
  .meta({ id: 'UniVersusCheck', description: 'A check in progress (U-CHECK-1: revealed cards are public to both seats).' });

export const UniversusAttackSchema = z
  .strictObject({
    id: InstanceId.describe("The attack card, in the attacker's card pool."),
    attacker: Seat,
    zone: Zone,
    speed: z.number().int(),
    damage: z.number().int(),
  })
  .meta({ id: 'UniVersusAttack', description: 'The attack being resolved: printed zone, speed and damage (U-ATTACK-3).' });

export const UniversusPlayerViewSchema = z
  .strictObject({
    character: CardId.describe('The character card (in play, never in the deck).'),
    health: z.number().int().describe('Remaining health; shown as 0 when below (U-DAMAGE-2).'),
    handSize: z.number().int().describe("The character's hand size: draws go up to it (U-TURN-3)."),
    handCount: z.number().int().describe('Cards in hand (public).'),
    hand: z.array(UniversusCardInstanceSchema).nullable().describe("Only in the seat's own view; null for the other seat and spectators."),
    deckCount: z.number().int().describe('Cards in the deck; the order is secret.'),
    discard: z.array(UniversusCardInstanceSchema).describe('Public, oldest first.'),
    removedCount: z.number().int().describe('Cards removed face down by cycling (U-CYCLE-2).'),
    cardPool: z.array(UniversusPoolEntrySchema),
    stage: z.array(UniversusStageEntrySchema),
    momentumCount: z.number().int().describe('Momentum is face down: a count only (U-MOMENTUM-2).'),
  })
  .meta({ id: 'UniVersusPlayerView', description: 'One seat as the viewer may see it.' });

export const UniversusViewSchema = z
  .strictObject({
    game: z.literal('universus'),
    viewer: z.enum(['p1', 'p2', 'spectator']).describe('Whom this view is for.'),
    turnPlayer: Seat,
    turnNumber: z.number().int(),
    phase: z.enum(['COMBAT', 'END', 'OVER']),
    pending: UniversusPendingSchema.nullable().describe('Null once the game is over.'),
    check: UniversusCheckSchema.nullable(),
    attack: UniversusAttackSchema.nullable(),
    players: z.strictObject({ p1: UniversusPlayerViewSchema, p2: UniversusPlayerViewSchema }),
    winner: Seat.nullable(),
    winReason: z
      .string()
      .nullable()
      .describe(
        'HEALTH_ZERO or EXHAUSTED once the game is won (U-WIN-1, U-WIN-2), TURN_LIMIT when it ended drawn at maxTurns (winner null).',
      ),
    seedCommitment: z.string().describe('sha256 of the seed, fixed at creation.'),
    seed: z.string().nullable().describe('Published once the game has ended; null before.'),
  })
  .meta({ id: 'UniVersusView', description: 'A UniVersus game as one viewer (a seat or a spectator) may see it.' });

/** The engine's action schema as an OpenAPI component; meta() returns a copy, the engine's is untouched. */
export const UniversusActionSchema = actionSchema.meta({
  id: 'UniVersusAction',
  description: 'A UniVersus action, by type: PlayCard, CommitForCheck, DeclineCommit, Block, NoBlock, PassCombat, ChooseMomentum.',
});

// Compile-time: fails to type-check when the schema and the engine's view type drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type UniversusViewSchemaMatchesEngine = Assert<Same<z.infer<typeof UniversusViewSchema>, UniversusView>>;
