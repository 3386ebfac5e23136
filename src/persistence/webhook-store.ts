/**
 * Webhook endpoints and the delivery outbox. Rows are written to the outbox by the append itself
 * (APPEND_SQL in prisma-store.ts), so a committed move always has its notifications and a
 * rolled-back one never does; workers on every node claim due rows here.
 */
import type { PrismaClient, Prisma } from '../generated/prisma/client.js';
import type { SqlQuery } from './database.js';
import type { ClaimedDelivery, DeliveryRow, DeliveryStatus, NewWebhook, SeatName, WebhookKind, WebhookRow, WebhookStore } from './types.js';

type WebhookModel = Prisma.WebhookGetPayload<object>;
type DeliveryModel = Prisma.WebhookDeliveryGetPayload<object>;

function webhookRow(w: WebhookModel): WebhookRow {
  return {
    id: w.id,
    matchId: w.matchId,
    seat: w.seat as SeatName,
    url: w.url,
    kinds: w.kinds as WebhookKind[],
    secret: w.secret,
    deadlineLeadMs: w.deadlineLeadMs,
    previousSecret: w.previousSecret,
    previousUntil: w.previousUntil,
    failingSince: w.failingSince,
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt,
  };
}

function deliveryRow(d: DeliveryModel): DeliveryRow {
  return {
    id: d.id,
    webhookId: d.webhookId,
    matchId: d.matchId,
    seat: d.seat as SeatName,
    kind: d.kind as WebhookKind,
    version: d.version,
    fromSeq: d.fromSeq,
    toMove: d.toMove as SeatName | null,
    deadline: d.deadline,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    firstAttemptAt: d.firstAttemptAt,
    nextAttemptAt: d.nextAttemptAt,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
  };
}

/** Claims due deliveries under a lease: pushing next_attempt_at forward hides them from other workers. */
const CLAIM_SQL = `
WITH due AS (
  SELECT "id" FROM "webhook_delivery"
   WHERE "status" = 'pending' AND "next_attempt_at" <= now()
   ORDER BY "next_attempt_at"
   LIMIT $1
   FOR UPDATE SKIP LOCKED
)
UPDATE "webhook_delivery" d
   SET "next_attempt_at" = now() + ($2::int * interval '1 millisecond'), "attempts" = d."attempts" + 1,
       "first_attempt_at" = COALESCE(d."first_attempt_at", now())
  FROM due
 WHERE d."id" = due."id"
RETURNING d."id"`;

export class PrismaWebhookStore implements WebhookStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlQuery,
  ) {}

  async create(matchId: string, hook: NewWebhook): Promise<WebhookRow> {
    return webhookRow(await this.prisma.webhook.create({ data: { ...hook, matchId } }));
  }

  async list(matchId: string, seat: SeatName): Promise<WebhookRow[]> {
    return (await this.prisma.webhook.findMany({ where: { matchId, seat }, orderBy: { createdAt: 'asc' } })).map(webhookRow);
  }

  async get(matchId: string, seat: SeatName, id: string): Promise<WebhookRow | null> {
    const w = await this.prisma.webhook.findFirst({ where: { id, matchId, seat } });
    return w ? webhookRow(w) : null;
  }

  async delete(matchId: string, seat: SeatName, id: string): Promise<boolean> {
    return (await this.prisma.webhook.deleteMany({ where: { id, matchId, seat } })).count > 0;
  }

  async rotate(matchId: string, seat: SeatName, id: string, secret: string, previousUntil: Date): Promise<WebhookRow | null> {
    const w = await this.get(matchId, seat, id);
    if (!w) return null;
    return webhookRow(await this.prisma.webhook.update({ where: { id }, data: { secret, previousSecret: w.secret, previousUntil } }));
  }

  async deliveries(webhookId: string, limit: number): Promise<DeliveryRow[]> {
    return (await this.prisma.webhookDelivery.findMany({ where: { webhookId }, orderBy: { createdAt: 'desc' }, take: limit })).map(deliveryRow);
  }

  async redeliver(webhookId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const r = await this.prisma.webhookDelivery.updateMany({
      where: { id: deliveryId, webhookId },
      data: { status: 'pending', nextAttemptAt: new Date(), firstAttemptAt: null, lastError: null },
    });
    if (r.count === 0) return null;
    const d = await this.prisma.webhookDelivery.findUnique({ where: { id: deliveryId } });
    return d ? deliveryRow(d) : null;
  }

  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const ids = (await this.sql<{ id: string }>(CLAIM_SQL, [limit, leaseMs], 'evons_webhook_claim')).map((r) => r.id);
    if (ids.length === 0) return [];
    const rows = await this.prisma.webhookDelivery.findMany({ where: { id: { in: ids } }, include: { webhook: { include: { match: { select: { version: true } } } } } });
    return rows.map(({ webhook: { match, ...w }, ...d }) => ({ ...deliveryRow(d), webhook: webhookRow(w), matchVersion: match.version }));
  }

  async settle(
    d: ClaimedDelivery,
    r: { ok: boolean; statusCode: number | null; error: string | null; nextAttemptAt: Date | null; superseded?: boolean; disableReason?: string | null },
  ): Promise<void> {
    const status: DeliveryStatus = r.superseded ? 'superseded' : r.ok ? 'delivered' : r.nextAttemptAt ? 'pending' : 'failed';
    await this.prisma.$transaction([
      this.prisma.webhookDelivery.update({
        where: { id: d.id },
        data: {
          status,
          lastStatusCode: r.statusCode,
          lastError: r.error,
          ...(r.nextAttemptAt ? { nextAttemptAt: r.nextAttemptAt } : {}),
          ...(r.ok ? { deliveredAt: new Date() } : {}),
        },
      }),
      this.prisma.webhook.update({
        where: { id: d.webhookId },
        data: r.superseded
          ? {}
          : r.ok
            ? { failingSince: null }
            : {
                failingSince: d.webhook.failingSince ?? new Date(),
                ...(r.disableReason ? { disabledAt: new Date(), disabledReason: r.disableReason } : {}),
              },
      }),
    ]);
  }
}
