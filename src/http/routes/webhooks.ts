/** /v1/matches/{id}/webhooks…: a seat's endpoints, their secrets and their delivery logs. */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { problems } from '../../service/errors.js';
import { DEFAULT_WEBHOOK_LIMITS } from '../../service/webhooks/limits.js';
import { AuthHeaders, MatchIdParams, problemResponses } from '../schemas.js';
import {
  DeliveriesQuery,
  DeliveryListSchema,
  DeliveryParams,
  DeliverySchema,
  WebhookCreatedSchema,
  WebhookListSchema,
  WebhookParams,
  WebhookRequestSchema,
} from '../webhook-schemas.js';

const webhookRoutes: FastifyPluginAsyncZod<{ service: MatchService }> = async (app, { service }) => {
  // The credential is asked for before the match is looked up: no token is a 401 whether or not the match exists.
  const seatMatch = (id: string, authorization: string | undefined) => {
    const token = bearerToken(authorization);
    if (token === undefined) throw problems.missingToken();
    return service.load(id, token, 'webhook:write');
  };
  const privateAnswer = { 'cache-control': 'private, no-store', vary: 'Authorization' };

  app.post(
    '/matches/:id/webhooks',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'registerWebhook',
        summary: 'Register a webhook for your seat',
        description:
          'Deliveries follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: v1 HMAC-SHA256 with the secret ' +
          'returned here, once). Bodies are redacted for your seat like the event stream. Retried with backoff for 24 h; an ' +
          'endpoint failing for 24 h is disabled. Per endpoint, deliveries go out in data.version order. A seat holds at most ' +
          `${DEFAULT_WEBHOOK_LIMITS.maxPerSeat} endpoints in a match (default; WEBHOOK_MAX_PER_SEAT): one more is 409 too-many-webhooks.`,
        params: MatchIdParams,
        headers: AuthHeaders,
        body: WebhookRequestSchema,
        response: { 201: WebhookCreatedSchema, ...problemResponses(400, 404, 409, 413, 415, 429) },
      },
    },
    async (req, reply) => {
      const m = await seatMatch(req.params.id, req.headers.authorization);
      const r = await service.webhooks.register(m, req.body);
      return reply
        .code(201)
        .headers(privateAnswer)
        .send({ ...r.webhook, secret: r.secret });
    },
  );

  app.get(
    '/matches/:id/webhooks',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhooks',
        summary: "Your seat's webhooks",
        description: 'With their state: active, failing (since when) or disabled (and why). Secrets are never shown again.',
        params: MatchIdParams,
        headers: AuthHeaders,
        response: { 200: WebhookListSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const m = await seatMatch(req.params.id, req.headers.authorization);
      reply.headers(privateAnswer);
      return { webhooks: await service.webhooks.list(m) };
    },
  );

  app.delete(
    '/matches/:id/webhooks/:webhookId',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'deleteWebhook',
        summary: 'Remove a webhook',
        description: 'The endpoint gets nothing more; its pending deliveries and its log go with it.',
        params: WebhookParams,
        headers: AuthHeaders,
        response: { 204: z.null().describe('Removed, with its delivery log.'), ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      await service.webhooks.remove(await seatMatch(req.params.id, req.headers.authorization), req.params.webhookId);
      return reply.code(204).headers(privateAnswer).send(null);
    },
  );

  app.post(
    '/matches/:id/webhooks/:webhookId/rotate-secret',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'rotateWebhookSecret',
        summary: 'A new signing secret',
        description:
          'Returns the new secret (once). For 24 h deliveries carry two signatures, one per secret, so receivers can switch over.',
        params: WebhookParams,
        headers: AuthHeaders,
        response: { 200: WebhookCreatedSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const r = await service.webhooks.rotate(await seatMatch(req.params.id, req.headers.authorization), req.params.webhookId);
      reply.headers(privateAnswer);
      return { ...r.webhook, secret: r.secret };
    },
  );

  app.get(
    '/matches/:id/webhooks/:webhookId/deliveries',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery log of a webhook',
        description: 'Newest first: status, attempts, the last response code or error, the next attempt.',
        params: WebhookParams,
        headers: AuthHeaders,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryListSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const m = await seatMatch(req.params.id, req.headers.authorization);
      reply.headers(privateAnswer);
      return { deliveries: await service.webhooks.deliveries(m, req.params.webhookId, req.query.limit) };
    },
  );

  app.post(
    '/matches/:id/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again',
        description:
          'Queues it now, with the same webhook-id and body (receivers that deduplicate will ignore it if they already have it): ' +
          'one attempt, no retries. Only a settled delivery (409 delivery-pending while it is queued), and at most ' +
          `${DEFAULT_WEBHOOK_LIMITS.maxRedeliveries} times (default; WEBHOOK_MAX_REDELIVERIES), then 409 redelivery-limit.`,
        params: DeliveryParams,
        headers: AuthHeaders,
        response: { 202: DeliverySchema, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      const d = await service.webhooks.redeliver(
        await seatMatch(req.params.id, req.headers.authorization),
        req.params.webhookId,
        req.params.deliveryId,
      );
      return reply.code(202).headers(privateAnswer).send(d);
    },
  );
};

export default webhookRoutes;
