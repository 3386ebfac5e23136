/** Zod schemas of the seek routes' answers (the request schemas are the contract's). */
import { z } from 'zod';
import { register } from '../contract/register.js';
import { TimeControlSchema } from '../core/clock.js';
import { SeekIdSchema } from '../contract/ids.js';
import { GameIdSchema } from '../contract/requests.js';

export { SeekBody, SeekListQuery } from '../contract/requests.js';

const publicFields = {
  id: z.string().describe('The seek id (sk_…).'),
  handle: z.string().describe("The owner's handle."),
  bot: z.boolean().describe('The owner is a bot account.'),
  game: GameIdSchema,
  timeControl: TimeControlSchema,
  rated: z.boolean(),
  minRating: z.number().int().nullable().describe('The lowest opponent rating accepted (null: no bound).'),
  maxRating: z.number().int().nullable().describe('The highest opponent rating accepted (null: no bound).'),
  createdAt: z.string(),
  expiresAt: z.string().describe('Unpaired by then, the seek expires.'),
};

export const PublicSeekSchema = register(z.object(publicFields), 'Seek', 'An open seek as anyone sees it: never its deck.');

export const OwnSeekSchema = register(
  z.object({
    ...publicFields,
    status: z.enum(['open', 'paired', 'cancelled', 'expired']).describe('paired: matchId is the match it started.'),
    matchId: z.string().nullable(),
    deck: z.string().describe("Your deck's label (a starter id, or custom-<hash>)."),
  }),
  'OwnSeek',
  'One of your seeks, with its status.',
);

export const SeekListSchema = register(
  z.object({
    seeks: z.array(PublicSeekSchema),
    nextCursor: z.string().nullable().describe('Send back as cursor for the next page; null after the last.'),
  }),
  'SeekList',
  'Open seeks, oldest first: the order they pair in (a page of at most `limit`, 100 by default and at most).',
);
export const OwnSeekListSchema = register(
  z.object({ seeks: z.array(OwnSeekSchema) }),
  'OwnSeekList',
  'Your seeks, newest first (at most 100).',
);
export const SeekParams = z.strictObject({ seekId: SeekIdSchema });
