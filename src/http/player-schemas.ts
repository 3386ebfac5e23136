/** Zod schemas of the player routes (registration, profiles, personal API tokens). */
import { z } from 'zod';
import { register } from '../contract/register.js';
import { CURSOR_PATTERN, HandleSchema, IdempotencyKeySchema, TokenIdSchema } from '../contract/ids.js';
import { FamilySchema, GameIdSchema } from '../contract/requests.js';

export { LeaderboardQuery } from '../contract/requests.js';

export const ScopeSchema = register(
  z.enum(['match:read', 'match:play', 'match:create', 'webhook:write', 'token:write', 'pairing:play']),
  'Scope',
  'match:read: see your seats; match:play: act; match:create: create and join as you; webhook:write: manage webhooks; token:write: manage tokens; ' +
    "pairing:play: a token you give a bulk pairing's organizer (alone): bound to the one pairing created with it, it reads and acts in that pairing's matches only.",
);

export const RegisterPlayerBody = register(
  z.strictObject({
    handle: HandleSchema.describe('Your handle: reserved for you from now on, case-insensitively (anonymous play can no longer use it).'),
    bot: z.boolean().optional().describe('A bot account (shown on every seat it holds).'),
  }),
  'RegisterPlayerRequest',
);

export const PlayerSchema = register(z.object({ handle: z.string(), bot: z.boolean(), createdAt: z.string() }), 'Player');

export const ProfileSchema = register(
  z.object({
    handle: z.string(),
    bot: z.boolean(),
    createdAt: z.string(),
    ratings: z
      .array(
        z.object({
          game: GameIdSchema,
          timeControl: FamilySchema,
          rating: z.number().int().describe('Glicko-2 rating, rounded (stored unrounded).'),
          rd: z.number().int().describe('Rating deviation, rounded: how uncertain the rating is.'),
          provisional: z.boolean().describe('RD above 110: too uncertain for the leaderboard.'),
          games: z.number().int().describe('Rated games counted.'),
        }),
      )
      .describe('One per game and time-control family the player has played rated; none before the first rated match ends.'),
    stats: z
      .array(
        z.object({
          game: GameIdSchema,
          played: z.number().int().describe('Finished matches, aborted ones not counted.'),
          won: z.number().int(),
          lost: z.number().int(),
          drawn: z.number().int(),
          timedOut: z.number().int().describe('Lost on time (included in lost).'),
          aborted: z.number().int(),
        }),
      )
      .describe('Results per game, rated or not.'),
    favouriteDecks: z
      .array(
        z.object({
          game: GameIdSchema,
          deck: z.string().describe('A starter deck id, or custom-<hash> of a card list.'),
          matches: z.number().int(),
        }),
      )
      .describe("The decks brought most often to finished matches (a running match's deck is secret), up to 3 per game, most used first."),
  }),
  'PlayerProfile',
);

export const LeaderboardSchema = register(
  z.object({
    game: GameIdSchema,
    timeControl: FamilySchema,
    players: z.array(
      z.object({
        rank: z.number().int(),
        handle: z.string(),
        bot: z.boolean(),
        rating: z.number().int(),
        rd: z.number().int(),
        games: z.number().int(),
      }),
    ),
  }),
  'Leaderboard',
  'The highest established ratings (RD at most 110) of one game and time-control family, highest first.',
);

export const TokenInfoSchema = register(
  z.object({
    id: z.string(),
    label: z.string().nullable(),
    scopes: z.array(ScopeSchema),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
  }),
  'PlayerToken',
);

export const RegisteredSchema = register(
  z.object({
    player: PlayerSchema,
    token: z.string().describe('Your personal API token (evp_…), shown once: send it as "Authorization: Bearer <token>".'),
    tokenInfo: TokenInfoSchema,
  }),
  'PlayerRegistered',
);

export const NewTokenBody = register(
  z.strictObject({ label: z.string().min(1).max(64).optional(), scopes: z.array(ScopeSchema).min(1).max(5) }),
  'NewPlayerTokenRequest',
);

export const NewTokenSchema = register(
  z.object({ token: z.string().describe('Shown once.'), tokenInfo: TokenInfoSchema }),
  'NewPlayerToken',
);

export const TokenListSchema = register(z.object({ tokens: z.array(TokenInfoSchema) }), 'PlayerTokenList');

export const PlayerParams = z.strictObject({ handle: HandleSchema });
export const PlayerExportQuery = z.strictObject({
  events: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe(
      'true: each line is the full public record of the match (MatchReplay) instead of its summary, at most 20 per answer (the Link header names the next part).',
    ),
  cursor: z
    .string()
    .regex(CURSOR_PATTERN, 'a cursor from a Link header of this export')
    .optional()
    .describe('Where to go on: the cursor in the `rel="next"` Link of the previous answer, unchanged.'),
});
export const TokenParams = z.strictObject({ tokenId: TokenIdSchema });
export const PlayerAuth = z.object({ authorization: z.string().optional().describe('"Bearer <player token>".') });

/** A player's request that is safe to retry with an Idempotency-Key (accepting a challenge, posting a seek). */
export const PlayerAuthIdempotent = PlayerAuth.extend({
  'idempotency-key': IdempotencyKeySchema.optional().describe(
    'Retry-safe key, yours alone (per player and operation): the same key with the same request returns the stored answer (Idempotent-Replayed: true); with another request, 422 idempotency-key-reused.',
  ),
});
