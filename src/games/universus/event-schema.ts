/**
 * UniVersus events as clients see them (events.ts, redacted by view.ts's redactEvent), as Zod
 * schemas: the OpenAPI document takes each event's component from its `.meta({ id })`, and the
 * contract tests validate real event bodies against them. Strict objects, so a field the engine
 * adds or renames without a schema change fails those tests. Events only the server sees
 * (GameStarted, PositionLoaded, DeckCycled) are described in their public form.
 */
import { z } from 'zod';
import { configSchema } from './config.js';
import type { UniversusEvent } from './events.js';
import { UniversusCardInstanceSchema, UniversusViewSchema } from './view-schema.js';

const Seat = z.enum(['p1', 'p2']);
const InstanceId = z.string().describe('Opaque card instance id, stable for the whole match.');
const CardId = z.string().describe('The printed card (GET /v1/games/universus/cards).');
const Int = z.number().int();
const SeatInts = z.strictObject({ p1: Int, p2: Int });

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, description: string) =>
  z.strictObject({ type: z.literal(type), ...shape }).meta({ id: `UniVersus${type}`, description });

const events = [
  event(
    'GameStarted',
    {
      rng: z.literal('chacha20'),
      config: configSchema,
      seedCommitment: z.string().describe('sha256 of the seed; the seed is published in GameWon or GameDrawn.'),
      firstPlayer: Seat,
      characters: z.strictObject({ p1: CardId, p2: CardId }),
      deckSizes: SeatInts.describe('Cards in each deck (the order stays on the server).'),
    },
    'The deal (public form: the seed and the shuffled decks stay on the server).',
  ),
  event(
    'PositionLoaded',
    { rng: z.literal('chacha20'), position: UniversusViewSchema.describe('The starting position as the caller may see it.') },
    'A sandbox game starts from a position (public form: the view of it, not the state).',
  ),
  event(
    'CardsDrawn',
    {
      seat: Seat,
      cards: z.array(UniversusCardInstanceSchema).optional().describe('Only for the drawing seat.'),
      count: Int.optional().describe('For everyone else: how many.'),
    },
    'Cards drawn: the drawing seat sees them (cards), everyone else how many (count).',
  ),
  event('TurnStarted', { seat: Seat, turnNumber: Int }, 'A turn begins.'),
  event('StageReadied', { seat: Seat, ids: z.array(InstanceId) }, 'Committed foundations ready again (U-COMMIT-3).'),
  event('PlayAttempted', { seat: Seat, id: InstanceId, card: CardId, difficulty: Int }, 'A play check begins.'),
  event('BlockAttempted', { seat: Seat, id: InstanceId, card: CardId, difficulty: Int }, 'A block check begins.'),
  event('CheckRevealed', { seat: Seat, id: InstanceId, card: CardId, value: Int, difficulty: Int }, 'The check card revealed (U-CHECK-1).'),
  event('FoundationsCommitted', { seat: Seat, ids: z.array(InstanceId) }, 'Foundations committed for a check.'),
  event('CheckPassed', { seat: Seat, difficulty: Int }, 'The check passed.'),
  event('CheckFailed', { seat: Seat, difficulty: Int }, 'The check failed.'),
  event('AwaitingCommit', { seat: Seat, shortfall: Int }, 'The checker may commit `shortfall` foundations.'),
  event('CardDiscarded', { seat: Seat, id: InstanceId }, 'A card to the discard pile.'),
  event('CardPlacedInPool', { seat: Seat, id: InstanceId, role: z.enum(['PLAYED', 'BLOCK']) }, 'A card into the card pool.'),
  event('FoundationBuilt', { seat: Seat, id: InstanceId, toStage: z.boolean() }, 'A foundation built (U-FOUND-2).'),
  event(
    'AttackStarted',
    { seat: Seat, id: InstanceId, zone: z.enum(['HIGH', 'MID', 'LOW']), speed: Int, damage: Int },
    'An attack (U-ATTACK-3).',
  ),
  event('BlockResolved', { seat: Seat, outcome: z.enum(['FULL', 'HALF', 'NONE']) }, 'How the block went.'),
  event('DamageDealt', { seat: Seat, amount: Int }, 'Damage dealt to `seat`.'),
  event('HealthChanged', { seat: Seat, health: Int }, "A seat's health now."),
  event('MomentumChoice', { seat: Seat, eligible: z.array(InstanceId) }, 'Attacks eligible for momentum (U-MOMENTUM-1).'),
  event('MovedToMomentum', { seat: Seat, ids: z.array(InstanceId) }, 'Cards moved to momentum (face down).'),
  event(
    'CardPoolCleared',
    { seat: Seat, toDiscard: z.array(InstanceId), toStage: z.array(InstanceId) },
    'The card pool cleared at the end of a turn.',
  ),
  event(
    'DeckCycled',
    { seat: Seat, shuffle: Int, deckSize: Int, removedCount: Int },
    'The discard pile shuffled into a new deck (U-CYCLE-2; public form: the order stays on the server).',
  ),
  event('PlayerExhausted', { seat: Seat }, 'A seat could not draw (U-WIN-2).'),
  event('TurnEnded', { seat: Seat }, 'A turn ends.'),
  event('CombatResumed', { seat: Seat }, 'Combat continues after a check.'),
  event(
    'GameWon',
    {
      winner: Seat,
      reason: z.enum(['HEALTH_ZERO', 'EXHAUSTED']),
      seed: z.string().describe('The seed, published: check it against the commitment.'),
    },
    'The game is over.',
  ),
  event(
    'GameDrawn',
    { reason: z.enum(['TURN_LIMIT']), seed: z.string().describe('The seed, published: check it against the commitment.') },
    'The game is over, drawn: its last turn (maxTurns) ended.',
  ),
] as const;

export const UniversusEventSchema = z
  .discriminatedUnion('type', events)
  .meta({ id: 'UniVersusEvent', description: 'A UniVersus event as the caller may see it (discriminated by type).' });

// Every event type the engine emits has a schema (and no schema names a type it does not emit).
type Missing = Exclude<UniversusEvent['type'], z.infer<typeof UniversusEventSchema>['type']>;
type Extra = Exclude<z.infer<typeof UniversusEventSchema>['type'], UniversusEvent['type']>;
export const everyUniversusEventHasASchema: [Missing | Extra] extends [never] ? true : never = true;
