/** What the webhook endpoints take and return (shared with the service's types, so kept free of its modules). */
import type { Seat } from '../../core/ruleset.js';
import type { DeliveryRow, WebhookKind } from '../../persistence/types.js';

/** A redacted event as a seat receives it (the service's EventDto). */
interface DeliveredEvent {
  seq: number;
  actingSeat: Seat | null;
  event: { type: string; [k: string]: unknown };
}

export interface WebhookInput {
  url: string;
  events: WebhookKind[];
  /** deadline-near: this many minutes before a deadline (default 720: 12 h). */
  deadlineLeadMinutes?: number | undefined;
}

/** An endpoint as its seat sees it (never the secret, except once at registration). */
export interface WebhookView {
  id: string;
  url: string;
  events: WebhookKind[];
  deadlineLeadMinutes: number;
  status: 'active' | 'failing' | 'disabled';
  failingSince: string | null;
  disabledReason: string | null;
  createdAt: string;
}

export interface DeliveryView {
  id: string;
  kind: WebhookKind;
  version: number;
  status: DeliveryRow['status'];
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** The body receivers get (Standard Webhooks: type, timestamp, data). */
export interface DeliveryBody {
  type: WebhookKind;
  timestamp: string;
  data: {
    matchId: string;
    gameId: string;
    seat: Seat;
    version: number;
    toMove: Seat | null;
    deadline: string | null;
    /** The events of the append that caused this notification, as this seat may see them. */
    events: DeliveredEvent[];
  };
}
