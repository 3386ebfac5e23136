/** Zod schemas of the webhook routes (the one source for validation, serialisation and OpenAPI). */
import { z } from 'zod';
import { register } from '../contract/register.js';
import { DeliveryIdSchema, MatchIdSchema, WebhookIdSchema } from '../contract/ids.js';
import { WebhookKindSchema } from '../contract/requests.js';

export { WebhookRequestSchema } from '../contract/requests.js';

export const WebhookSchema = register(
  z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(WebhookKindSchema),
    deadlineLeadMinutes: z.number().int(),
    status: z
      .enum(['active', 'failing', 'disabled'])
      .describe('failing: deliveries are being retried; disabled: failing for 24 h, no more deliveries (see disabledReason).'),
    failingSince: z.string().nullable(),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
  }),
  'Webhook',
);

export const WebhookCreatedSchema = register(
  WebhookSchema.extend({
    secret: z.string().describe('The signing secret (whsec_…), shown once: verify webhook-signature with it (Standard Webhooks).'),
  }),
  'WebhookCreated',
);

export const WebhookListSchema = register(z.object({ webhooks: z.array(WebhookSchema) }), 'WebhookList');

export const DeliverySchema = register(
  z.object({
    id: z.string().describe('The webhook-id header: the same on every attempt, for deduplication.'),
    kind: WebhookKindSchema,
    version: z.number().int().describe('The match version the notification is about.'),
    status: z
      .enum(['pending', 'delivered', 'failed', 'superseded'])
      .describe(
        'pending: queued or retrying; delivered: answered 2xx; failed: given up (or a redelivery that failed); ' +
          'superseded: a deadline-near whose position the match moved past (or that ended it) before it was sent, marked by that move.',
      ),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
  }),
  'WebhookDelivery',
);

export const DeliveryListSchema = register(z.object({ deliveries: z.array(DeliverySchema) }), 'WebhookDeliveryList');

export const WebhookParams = z.strictObject({ id: MatchIdSchema, webhookId: WebhookIdSchema });
export const DeliveryParams = WebhookParams.extend({ deliveryId: DeliveryIdSchema });
export const DeliveriesQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(20) });
