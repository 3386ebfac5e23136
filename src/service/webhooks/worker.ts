/**
 * Delivers the webhook outbox, on every node: claim due rows (FOR UPDATE SKIP LOCKED, under a
 * lease), POST each signed body, then record the result: delivered, or the next attempt after an
 * exponential backoff with jitter, or (after a day of failures) given up, and the endpoint
 * disabled with the reason. At least once: a node killed mid-send loses its lease and another
 * node sends again with the same webhook-id, which receivers deduplicate on.
 */
import type { ClaimedDelivery, WebhookStore } from '../../persistence/types.js';
import { postJson } from './outbound.js';
import { signatureHeaders } from './signing.js';

export interface WorkerOptions {
  /** Waits between attempts, in order; the last repeats (default 5 s, 30 s, 2 min, 10 min, 1 h, 2 h, 4 h, 8 h). */
  backoffMs?: number[];
  /** Give up on a delivery (and disable an endpoint failing) this long after its first failure (default 24 h). */
  giveUpAfterMs?: number;
  /** Polling period when no append wakes the worker (default 1 s); 0: never poll. */
  pollMs?: number;
  /** Private and loopback addresses allowed (development, tests). */
  allowPrivate: boolean;
  /** Deliveries claimed per round (default 50). */
  batch?: number;
  /** A claimed delivery is invisible to other workers this long (default 30 s, more than a send can take). */
  leaseMs?: number;
}

export interface WorkerLog {
  warn(obj: object, msg: string): void;
}

const DEFAULT_BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000];
const DAY_MS = 86_400_000;
const LEASE_MS = 30_000;

export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly backoff: number[];
  private readonly giveUpAfter: number;

  constructor(
    private readonly store: WebhookStore,
    /** The signed body of a delivery (redacted for its seat): built from the match's log, so the same on every attempt. */
    private readonly bodyOf: (d: ClaimedDelivery) => Promise<string>,
    private readonly opts: WorkerOptions,
    private readonly log?: WorkerLog,
  ) {
    this.backoff = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.giveUpAfter = opts.giveUpAfterMs ?? DAY_MS;
  }

  start(): void {
    const poll = this.opts.pollMs ?? 1_000;
    if (this.timer || poll <= 0) return;
    this.timer = setInterval(() => this.kick(), poll);
    this.timer.unref();
  }

  /** Deliver what is due now (an append just committed, or the poll). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves once the current round is over. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const batch = await this.store.claim(this.opts.batch ?? 50, this.opts.leaseMs ?? LEASE_MS);
        if (batch.length === 0) return;
        await Promise.all(batch.map((d) => this.deliver(d)));
        if (this.stopped) return;
      }
    } catch (err) {
      // The database is down or the node is stopping: the leases run out and a later round retries.
      this.log?.warn({ err }, 'webhook delivery round failed');
    }
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    // A deadline warning for a position the match has moved past is not worth sending.
    if (d.kind === 'deadline-near' && d.matchVersion !== d.version) {
      await this.store.settle(d, { ok: false, statusCode: null, error: null, nextAttemptAt: null, superseded: true });
      return;
    }
    const now = new Date();
    if (d.webhook.disabledAt) {
      await this.store.settle(d, { ok: false, statusCode: null, error: 'the endpoint is disabled', nextAttemptAt: null });
      return;
    }
    const body = await this.bodyOf(d);
    const secrets = [d.webhook.secret];
    if (d.webhook.previousSecret && d.webhook.previousUntil && d.webhook.previousUntil > now) secrets.push(d.webhook.previousSecret);
    const r = await postJson(d.webhook.url, body, signatureHeaders(d.id, now, body, secrets), this.opts.allowPrivate);
    const ok = r.error === null && r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    if (ok) {
      await this.store.settle(d, { ok: true, statusCode: r.statusCode, error: null, nextAttemptAt: null });
      return;
    }
    const error = r.error ?? `HTTP ${r.statusCode}`;
    const failingSince = d.webhook.failingSince ?? now;
    const givingUp = now.getTime() - (d.firstAttemptAt ?? now).getTime() >= this.giveUpAfter;
    const disable = now.getTime() - failingSince.getTime() >= this.giveUpAfter;
    const wait = this.backoff[Math.min(d.attempts - 1, this.backoff.length - 1)] ?? this.backoff.at(-1)!;
    // ±20 % jitter, so endpoints that failed together do not retry together.
    const jittered = Math.round(wait * (0.8 + Math.random() * 0.4));
    await this.store.settle(d, {
      ok: false,
      statusCode: r.statusCode,
      error,
      nextAttemptAt: givingUp || disable ? null : new Date(now.getTime() + jittered),
      disableReason: disable ? `Every delivery has failed since ${failingSince.toISOString()} (last: ${error}).` : null,
    });
  }
}
