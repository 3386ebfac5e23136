/**
 * Standard Webhooks signing (the reference `standardwebhooks` package): webhook-id,
 * webhook-timestamp (seconds) and webhook-signature = "v1,<base64 HMAC-SHA256 of id.timestamp.body>",
 * one signature per secret in force (the previous secret signs too for a day after a rotation).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret, in the `whsec_<base64>` form Standard Webhooks libraries accept. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function signatureHeaders(id: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' '),
  };
}
