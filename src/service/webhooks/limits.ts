/** What one seat may ask of the webhook machinery (each endpoint is a POST per notification). */
export interface WebhookLimits {
  /** Endpoints one seat of one match may hold. */
  maxPerSeat: number;
  /** Times one delivery may be queued again by its seat (each once, one attempt). */
  maxRedeliveries: number;
  /** Account endpoints one player may hold (each gets every entry of their feed it asked for). */
  maxPerAccount: number;
}

/** The defaults (WEBHOOK_MAX_PER_SEAT, WEBHOOK_MAX_REDELIVERIES, WEBHOOK_MAX_PER_ACCOUNT). */
export const DEFAULT_WEBHOOK_LIMITS: WebhookLimits = { maxPerSeat: 5, maxRedeliveries: 3, maxPerAccount: 5 };
