/**
 * Evons events as clients see them (events.ts, redacted by visibility.ts), as Zod schemas: the
 * OpenAPI document takes each event's component from its `.meta({ id })`, and the contract tests
 * validate real event bodies against them. Strict objects, so a field the engine adds or renames
 * without a schema change fails those tests. Where a viewer may see less (redaction), the hidden
 * fields are optional and say when they are present. The pending decision (decisions.ts) too.
 */
import { z } from 'zod';
import type { GameEvent } from './events.js';
import type { Decision } from './decisions.js';
import { RulesConfigSchema } from './config.js';

// Not registered: the service's own `Seat` component is the same enum.
const Seat = z.enum(['p1', 'p2']);
const Card = z.string().describe('Opaque card instance id.');
const DefId = z.string().describe('The card definition (GET /v1/cards).');
const Cell = z.string().describe('A cell name such as C3 (the board in GameView lists them all).');
const Int = z.number().int();

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, description: string) =>
  z.strictObject({ type: z.literal(type), ...shape }).meta({ id: `Evons${type}`, description });

const events = [
  event(
    'MatchCreated',
    {
      engineVersion: z.string(),
      rulesHash: z.string(),
      cardSetId: z.string(),
      cardSetHash: z.string(),
      config: RulesConfigSchema,
      seedCommitment: z.string().describe('sha256 of the seed; the seed itself is published in SeedRevealed at the end.'),
      first: Seat.describe('Who moves first.'),
      rng: z.enum(['sfc32', 'chacha20']).optional().describe('The generator that dealt the match; absent: sfc32.'),
    },
    'The deal (public form: the seed and deck lists stay on the server until SeedRevealed).',
  ),
  event(
    'PositionLoaded',
    { engineVersion: z.string(), rulesHash: z.string(), cardSetId: z.string(), cardSetHash: z.string(), seedCommitment: z.string() },
    'A sandbox match starts from a position (public form: the position itself stays on the server).',
  ),
  event('TurnStarted', { turn: Int, seat: Seat }, 'A turn begins.'),
  event('CreditsGained', { seat: Seat, amount: Int, total: Int }, 'Credits gained; total after.'),
  event(
    'CardDrawn',
    {
      seat: Seat,
      card: Card.optional().describe('Only for the drawing seat.'),
      defId: DefId.optional().describe('Only for the drawing seat.'),
    },
    'A card drawn; only its owner sees which.',
  ),
  event('DrawSkipped', { seat: Seat }, 'No draw (empty deck or the first turn).'),
  event(
    'StepStarted',
    {
      step: z.enum(['reveal', 'play', 'discard']),
      due: z.array(Card).optional().describe('reveal: the covered cards due to be revealed.'),
    },
    'A step of the turn begins.',
  ),
  event(
    'CardRevealed',
    { seat: Seat, card: Card, defId: DefId, cell: Cell, paid: Int, total: Int },
    'A covered card revealed and paid for (R-FACE-3/4).',
  ),
  event('RevealDeferred', { seat: Seat, card: Card, cell: Cell }, 'A due reveal deferred.'),
  event(
    'CardPlayed',
    {
      seat: Seat,
      card: Card,
      defId: DefId.optional().describe('Absent for a covered play, except to its owner.'),
      cell: Cell,
      covered: z.boolean(),
      paid: Int,
      total: Int,
    },
    'A card played from hand (face up, or covered).',
  ),
  event('Passed', { seat: Seat, auto: z.boolean(), stalled: z.boolean() }, 'A seat passed (auto: the server passed for it).'),
  event(
    'ActivationStarted',
    { card: Card, cell: Cell, kind: z.enum(['activation', 'reactivation']) },
    "A card's Activation Sequence begins (R-ACT-1).",
  ),
  event('PhaseStarted', { card: Card, phase: z.enum(['ability1', 'conflicts', 'flip', 'ability2']) }, 'A phase of an activation begins.'),
  event('AbilityUsed', { card: Card, arrow: Int, ability: z.string(), target: Cell }, 'An ability arrow used.'),
  event(
    'CardGrown',
    { seat: Seat, card: Card, defId: DefId.optional().describe('Only for its owner.'), cell: Cell },
    'Growth: a hand card placed covered.',
  ),
  event('BlockPlaced', { seat: Seat, card: Card, defId: DefId, cell: Cell }, 'A block placed.'),
  event('CardRevived', { seat: Seat, card: Card, defId: DefId, cell: Cell, cost: Int }, 'Resurrection: a card back from the graveyard.'),
  event(
    'CardMoved',
    { card: Card, from: Cell, to: Cell, cause: z.enum(['Shockwave', 'Magnetism', 'Swap']) },
    'A card moved by an ability.',
  ),
  event('CardsSwapped', { card: Card, other: Card, from: Cell, to: Cell }, 'Two cards swapped.'),
  event('FirestormDamage', { card: Card, cell: Cell, amount: Int, def: Int.optional().describe('DEF left.') }, 'Firestorm damage.'),
  event('ConflictsFixed', { card: Card, defenders: z.array(Card) }, 'The conflicts of an activation, in order.'),
  event(
    'ConflictResolved',
    { attacker: Card, defender: Card, attackerDamage: Int, defenderDamage: Int, attackerDef: Int, defenderDef: Int },
    'A conflict: damage dealt to each (simultaneous, R-CONF-5) and DEF left.',
  ),
  event(
    'CardDestroyed',
    {
      card: Card,
      defId: DefId,
      owner: Seat,
      cell: Cell,
      cause: z.enum(['conflict', 'arrow', 'shockwave-landing', 'remove', 'firestorm', 'block-ability', 'unpaid']),
    },
    "To its owner's graveyard (R-GY-2).",
  ),
  event('CardRemovedFromGame', { card: Card, defId: DefId, owner: Seat, cell: Cell }, 'Removed from the game.'),
  event(
    'CardFlipped',
    { card: Card, cell: Cell, to: Seat, covered: z.boolean() },
    'A card turned to face (and now controlled by) another seat.',
  ),
  event('TriggersQueued', { cards: z.array(Card) }, 'Cards triggered at once, queued.'),
  event(
    'TriggerDropped',
    {
      card: Card,
      reason: z
        .literal('chain-depth')
        .optional()
        .describe('chain-depth: the chain already held maxChainDepth open activations; absent: the card left the board or its controller.'),
    },
    'A queued trigger that does not start: its card left the board or its controller before its turn came, or the chain was at its depth limit.',
  ),
  event('ActivationEnded', { card: Card, reason: z.enum(['completed', 'destroyed', 'left-board']) }, 'An activation ends.'),
  event('CardDiscarded', { seat: Seat, card: Card, defId: DefId }, 'A card discarded from hand.'),
  event('TurnEnded', { turn: Int, seat: Seat }, 'A turn ends.'),
  event('Resigned', { seat: Seat }, 'A seat resigned.'),
  event(
    'GameEnded',
    {
      reason: z.enum(['main-zone-full', 'stalemate', 'resignation', 'deck-out', 'turn-limit']),
      winner: Seat.nullable(),
      scores: z.strictObject({ p1: Int, p2: Int }),
    },
    'The game is over.',
  ),
  event(
    'SeedRevealed',
    {
      seed: z.string(),
      decks: z
        .strictObject({ p1: z.array(DefId), p2: z.array(DefId) })
        .nullable()
        .describe('The deck lists as dealt; null for a sandbox.'),
    },
    'The seed and deck lists, published at the end: anyone can check the deal against the commitment.',
  ),
] as const;

export const EvonsEventSchema = z
  .discriminatedUnion('type', events)
  .meta({ id: 'EvonsEvent', description: 'An Evons event as the caller may see it (discriminated by type).' });

// Every event type the engine emits has a schema (and no schema names a type it does not emit).
type Missing = Exclude<GameEvent['type'], z.infer<typeof EvonsEventSchema>['type']>;
type Extra = Exclude<z.infer<typeof EvonsEventSchema>['type'], GameEvent['type']>;
export const everyEvonsEventHasASchema: [Missing | Extra] extends [never] ? true : never = true;

const decision = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S, description: string) =>
  z.strictObject({ kind: z.literal(kind), seat: Seat.describe('Who decides.'), ...shape }).describe(description);

export const EvonsPendingSchema = z
  .discriminatedUnion('kind', [
    decision('reveal-order', { cards: z.array(Card) }, 'R-FACE-5: several covered cards are due; pick which to reveal next.'),
    decision('play', {}, 'The pass point and step 4: play one card or pass (R-TURN-1/2).'),
    decision(
      'ability',
      { card: Card, cell: Cell, phase: z.union([z.literal(1), z.literal(2)]) },
      'Ability Phase 1 or 2 of `card`: use an ability arrow or end the phase (R-ACT-1/2).',
    ),
    decision('conflict-order', { card: Card, defenders: z.array(Card) }, 'R-CONF-4: several defenders; pick the next conflict.'),
    decision('trigger-order', { cards: z.array(Card) }, 'R-ACT-17: several cards triggered at once; pick the next to (re)activate.'),
    decision('discard', { count: Int }, 'R-HAND-2: discard one card; repeated until the hand is at the limit.'),
  ])
  .meta({ id: 'EvonsPending', description: 'The decision an Evons game waits for, by kind.' });

type MissingKind = Exclude<Decision['kind'], z.infer<typeof EvonsPendingSchema>['kind']>;
export const everyEvonsDecisionHasASchema: [MissingKind] extends [never] ? true : never = true;
