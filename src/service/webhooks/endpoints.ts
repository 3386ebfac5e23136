/**
 * A seat's webhook endpoints: register (the secret is shown once), list, delete, rotate the
 * secret, read the delivery log, redeliver; and the body of a delivery, redacted for its seat
 * exactly like the event stream.
 */
import type { Seat } from '../../core/ruleset.js';
import type { ClaimedDelivery, DeliveryRow, MatchStore, NewWebhook, WebhookRow } from '../../persistence/types.js';
import { problems, ServiceError } from '../errors.js';
import { redact } from '../match/reads.js';
import { rulesetOf } from '../../games/registry.js';
import type { EventDto, LoadedMatch } from '../match/types.js';
import { urlProblem } from './outbound.js';
import { DEFAULT_WEBHOOK_LIMITS, type WebhookLimits } from './limits.js';
import { newWebhookSecret } from './signing.js';
import { ROTATION_OVERLAP_MS, endpointStatus, newWebhookId, redelivered, tooManyWebhooks } from './common.js';
import { accountDeliveryBody } from './account.js';
import type { DeliveryBody, DeliveryView, WebhookInput, WebhookView } from './types.js';

export type { DeliveryBody, DeliveryView, WebhookInput, WebhookView };

const DEFAULT_LEAD_MINUTES = 720;

export function webhookView(w: WebhookRow): WebhookView {
  return {
    id: w.id,
    url: w.url,
    events: w.kinds,
    deadlineLeadMinutes: Math.round(w.deadlineLeadMs / 60_000),
    status: endpointStatus(w),
    failingSince: w.failingSince?.toISOString() ?? null,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt.toISOString(),
  };
}

export function deliveryView(d: DeliveryRow): DeliveryView {
  return {
    id: d.id,
    kind: d.kind,
    version: d.version,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  };
}

/** A just-registered endpoint as its seat sees it, with the secret (shown this once). */
export function createdWebhookView(hook: NewWebhook, matchId: string, createdAt: Date): WebhookView & { secret: string } {
  const row: WebhookRow = {
    ...hook,
    matchId,
    previousSecret: null,
    previousUntil: null,
    failingSince: null,
    disabledAt: null,
    disabledReason: null,
    createdAt,
  };
  return { ...webhookView(row), secret: hook.secret };
}

/** A new endpoint for `seat`, checked; the caller stores it (alone, or with a create or join). */
export function newWebhook(seat: Seat, input: WebhookInput, allowPrivate: boolean): NewWebhook {
  const problem = urlProblem(input.url, allowPrivate);
  if (problem) throw problems.validation(`url: ${problem}`, [`url: ${problem}`]);
  if (input.events.length === 0) throw problems.validation('events: name at least one kind', ['events: at least one']);
  return {
    id: newWebhookId(),
    seat,
    url: input.url,
    kinds: [...new Set(input.events)],
    secret: newWebhookSecret(),
    deadlineLeadMs: (input.deadlineLeadMinutes ?? DEFAULT_LEAD_MINUTES) * 60_000,
  };
}

function seatOf(m: LoadedMatch): Seat {
  if (!m.seat) throw problems.missingToken();
  return m.seat;
}

const notFound = (id: string) =>
  new ServiceError({
    kind: 'not-found',
    code: 'webhook-not-found',
    title: 'No such webhook',
    detail: `No webhook "${id}" of your seat in this match.`,
  });

export class WebhookEndpoints {
  constructor(
    private readonly store: MatchStore,
    private readonly allowPrivate: boolean,
    private readonly limits: WebhookLimits = DEFAULT_WEBHOOK_LIMITS,
  ) {}

  async register(m: LoadedMatch, input: WebhookInput): Promise<{ webhook: WebhookView; secret: string }> {
    const hook = newWebhook(seatOf(m), input, this.allowPrivate);
    const row = await this.store.webhooks.create(m.row.id, hook, this.limits.maxPerSeat);
    if (!row) throw tooManyWebhooks(`A seat may hold ${this.limits.maxPerSeat} webhooks in a match; delete one first.`);
    return { webhook: webhookView(row), secret: hook.secret };
  }

  async list(m: LoadedMatch): Promise<WebhookView[]> {
    return (await this.store.webhooks.list(m.row.id, seatOf(m))).map(webhookView);
  }

  async remove(m: LoadedMatch, id: string): Promise<void> {
    if (!(await this.store.webhooks.delete(m.row.id, seatOf(m), id))) throw notFound(id);
  }

  async rotate(m: LoadedMatch, id: string): Promise<{ webhook: WebhookView; secret: string }> {
    const secret = newWebhookSecret();
    const row = await this.store.webhooks.rotate(m.row.id, seatOf(m), id, secret, new Date(Date.now() + ROTATION_OVERLAP_MS));
    if (!row) throw notFound(id);
    return { webhook: webhookView(row), secret };
  }

  async deliveries(m: LoadedMatch, id: string, limit: number): Promise<DeliveryView[]> {
    const w = await this.store.webhooks.get(m.row.id, seatOf(m), id);
    if (!w) throw notFound(id);
    return (await this.store.webhooks.deliveries(w.id, limit)).map(deliveryView);
  }

  async redeliver(m: LoadedMatch, id: string, deliveryId: string): Promise<DeliveryView> {
    const w = await this.store.webhooks.get(m.row.id, seatOf(m), id);
    if (!w) throw notFound(id);
    const d = await this.store.webhooks.redeliver(w.id, deliveryId, this.limits.maxRedeliveries);
    const noDelivery = () =>
      new ServiceError({
        kind: 'not-found',
        code: 'delivery-not-found',
        title: 'No such delivery',
        detail: `No delivery "${deliveryId}" of this webhook.`,
      });
    return deliveryView(redelivered(d, this.limits.maxRedeliveries, noDelivery));
  }

  /** The JSON a delivery sends: the same on every attempt (it reads only the log up to its version, brought by the claim). */
  bodyOf(d: ClaimedDelivery): Promise<string> {
    // The worker sends both kinds of delivery: an account's is its stored feed entry.
    if (d.of === 'account') return Promise.resolve(accountDeliveryBody(d));
    // The claim brought the match's game: no match load on the delivery path.
    const ruleset = rulesetOf(d.game);
    if (!ruleset) throw problems.gameUnavailable(d.game);
    const entry = { ruleset };
    const events: EventDto[] = [];
    for (const e of d.events) {
      const r = redact(entry, e, d.seat);
      if (r) events.push(r);
    }
    const body: DeliveryBody = {
      type: d.kind,
      timestamp: d.createdAt.toISOString(),
      data: {
        matchId: d.matchId,
        gameId: ruleset.id,
        seat: d.seat,
        version: d.version,
        toMove: d.toMove,
        deadline: d.deadline?.toISOString() ?? null,
        events,
      },
    };
    return Promise.resolve(JSON.stringify(body));
  }
}
