/**
 * The match's own part of every match view (REST's MatchView, GraphQL's Match): its envelope
 * around the game's view. One Zod source: REST serialises with it, the OpenAPI document shows it,
 * and the service's types are inferred from it (service/match/types.ts).
 */
import { z } from 'zod';
import { TimeControlSchema } from '../core/clock.js';
import { SeatSchema } from '../core/seat-schema.js';

export const MatchStatusSchema = z
  .enum(['waiting', 'active', 'finished'])
  .meta({ id: 'MatchStatus', description: 'waiting: a seat is open; active: being played; finished: over (see the result in the view).' });

export const SeatInfoSchema = z.object({
  seat: SeatSchema,
  handle: z.string().nullable(),
  joined: z.boolean(),
  verified: z.boolean().describe('The seat is held by a registered player: the handle is theirs (otherwise it is only a label).'),
  bot: z.boolean().describe('That player is a bot account.'),
});

export const RematchViewSchema = z
  .object({
    offeredBy: SeatSchema,
    status: z.enum(['offered', 'declined', 'expired', 'accepted']).describe('expired: not answered before expiresAt.'),
    expiresAt: z.string().describe('When an unanswered offer expires (ISO 8601, UTC).'),
    matchId: z.string().nullable().describe('The rematch, once accepted (seats swapped).'),
  })
  .meta({ id: 'RematchView', description: "This finished match's last rematch offer; null when none was made." });

export const matchViewCommon = {
  id: z.string(),
  version: z.number().int().describe('Number of stored events; also sent as the ETag.'),
  status: MatchStatusSchema,
  winner: SeatSchema.nullable(),
  seat: SeatSchema.nullable().describe("The caller's seat; null for a spectator."),
  seats: z.array(SeatInfoSchema),
  sandbox: z.boolean(),
  engineVersion: z.string(),
  rulesHash: z.string(),
  cardSetId: z.string(),
  createdAt: z.string(),
  timeControl: TimeControlSchema,
  rated: z.boolean().describe("Rated: the end updates both players' ratings."),
  clock: z
    .object({
      remainingMs: z
        .object({ p1: z.number().int(), p2: z.number().int() })
        .describe('Time left per seat at this read, in ms (never below 0).'),
      running: SeatSchema.nullable().describe('Whose time is running; null once the match is over.'),
      deadline: z.string().nullable().describe('When the running seat runs out of time (ISO 8601, UTC): the match ends then.'),
    })
    .meta({ id: 'ClockView', description: 'The clock as of this read; null without a time control.' })
    .nullable(),
  outcome: z
    .object({
      winner: SeatSchema.nullable(),
      reason: z
        .string()
        .describe(
          "timed-out, resigned, aborted, or the game's own reason (Evons main-zone-full, resignation (Evons resigns by its own rules), UniVersus HEALTH_ZERO, …).",
        ),
      seat: SeatSchema.nullable()
        .optional()
        .describe(
          'timed-out: the seat that ran out of time; resigned: the seat that conceded; aborted: the seat that asked (null: nobody made a first decision in time).',
        ),
    })
    .meta({ id: 'MatchOutcome', description: 'How the match ended; null while it runs.' })
    .nullable(),
  seed: z
    .string()
    .nullable()
    .describe("The match's seed, published once the match is over however it ended (verify it against the seedCommitment)."),
  rematch: RematchViewSchema.nullable(),
  rematchOf: z.string().nullable().describe('The finished match this one is the rematch of; null otherwise.'),
};

/** A match view without its game part (`gameId`, `game`). */
export type MatchEnvelope = z.infer<z.ZodObject<typeof matchViewCommon>>;
export type SeatInfo = z.infer<typeof SeatInfoSchema>;
export type ClockView = NonNullable<MatchEnvelope['clock']>;
export type MatchOutcome = NonNullable<MatchEnvelope['outcome']>;
