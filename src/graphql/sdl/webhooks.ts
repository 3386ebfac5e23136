/**
 * Webhooks in the GraphQL schema (SDL): a seat's and an account's, their deliveries. The Zod twins
 * are in src/http/webhook-schemas.ts, src/http/account-webhook-schemas.ts and
 * src/contract/requests.ts; test/graphql/contract-agreement.test.ts checks that they agree.
 */
import { FEED_KINDS, WEBHOOK_KINDS } from '../../contract/kinds.js';
import { listed } from '../games.js';
import type { SdlContext } from './context.js';

const seatKinds = listed(WEBHOOK_KINDS);
const accountKinds = listed(FEED_KINDS);

/** Seat and account webhooks, their inputs and deliveries. */
export function webhooksSdl(_c: SdlContext): string {
  return /* GraphQL */ `
  "A Standard Webhooks endpoint: events are your-turn, opponent-joined, match-ended, deadline-near."
  input WebhookInput {
    url: String!
    events: [String!]!
    "deadline-near fires this long before a deadline (default 720)."
    deadlineLeadMinutes: Int
  }

  type Webhook {
    id: ID!
    url: String!
    "What it is notified of: ${seatKinds}."
    events: [String!]!
    deadlineLeadMinutes: Int!
    "active, failing (retrying) or disabled (failing for 24 h: see disabledReason)."
    status: String!
    failingSince: String
    disabledReason: String
    createdAt: String!
    "Newest first."
    deliveries(limit: Int = 20): [WebhookDelivery!]!
  }

  type WebhookCreated {
    webhook: Webhook!
    "The signing secret (whsec_…), shown once."
    secret: String!
  }

  "An account webhook: the kinds of account feed entry to deliver (FeedEntry types; default all)."
  input AccountWebhookInput {
    url: String!
    events: [String!]
  }

  type AccountWebhook {
    id: ID!
    url: String!
    "The kinds of account feed entry it delivers: ${accountKinds}."
    events: [String!]!
    "active, failing (retrying) or disabled (failing for 24 h: see disabledReason)."
    status: String!
    failingSince: String
    disabledReason: String
    createdAt: String!
    "Newest first."
    deliveries(limit: Int = 20): [AccountWebhookDelivery!]!
  }

  type AccountWebhookCreated {
    webhook: AccountWebhook!
    "The signing secret (whsec_…), shown once."
    secret: String!
  }

  type AccountWebhookDelivery {
    "The webhook-id header, the same on every attempt."
    id: ID!
    "${accountKinds}."
    kind: String!
    "The feed entry it delivers (its id in GET /v1/me/events, and data.entryId of the body)."
    entryId: String!
    "pending, delivered or failed."
    status: String!
    attempts: Int!
    nextAttemptAt: String
    lastStatusCode: Int
    lastError: String
    createdAt: String!
    deliveredAt: String
  }

  type WebhookDelivery {
    "The webhook-id header, the same on every attempt."
    id: ID!
    "${seatKinds}."
    kind: String!
    version: Int!
    "pending, delivered, failed or superseded (a deadline-near the match moved past before it was sent)."
    status: String!
    attempts: Int!
    nextAttemptAt: String
    lastStatusCode: Int
    lastError: String
    createdAt: String!
    deliveredAt: String
  }
`;
}
