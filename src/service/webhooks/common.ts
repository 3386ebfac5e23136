/**
 * What a seat's endpoints (endpoints.ts) and a player's account endpoints (account.ts) share:
 * ids, the rotation overlap, the status an endpoint shows, and the answers a redelivery or a
 * registration over the limit gets.
 */
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../errors.js';

/** The old secret keeps signing this long after a rotation. */
export const ROTATION_OVERLAP_MS = 86_400_000;

export const newWebhookId = (): string => `wh_${randomBytes(12).toString('base64url')}`;

/** failing: deliveries are being retried; disabled: failing for a day, no more deliveries. */
export function endpointStatus(w: { disabledAt: Date | null; failingSince: Date | null }): 'active' | 'failing' | 'disabled' {
  return w.disabledAt ? 'disabled' : w.failingSince ? 'failing' : 'active';
}

export const tooManyWebhooks = (detail: string) =>
  new ServiceError({ kind: 'conflict', code: 'too-many-webhooks', title: 'Too many webhooks', detail });

/** A redelivery's stored answer, or its refusal: not found (the caller's words), still pending, or past the limit. */
export function redelivered<D>(d: D | 'pending' | 'limit' | null, maxRedeliveries: number, notFound: () => Error): D {
  if (!d) throw notFound();
  if (d === 'pending') {
    const detail = 'This delivery is queued already (see its nextAttemptAt); it can be sent again once it has settled.';
    throw new ServiceError({ kind: 'conflict', code: 'delivery-pending', title: 'Delivery pending', detail });
  }
  if (d === 'limit') {
    const detail = `A delivery can be sent again ${maxRedeliveries} times.`;
    throw new ServiceError({ kind: 'conflict', code: 'redelivery-limit', title: 'Redelivery limit reached', detail });
  }
  return d;
}
