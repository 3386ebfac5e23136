/**
 * Zod schemas of the account webhook routes (/v1/me/webhooks…) and of their deliveries' body, in
 * a module of their own: the body is built from the feed's entry schemas, which import the shared
 * schemas that import the per-match webhook schemas.
 */
import { z } from 'zod';
import { register } from '../contract/register.js';
import { AccountWebhookKindSchema } from '../contract/requests.js';
import { FeedEntrySchema } from './feed-schemas.js';
import { DeliveryIdSchema, WebhookIdSchema } from '../contract/ids.js';

export { AccountWebhookRequestSchema } from '../contract/requests.js';
export { DeliveriesQuery } from './webhook-schemas.js';

export const AccountWebhookSchema = register(
  z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(AccountWebhookKindSchema),
    status: z
      .enum(['active', 'failing', 'disabled'])
      .describe('failing: deliveries are being retried; disabled: failing for 24 h, no more deliveries (see disabledReason).'),
    failingSince: z.string().nullable(),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
  }),
  'AccountWebhook',
  "A player's account endpoint: every entry of their account feed of these kinds, for every match and challenge of theirs.",
);

export const AccountWebhookCreatedSchema = register(
  AccountWebhookSchema.extend({
    secret: z.string().describe('The signing secret (whsec_…), shown once: verify webhook-signature with it (Standard Webhooks).'),
  }),
  'AccountWebhookCreated',
);

export const AccountWebhookListSchema = register(z.object({ webhooks: z.array(AccountWebhookSchema) }), 'AccountWebhookList');

export const AccountDeliverySchema = register(
  z.object({
    id: z.string().describe('The webhook-id header: the same on every attempt, for deduplication.'),
    kind: AccountWebhookKindSchema,
    entryId: z.string().describe('The feed entry it delivers: its id in GET /v1/me/events (and data.entryId of the body).'),
    status: z
      .enum(['pending', 'delivered', 'failed'])
      .describe('pending: queued or retrying; delivered: answered 2xx; failed: given up (or a redelivery that failed).'),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
  }),
  'AccountWebhookDelivery',
);

export const AccountDeliveryListSchema = register(z.object({ deliveries: z.array(AccountDeliverySchema) }), 'AccountWebhookDeliveryList');

export const AccountWebhookParams = z.strictObject({ webhookId: WebhookIdSchema });
export const AccountDeliveryParams = AccountWebhookParams.extend({ deliveryId: DeliveryIdSchema });

type EntryOption = z.ZodObject<{ type: z.ZodLiteral<string>; data: z.ZodObject }>;
const entryOptions: readonly EntryOption[] = FeedEntrySchema.options;

/** A union's options: at least one (the feed has kinds). */
function atLeastOne<T>(options: T[]): [T, ...T[]] {
  const [first, ...rest] = options;
  if (first === undefined) throw new Error('a union needs at least one option');
  return [first, ...rest];
}

/**
 * The body of an account delivery, one shape per kind: the feed entry (FeedEntry) as Standard
 * Webhooks puts it ({type, timestamp, data}), its id in data as `entryId` (a challenge's data has
 * an `id` of its own).
 */
export const AccountWebhookDeliveryBodySchema = register(
  z.discriminatedUnion(
    'type',
    atLeastOne(
      entryOptions.map((o) =>
        z.object({
          type: o.shape.type,
          timestamp: z.string().describe('When the entry was written (ISO 8601, UTC): with the change that caused it.'),
          data: o.shape.data.extend({
            entryId: z
              .string()
              .describe("The entry's id in your account feed (GET /v1/me/events, Last-Event-ID). A challenge's own id stays `id`."),
          }),
        }),
      ),
    ),
  ),
  'AccountWebhookDeliveryBody',
  'The JSON body of every account webhook delivery (Standard Webhooks), signed in the webhook-signature header: the feed entry.',
);
