/**
 * /v1/me/webhooks…: a player's account webhooks (every entry of their account feed, for every
 * match and challenge of theirs), their secrets and delivery logs. The same shapes, codes and
 * limits as a seat's (/v1/matches/{id}/webhooks…), with a player token: webhook:write to change,
 * match:read to read.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import type { Scope } from '../../persistence/types.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { DEFAULT_WEBHOOK_LIMITS } from '../../service/webhooks/limits.js';
import { PlayerAuth } from '../player-schemas.js';
import { problemResponses } from '../schemas.js';
import {
  AccountDeliveryListSchema,
  AccountDeliveryParams,
  AccountDeliverySchema,
  AccountWebhookCreatedSchema,
  AccountWebhookListSchema,
  AccountWebhookParams,
  AccountWebhookRequestSchema,
  DeliveriesQuery,
} from '../account-webhook-schemas.js';

const accountWebhookRoutes: FastifyPluginAsyncZod<{ service: MatchService }> = async (app, { service }) => {
  const hooks = service.accountWebhooks;
  const me = (authorization: string | undefined, scope: Scope) => service.players.player(bearerToken(authorization), scope);
  const privateAnswer = { 'cache-control': 'private, no-store', vary: 'Authorization' };

  app.post(
    '/me/webhooks',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'registerAccountWebhook',
        summary: 'Register a webhook for your account',
        description:
          'Every entry of your account feed (GET /v1/me/events) of the kinds you name (default: all), for every match and ' +
          'challenge of yours, present and future, is POSTed to the URL: Standard Webhooks (webhook-id, webhook-timestamp, ' +
          'webhook-signature: v1 HMAC-SHA256 with the secret returned here, once), the body AccountWebhookDeliveryBody (the ' +
          'entry: public facts only). Retried with backoff for 24 h; an endpoint failing for 24 h is disabled. Per endpoint, ' +
          'deliveries go out in the order their entries were written. Needs webhook:write. A player holds at most ' +
          `${DEFAULT_WEBHOOK_LIMITS.maxPerAccount} account webhooks (default; WEBHOOK_MAX_PER_ACCOUNT): one more is 409 too-many-webhooks.`,
        headers: PlayerAuth,
        body: AccountWebhookRequestSchema,
        response: { 201: AccountWebhookCreatedSchema, ...problemResponses(400, 409, 413, 415, 429) },
      },
    },
    async (req, reply) => {
      const r = await hooks.register(await me(req.headers.authorization, 'webhook:write'), req.body);
      return reply
        .code(201)
        .headers(privateAnswer)
        .send({ ...r.webhook, secret: r.secret });
    },
  );

  app.get(
    '/me/webhooks',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'listAccountWebhooks',
        summary: 'Your account webhooks',
        description:
          'With their state: active, failing (since when) or disabled (and why). Secrets are never shown again. Needs match:read.',
        headers: PlayerAuth,
        response: { 200: AccountWebhookListSchema, ...problemResponses(429) },
      },
    },
    async (req, reply) => {
      const player = await me(req.headers.authorization, 'match:read');
      reply.headers(privateAnswer);
      return { webhooks: await hooks.list(player) };
    },
  );

  app.delete(
    '/me/webhooks/:webhookId',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'deleteAccountWebhook',
        summary: 'Remove an account webhook',
        description: 'The endpoint gets nothing more; its pending deliveries and its log go with it. Needs webhook:write.',
        params: AccountWebhookParams,
        headers: PlayerAuth,
        response: { 204: z.null().describe('Removed, with its delivery log.'), ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      await hooks.remove(await me(req.headers.authorization, 'webhook:write'), req.params.webhookId);
      return reply.code(204).headers(privateAnswer).send(null);
    },
  );

  app.post(
    '/me/webhooks/:webhookId/rotate-secret',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'rotateAccountWebhookSecret',
        summary: 'A new signing secret for an account webhook',
        description:
          'Returns the new secret (once). For 24 h deliveries carry two signatures, one per secret, so receivers can switch over. Needs webhook:write.',
        params: AccountWebhookParams,
        headers: PlayerAuth,
        response: { 200: AccountWebhookCreatedSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const r = await hooks.rotate(await me(req.headers.authorization, 'webhook:write'), req.params.webhookId);
      reply.headers(privateAnswer);
      return { ...r.webhook, secret: r.secret };
    },
  );

  app.get(
    '/me/webhooks/:webhookId/deliveries',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'listAccountWebhookDeliveries',
        summary: 'Delivery log of an account webhook',
        description: 'Newest first: the entry, status, attempts, the last response code or error, the next attempt. Needs match:read.',
        params: AccountWebhookParams,
        headers: PlayerAuth,
        querystring: DeliveriesQuery,
        response: { 200: AccountDeliveryListSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const player = await me(req.headers.authorization, 'match:read');
      reply.headers(privateAnswer);
      return { deliveries: await hooks.deliveries(player, req.params.webhookId, req.query.limit) };
    },
  );

  app.post(
    '/me/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'redeliverAccountWebhook',
        summary: 'Send an account delivery again',
        description:
          'Queues it now, with the same webhook-id and body: one attempt, no retries. Only a settled delivery (409 ' +
          `delivery-pending while it is queued), and at most ${DEFAULT_WEBHOOK_LIMITS.maxRedeliveries} times (default; ` +
          'WEBHOOK_MAX_REDELIVERIES), then 409 redelivery-limit. Needs webhook:write.',
        params: AccountDeliveryParams,
        headers: PlayerAuth,
        response: { 202: AccountDeliverySchema, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      const d = await hooks.redeliver(await me(req.headers.authorization, 'webhook:write'), req.params.webhookId, req.params.deliveryId);
      return reply.code(202).headers(privateAnswer).send(d);
    },
  );
};

export default accountWebhookRoutes;
