/** What one seat may ask of the webhook machinery (each endpoint is a POST per notification). */
export interface WebhookLimits {
  /** Endpoints one seat of one match may hold. */
  maxPerSeat: number;
  /** Times one delivery may be queued again by its seat (each once, one attempt). */
  maxRedeliveries: number;
}

/** The defaults (WEBHOOK_MAX_PER_SEAT, WEBHOOK_MAX_REDELIVERIES). */
export const DEFAULT_WEBHOOK_LIMITS: WebhookLimits = { maxPerSeat: 5, maxRedeliveries: 3 };
