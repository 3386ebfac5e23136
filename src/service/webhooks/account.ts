/**
 * A player's account webhooks: register (the secret is shown once), list, delete, rotate the
 * secret, read the delivery log, redeliver; and the body of a delivery. Deliveries are queued by
 * the database (trigger of migration account_webhooks: one per feed entry of the player, in the
 * entry's transaction) and sent by the same worker as a seat's. The body is the stored feed entry
 * (public facts only), so every attempt sends the same bytes.
 */
import type { AccountDeliveryRow, AccountWebhookRow, ClaimedAccountDelivery, PlayerRow, WebhookStore } from '../../persistence/types.js';
import { FEED_KINDS, type FeedKind } from '../../contract/kinds.js';
import { DeliveryIdSchema, WebhookIdSchema } from '../../contract/ids.js';
import { problems, ServiceError } from '../errors.js';
import { urlProblem } from './outbound.js';
import type { WebhookLimits } from './limits.js';
import { newWebhookSecret } from './signing.js';
import { ROTATION_OVERLAP_MS, endpointStatus, newWebhookId, redelivered, tooManyWebhooks } from './common.js';

/** How long a node trusts its answer to "are there account webhooks at all?" (feed notifications kick the worker only then). */
const ANY_TTL_MS = 5_000;

export interface AccountWebhookInput {
  url: string;
  events?: FeedKind[] | undefined;
}

export interface AccountWebhookView {
  id: string;
  url: string;
  events: FeedKind[];
  status: 'active' | 'failing' | 'disabled';
  failingSince: string | null;
  disabledReason: string | null;
  createdAt: string;
}

export interface AccountDeliveryView {
  id: string;
  kind: FeedKind;
  /** The feed entry's id (its position, as GET /v1/me/events sends it). */
  entryId: string;
  /** superseded is a seat's deadline warning only: an account delivery never is. */
  status: Exclude<AccountDeliveryRow['status'], 'superseded'>;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/**
 * The body receivers get (Standard Webhooks: type, timestamp, data = the entry's data and its
 * position). The position is `entryId`, not `id`: a challenge entry's data has its own `id`
 * (the challenge's), which receivers must keep.
 */
export interface AccountDeliveryBody {
  type: FeedKind;
  timestamp: string;
  data: { entryId: string; [k: string]: unknown };
}

export function accountWebhookView(w: AccountWebhookRow): AccountWebhookView {
  return {
    id: w.id,
    url: w.url,
    events: w.kinds as FeedKind[],
    status: endpointStatus(w),
    failingSince: w.failingSince?.toISOString() ?? null,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt.toISOString(),
  };
}

export function accountDeliveryView(d: AccountDeliveryRow): AccountDeliveryView {
  return {
    id: d.id,
    kind: d.kind as FeedKind,
    entryId: d.entryId,
    status: d.status as AccountDeliveryView['status'],
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  };
}

/** The JSON an account delivery sends: built from the stored entry alone, so the same on every attempt. */
export function accountDeliveryBody(d: ClaimedAccountDelivery): string {
  const body: AccountDeliveryBody = {
    type: d.entry.kind as FeedKind,
    timestamp: d.entry.createdAt.toISOString(),
    data: { entryId: d.entry.position, ...d.entry.data },
  };
  return JSON.stringify(body);
}

// Ids are checked before any query: text that is not one (a NUL byte, a megabyte) is simply not found.
const isWebhookId = (id: string) => WebhookIdSchema.safeParse(id).success;
const isDeliveryId = (id: string) => DeliveryIdSchema.safeParse(id).success;

const notFound = (id: string) =>
  new ServiceError({
    kind: 'not-found',
    code: 'webhook-not-found',
    title: 'No such webhook',
    detail: `No account webhook "${isWebhookId(id) ? id : '…'}" of yours.`,
  });
const deliveryNotFound = (id: string) =>
  new ServiceError({
    kind: 'not-found',
    code: 'delivery-not-found',
    title: 'No such delivery',
    detail: `No delivery "${isDeliveryId(id) ? id : '…'}" of this webhook.`,
  });

export class AccountWebhooks {
  private any: { value: boolean; at: number; reading: Promise<void> | null } = { value: false, at: -Infinity, reading: null };

  constructor(
    private readonly store: WebhookStore,
    private readonly allowPrivate: boolean,
    private readonly limits: WebhookLimits,
  ) {}

  async register(me: PlayerRow, input: AccountWebhookInput): Promise<{ webhook: AccountWebhookView; secret: string }> {
    const problem = urlProblem(input.url, this.allowPrivate);
    if (problem) throw problems.validation(`url: ${problem}`, [`url: ${problem}`]);
    const kinds = [...new Set(input.events ?? FEED_KINDS)];
    const hook = { id: newWebhookId(), url: input.url, kinds, secret: newWebhookSecret() };
    const row = await this.store.createForPlayer(me.id, hook, this.limits.maxPerAccount);
    if (!row) throw tooManyWebhooks(`A player may hold ${this.limits.maxPerAccount} account webhooks; delete one first.`);
    this.any = { value: true, at: Date.now(), reading: null };
    return { webhook: accountWebhookView(row), secret: hook.secret };
  }

  async list(me: PlayerRow): Promise<AccountWebhookView[]> {
    return (await this.store.listForPlayer(me.id)).map(accountWebhookView);
  }

  async remove(me: PlayerRow, id: string): Promise<void> {
    if (!isWebhookId(id)) throw notFound(id);
    if (!(await this.store.deleteForPlayer(me.id, id))) throw notFound(id);
  }

  async rotate(me: PlayerRow, id: string): Promise<{ webhook: AccountWebhookView; secret: string }> {
    if (!isWebhookId(id)) throw notFound(id);
    const secret = newWebhookSecret();
    const row = await this.store.rotateForPlayer(me.id, id, secret, new Date(Date.now() + ROTATION_OVERLAP_MS));
    if (!row) throw notFound(id);
    return { webhook: accountWebhookView(row), secret };
  }

  async deliveries(me: PlayerRow, id: string, limit: number): Promise<AccountDeliveryView[]> {
    if (!isWebhookId(id)) throw notFound(id);
    const w = await this.store.getForPlayer(me.id, id);
    if (!w) throw notFound(id);
    return (await this.store.accountDeliveries(w.id, limit)).map(accountDeliveryView);
  }

  async redeliver(me: PlayerRow, id: string, deliveryId: string): Promise<AccountDeliveryView> {
    if (!isWebhookId(id)) throw notFound(id);
    const w = await this.store.getForPlayer(me.id, id);
    if (!w) throw notFound(id);
    if (!isDeliveryId(deliveryId)) throw deliveryNotFound(deliveryId);
    const d = await this.store.redeliverAccount(w.id, deliveryId, this.limits.maxRedeliveries);
    return accountDeliveryView(redelivered(d, this.limits.maxRedeliveries, () => deliveryNotFound(deliveryId)));
  }

  /**
   * On a feed notification (entries may have been written, perhaps with deliveries): `kick` the
   * node's worker, but only while some account webhook exists (asked at most every 5 s; one
   * registered on this node counts at once). Without this every append on any node would cost
   * every node a claim query; a delivery for a webhook registered on another node in the last
   * seconds still goes out on the worker's poll.
   */
  onFeed(kick: () => void): void {
    if (Date.now() - this.any.at < ANY_TTL_MS) {
      if (this.any.value) kick();
      return;
    }
    this.any.reading ??= this.store
      .anyAccountWebhooks()
      .then((value) => {
        this.any = { value, at: Date.now(), reading: null };
      })
      .catch(() => {
        // The database is away: the poll (and the next notification) will try again.
        this.any = { ...this.any, reading: null };
      });
    void this.any.reading.then(() => {
      if (this.any.value) kick();
    });
  }
}
