/**
 * The Evons view (view.ts) as Zod schemas: REST validates and serialises with them and the OpenAPI
 * document takes its components from their ids (GameView, CardRef).
 */
import { z } from 'zod';
import { SeatSchema } from '../../core/seat-schema.js';
import { RulesConfigSchema } from './config.js';
import { EvonsPendingSchema } from './event-schema.js';

const ArrowViewSchema = z.object({ dir: z.string(), type: z.string() });

const CardRefSchema = z
  .object({
    id: z.string().describe('Opaque card instance id.'),
    defId: z.string().describe('The card definition (GET /v1/cards).'),
    name: z.string(),
  })
  .meta({ id: 'CardRef' });

const BoardCardSchema = z.object({
  id: z.string(),
  owner: SeatSchema,
  facing: SeatSchema.describe('The player the card faces: its controller.'),
  covered: z.boolean(),
  growthPlaced: z.boolean(),
  damage: z.number().int(),
  defId: z.string().nullable().describe('The card definition (GET /v1/cards); null when you may not know the card (covered, not yours).'),
  name: z.string().nullable(),
  boardArrows: z.array(ArrowViewSchema).nullable().describe('Arrows turned to the board (face-up monsters only).'),
  atk: z.number().int().nullable(),
  currentDef: z.number().int().nullable(),
});

const SeatViewSchema = z.object({
  seat: SeatSchema,
  credits: z.number().int(),
  score: z.number().int(),
  handCount: z.number().int(),
  deckCount: z.number().int(),
  hand: z.array(CardRefSchema).nullable().describe("Only in the seat's own view."),
  graveyard: z.array(CardRefSchema),
});

export const GameViewSchema = z
  .object({
    viewer: z.enum(['p1', 'p2', 'spectator']),
    engineVersion: z.string(),
    rulesHash: z.string(),
    cardSetId: z.string(),
    cardSetHash: z.string(),
    config: RulesConfigSchema,
    status: z.enum(['playing', 'ended']),
    turn: z.number().int(),
    active: SeatSchema,
    first: SeatSchema,
    step: z.string(),
    pending: EvonsPendingSchema.nullable().describe('The decision the game waits for; null once the game is over.'),
    board: z
      .array(z.object({ cell: z.string(), zone: z.enum(['main', 'out']), card: BoardCardSchema.nullable() }))
      .describe('All 49 cells, row-major (X0 … Y6).'),
    seats: z.object({ p1: SeatViewSchema, p2: SeatViewSchema }),
    removed: z.array(CardRefSchema),
    result: z
      .object({
        reason: z.enum(['main-zone-full', 'stalemate', 'resignation', 'deck-out', 'turn-limit']),
        winner: SeatSchema.nullable(),
        scores: z.object({ p1: z.number(), p2: z.number() }),
      })
      .nullable(),
    seedCommitment: z.string().describe('sha256 of the seed, fixed at creation.'),
    seed: z.string().nullable().describe('Published once the game has ended.'),
  })
  .meta({ id: 'GameView', description: "The engine's view of the game for one viewer: exactly what that party may know." });
