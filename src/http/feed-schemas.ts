/**
 * The account feed's messages (GET /v1/me/events, GraphQL myEvents): one Zod schema per kind of
 * entry, so the OpenAPI document lists each and every entry the database writes is checked against
 * them (test/api/live/account-feed.test.ts).
 */
import { z } from 'zod';
import { register } from '../contract/register.js';
import { SeatSchema } from '../core/seat-schema.js';
import { TimeControlSchema } from '../core/clock.js';
import { GameIdSchema } from '../contract/requests.js';
import { ProblemSchema } from './schemas.js';
import { ChallengeSchema } from './routes/challenges.js';
import { OwnSeekSchema } from './seek-schemas.js';

const FeedMatchSchema = register(
  z.object({
    matchId: z.string(),
    game: GameIdSchema,
    seat: SeatSchema.describe("The player's seat."),
    status: z.enum(['waiting', 'active', 'finished']),
    rated: z.boolean(),
    timeControl: z.enum(['none', 'correspondence', 'live']).describe("The time control's kind."),
    toMove: SeatSchema.nullable().describe("The seat whose decision the match waits for; null when nobody's."),
    version: z.number().int().describe('The match version then (GET /v1/matches/{id} has the position).'),
    deadline: z.string().nullable().describe('When the seat to move runs out of time; null without a running clock.'),
    opponent: z.string().nullable().describe("The other seat's handle; null while it is open."),
    winner: SeatSchema.nullable(),
    ending: z.enum(['game', 'timed-out', 'aborted']).nullable().describe('How a finished match ended; null while it runs.'),
  }),
  'FeedMatch',
  'A match as one of its seats sees it in the feed: public facts only (the position is read from the match with your token).',
);

const entry = <K extends string, D extends z.ZodType>(type: K, data: D, description: string) =>
  register(
    z.object({
      id: z
        .string()
        .describe("The entry's position in your feed (<xid>-<id>): resume after it with Last-Event-ID or ?after=. Opaque; not increasing."),
      type: z.literal(type),
      at: z.string().describe('When it was written.'),
      data,
    }),
    `Feed${type.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase())}`,
    description,
  );

export const FeedEntrySchema = register(
  z.discriminatedUnion('type', [
    entry(
      'match-started',
      FeedMatchSchema,
      'A match of yours started (a challenge accepted, a seek paired, a rematch accepted, your open seat joined).',
    ),
    entry('your-turn', FeedMatchSchema, 'A match of yours now waits for your decision.'),
    entry('match-ended', FeedMatchSchema, 'A match of yours ended.'),
    entry('challenge-received', ChallengeSchema, 'Someone challenged you (or named you in an open challenge).'),
    entry('challenge-accepted', ChallengeSchema, 'Your challenge was accepted: its matchId is the new match.'),
    entry('challenge-declined', ChallengeSchema, 'Your challenge was declined (declineReason says why).'),
    entry('challenge-canceled', ChallengeSchema, 'A challenge to you was cancelled by its challenger.'),
    entry('challenge-expired', ChallengeSchema, 'A challenge from or to you expired unanswered.'),
    entry(
      'rematch-offered',
      FeedMatchSchema.extend({ expiresAt: z.string().describe('The offer expires then.') }),
      'Your opponent in a finished match offered a rematch (POST /v1/matches/{matchId}/rematch/accept).',
    ),
    entry(
      'seek-paired',
      z.object({ seekId: z.string(), matchId: z.string(), game: GameIdSchema, timeControl: TimeControlSchema, rated: z.boolean() }),
      'Your seek was paired: matchId is the new match.',
    ),
    entry(
      'tournament-round-started',
      z.object({
        tournamentId: z.string(),
        name: z.string(),
        game: GameIdSchema,
        round: z.number().int().describe('The round that started (the first is 1).'),
        rounds: z.number().int().nullable().describe('How many rounds the tournament has.'),
        roundEndsAt: z.string().nullable().describe("The round's deadline; null when it lasts until its matches end."),
        matchId: z.string().nullable().describe('Your match this round; null for a bye.'),
        seat: SeatSchema.nullable().describe('Your seat in it; null for a bye.'),
        opponent: z.string().nullable().describe("Your opponent's handle; null for a bye."),
        bye: z.boolean().describe('You have the bye this round (scored as the tournament says, no match).'),
      }),
      'A round of a tournament you play in started: your pairing (GET /v1/tournaments/{tournamentId} has the whole round).',
    ),
    entry(
      'tournament-finished',
      z.object({
        tournamentId: z.string(),
        name: z.string(),
        game: GameIdSchema,
        rounds: z.number().int().describe('The rounds played.'),
        players: z.number().int().describe('How many players the final standings rank.'),
        rank: z.number().int().optional().describe('Your final rank (1 is first).'),
        points: z.number().optional().describe('Your final points.'),
      }),
      'A tournament you entered finished (GET /v1/tournaments/{tournamentId}/standings has the final standings).',
    ),
  ]),
  'FeedEntry',
  'One entry of your account feed: what happened, in the order it was committed.',
);

const FeedMatchSummarySchema = register(
  z.object({
    matchId: z.string(),
    game: GameIdSchema,
    seat: SeatSchema,
    status: z.enum(['waiting', 'active']),
    rated: z.boolean(),
    timeControl: z.enum(['none', 'correspondence', 'live']),
    toMove: SeatSchema.nullable(),
    yourTurn: z.boolean().describe('The match waits for your decision.'),
    version: z.number().int(),
    deadline: z.string().nullable(),
    opponent: z.string().nullable(),
  }),
  'FeedMatchSummary',
  'A running or waiting match of yours, in the snapshot.',
);

export const FeedSnapshotSchema = register(
  z.object({
    type: z.literal('snapshot'),
    data: z.object({
      challenges: z
        .object({ in: z.array(ChallengeSchema), out: z.array(ChallengeSchema) })
        .describe('Open challenges to and from you (at most 100 each).'),
      seeks: z.array(OwnSeekSchema).describe('Your open seeks.'),
      matches: z
        .array(FeedMatchSummarySchema)
        .describe('Your running and waiting matches (at most 100 of each), with whose decision each waits for.'),
    }),
  }),
  'FeedSnapshot',
  'The first message of a fresh connection (no Last-Event-ID): the state the entries after it change. It has no id.',
);

export const FeedEndSchema = register(
  z.union([
    z.strictObject({ end: z.literal('shutdown').describe('This server is stopping: reconnect with the last id.') }),
    z.strictObject({ error: ProblemSchema.describe('Why the feed stopped (invalid-token: the token was revoked).') }),
  ]),
  'FeedEnd',
  'The last line of a feed: why it ended.',
);

export const FeedMessageSchema = z.union([FeedSnapshotSchema, FeedEntrySchema, FeedEndSchema]);
