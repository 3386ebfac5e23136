/**
 * Delivers the webhook outbox, on every node: claim due rows (FOR UPDATE SKIP LOCKED, under a
 * lease), POST each signed body, then record the result: delivered, or the next attempt after an
 * exponential backoff with jitter, or (after a day of failures) given up, and the endpoint
 * disabled with the reason. At least once: a node killed mid-send loses its lease and another
 * node sends again with the same webhook-id, which receivers deduplicate on.
 *
 * Endpoints do not wait on each other: up to `concurrency` deliveries are in flight at once, one
 * endpoint's one after another, and the worker claims more as soon as any settles (never a whole
 * round waiting on its slowest endpoint). Per endpoint, the claim takes nothing while an earlier
 * version to that endpoint is pending, so receivers get a match's deliveries in data.version order.
 *
 * Slow endpoints have a lane of their own: an endpoint whose attempt runs past `slowAfterMs` (or
 * whose last one did) stops counting against `concurrency` and holds one of `slowConcurrency`
 * slots instead; while those are all taken, the claim leaves slow endpoints out. Hundreds of
 * endpoints that answer late then delay each other, never a fast one (before: a fast endpoint's
 * delivery waited 14.6 s behind 200 slow ones). Until an endpoint's first attempt has run past
 * `slowAfterMs` nobody knows it is slow, so endpoints whose last attempt was quick are claimed
 * first and keep a quarter of the fast lane (a wave of 200 new slow endpoints held a fast one's
 * delivery 2.4 s at its p99 without it; 68 ms with it), and an attempt to an endpoint not known
 * quick (a probe) gives its fast slot up after `probeAfterMs`: the wave is out of the fast lane in
 * a fifth of the time, and a new endpoint's first delivery (a new match's) waits less behind it.
 */
import { LRUCache } from 'lru-cache';
import { ClaimLoop } from '../claim-loop.js';
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
  /** Deliveries claimed and not settled yet on this node, all endpoints together (default 64). */
  concurrency?: number;
  /** A claimed delivery is invisible to other workers this long (default 30 s, more than a send can take). */
  leaseMs?: number;
  /** One attempt's limit, answer included (default 5 s). */
  timeoutMs?: number;
  /** An attempt running this long moves its endpoint to the slow lane (default 1 s). */
  slowAfterMs?: number;
  /**
   * An attempt to an endpoint not known to be quick gives its fast slot up after this long (default
   * 200 ms, at most slowAfterMs): it goes on in the slow lane, and back if it answers within slowAfterMs.
   */
  probeAfterMs?: number;
  /** Deliveries to slow endpoints in flight at once on this node, besides `concurrency` (default 16). */
  slowConcurrency?: number;
  /** The clock (epoch ms) attempts are timed and retries scheduled on (default Date.now). */
  now?: () => number;
}

export interface WorkerLog {
  warn(obj: object, msg: string): void;
}

const DEFAULT_BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000];
const DAY_MS = 86_400_000;
const LEASE_MS = 30_000;
const CONCURRENCY = 64;
const SLOW_AFTER_MS = 1_000;
const SLOW_CONCURRENCY = 16;
const PROBE_AFTER_MS = 200;
/**
 * Probing attempts the slow lane takes beyond its own room, per fast slot: past them a probe keeps
 * its fast slot up to slowAfterMs, so what is in flight stays bounded (64 + 16 + 256 by default).
 * With room for only 4 per slow slot, a wave of 200 new slow endpoints still held the fast lane
 * for most of a second (a new endpoint's first delivery: p99 780 ms in the isolation suite).
 */
const PROBE_ROOM_PER_SLOT = 4;

/** One endpoint's claimed deliveries, in sending order, and whether they ride the slow lane. */
interface EndpointQueue {
  items: ClaimedDelivery[];
  slow: boolean;
}

export class WebhookWorker {
  /** Claims (one at a time) and every endpoint's queue still running. */
  private readonly loop = new ClaimLoop(() => this.fill());
  /** Claimed, unsettled deliveries by endpoint, sent in this order. */
  private readonly queues = new Map<string, EndpointQueue>();
  /** Claimed, unsettled deliveries in the fast lane and in the slow lane. */
  private inFlight = 0;
  private inFlightSlow = 0;
  /** Endpoints whose last attempt was slow (bounded: the oldest are forgotten, and start fast again). */
  private readonly slowEndpoints = new LRUCache<string, true>({ max: 10_000 });
  /**
   * Endpoints whose last attempt was quick. They are claimed first, and a quarter of the fast lane
   * is kept for them: endpoints not yet known (say, a wave of new slow ones, which take
   * `slowAfterMs` to be found out) can never fill the whole fast lane ahead of them.
   */
  private readonly quickEndpoints = new LRUCache<string, true>({ max: 1_000 });
  private readonly slowAfterMs: number;
  private readonly probeAfterMs: number;
  private readonly slowConcurrency: number;
  private readonly backoff: number[];
  private readonly giveUpAfter: number;
  private readonly concurrency: number;
  private readonly now: () => number;

  constructor(
    private readonly store: WebhookStore,
    /** The signed body of a delivery (a seat's redacted for it from the match's log; an account's from its feed entry): the same on every attempt. */
    private readonly bodyOf: (d: ClaimedDelivery) => Promise<string>,
    private readonly opts: WorkerOptions,
    private readonly log?: WorkerLog,
  ) {
    this.backoff = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.giveUpAfter = opts.giveUpAfterMs ?? DAY_MS;
    this.concurrency = Math.max(1, opts.concurrency ?? CONCURRENCY);
    this.slowAfterMs = opts.slowAfterMs ?? SLOW_AFTER_MS;
    this.probeAfterMs = Math.min(this.slowAfterMs, opts.probeAfterMs ?? PROBE_AFTER_MS);
    this.slowConcurrency = Math.max(1, opts.slowConcurrency ?? SLOW_CONCURRENCY);
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    this.loop.poll(this.opts.pollMs ?? 1_000);
  }

  /** Claim what is due now (an append just committed, a delivery settled, or the poll). */
  kick(): void {
    this.loop.kick();
  }

  /** Resolves once nothing is claimed or in flight. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  async stop(): Promise<void> {
    this.loop.stop();
    await this.loop.idle();
  }

  /** Deliveries in flight in the fast lane and the slow one (tests, metrics). */
  lanes(): { fast: number; slow: number } {
    return { fast: this.inFlight, slow: this.inFlightSlow };
  }

  /**
   * Claims up to the free room, leaving out the endpoints this node is already sending to, and the
   * slow ones while the slow lane is full.
   */
  private async fill(): Promise<void> {
    try {
      const leaseMs = this.opts.leaseMs ?? LEASE_MS;
      const reserved = Math.floor(this.concurrency / 4);
      // The fast lane first: a fill waits on its claims one after another, and the quick
      // endpoints' deliveries are the ones a wait shows in.
      for (;;) {
        const room = this.concurrency - this.inFlight;
        if (room <= 0 || this.loop.stopped) break;
        const idleQuick = [...this.quickEndpoints.keys()].filter((id) => !this.queues.has(id));
        if (idleQuick.length > 0) for (const d of await this.store.claim(room, leaseMs, [], idleQuick)) this.enqueue(d);
        // The rest of the fast lane, less the quick endpoints' reserve, for every endpoint not known slow.
        const open = this.concurrency - reserved - this.inFlight;
        if (open <= 0 || this.loop.stopped) break;
        const exclude = [
          ...this.queues.keys(),
          ...idleQuick.filter((id) => !this.queues.has(id)),
          ...[...this.slowEndpoints.keys()].filter((id) => !this.queues.has(id)),
        ];
        const claimed = await this.store.claim(open, leaseMs, exclude);
        for (const d of claimed) this.enqueue(d);
        if (claimed.length < open) break;
      }
      // The slow lane claims for the known slow endpoints alone, into its own room: the fast lane's
      // claim never takes their (older) rows, so a backlog to slow endpoints delays only them.
      const slowRoom = this.slowConcurrency - this.inFlightSlow;
      const idleSlow = [...this.slowEndpoints.keys()].filter((id) => !this.queues.has(id));
      if (slowRoom > 0 && idleSlow.length > 0 && !this.loop.stopped) {
        for (const d of await this.store.claim(slowRoom, leaseMs, [], idleSlow)) this.enqueue(d);
      }
    } catch (err) {
      // The database is down or the node is stopping: the leases run out and a later claim retries.
      this.log?.warn({ err }, 'webhook delivery round failed');
    }
  }

  private enqueue(d: ClaimedDelivery): void {
    const queue = this.queues.get(d.webhookId);
    if (queue) {
      queue.items.push(d);
      this.count(queue.slow, 1);
      return;
    }
    const fresh: EndpointQueue = { items: [d], slow: this.slowEndpoints.has(d.webhookId) };
    this.count(fresh.slow, 1);
    this.queues.set(d.webhookId, fresh);
    // Room, and perhaps the next version to this endpoint: claim again.
    this.loop.track(this.send(d.webhookId).finally(() => this.kick()));
  }

  private count(slow: boolean, n: number): void {
    if (slow) this.inFlightSlow += n;
    else this.inFlight += n;
  }

  /** Moves an endpoint's queue between the lanes (its deliveries with it). */
  private setLane(webhookId: string, queue: EndpointQueue, slow: boolean): void {
    if (queue.slow === slow) return;
    this.count(queue.slow, -queue.items.length);
    queue.slow = slow;
    this.count(slow, queue.items.length);
    if (slow) {
      this.slowEndpoints.set(webhookId, true);
      this.quickEndpoints.delete(webhookId);
    } else this.slowEndpoints.delete(webhookId);
    // A fast slot came free: claim into it.
    if (slow) this.kick();
  }

  private async send(webhookId: string): Promise<void> {
    const queue = this.queues.get(webhookId)!;
    while (queue.items.length > 0) {
      const started = performance.now();
      // Not known quick: a probe, which gives its fast slot up early (while the slow lane has room
      // for it) rather than hold it up to slowAfterMs like a quick endpoint's attempt.
      const probe = !this.quickEndpoints.has(webhookId) && !queue.slow;
      const yieldLane = () => {
        if (queue.slow) return;
        if (
          !probe ||
          this.inFlightSlow < this.slowConcurrency + this.concurrency * PROBE_ROOM_PER_SLOT ||
          performance.now() - started >= this.slowAfterMs
        )
          this.setLane(webhookId, queue, true);
        else late = setTimeout(yieldLane, Math.max(1, this.slowAfterMs - (performance.now() - started)));
      };
      let late = setTimeout(yieldLane, probe ? this.probeAfterMs : this.slowAfterMs);
      try {
        await this.deliver(queue.items[0]!);
      } catch (err) {
        // Not settled: its lease runs out and it is claimed again.
        this.log?.warn({ err }, 'webhook delivery failed');
      } finally {
        clearTimeout(late);
      }
      const slow = performance.now() - started >= this.slowAfterMs;
      this.setLane(webhookId, queue, slow);
      if (!slow) this.quickEndpoints.set(webhookId, true);
      queue.items.shift();
      this.count(queue.slow, -1);
    }
    this.queues.delete(webhookId);
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    // A deadline warning for a position the match has moved past is not worth sending.
    if (d.of === 'match' && d.kind === 'deadline-near' && d.matchVersion !== d.version) {
      await this.store.settle(d, { ok: false, statusCode: null, error: null, nextAttemptAt: null, superseded: true });
      return;
    }
    if (d.webhook.disabledAt) {
      await this.store.settle(d, { ok: false, statusCode: null, error: 'the endpoint is disabled', nextAttemptAt: null });
      return;
    }
    const body = await this.bodyOf(d);
    const sentAt = new Date(this.now());
    const secrets = [d.webhook.secret];
    if (d.webhook.previousSecret && d.webhook.previousUntil && d.webhook.previousUntil > sentAt) secrets.push(d.webhook.previousSecret);
    const r = await postJson(
      d.webhook.url,
      body,
      signatureHeaders(d.id, sentAt, body, secrets),
      this.opts.allowPrivate,
      this.opts.timeoutMs,
    );
    const ok = r.error === null && r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    if (ok) {
      await this.store.settle(d, { ok: true, statusCode: r.statusCode, error: null, nextAttemptAt: null });
      return;
    }
    // Waits count from the failure: an attempt that timed out took the whole limit.
    const now = this.now();
    const error = r.error ?? `HTTP ${r.statusCode}`;
    const failingSince = d.webhook.failingSince ?? new Date(now);
    const givingUp = now - (d.firstAttemptAt?.getTime() ?? now) >= this.giveUpAfter;
    const disable = now - failingSince.getTime() >= this.giveUpAfter;
    // A redelivery the seat asked for is one attempt, not a new series of retries.
    const redelivery = d.redeliveries > 0;
    const wait = this.backoff[Math.min(d.attempts - 1, this.backoff.length - 1)] ?? this.backoff.at(-1)!;
    // ±20 % jitter, so endpoints that failed together do not retry together.
    const jittered = Math.round(wait * (0.8 + Math.random() * 0.4));
    await this.store.settle(d, {
      ok: false,
      statusCode: r.statusCode,
      error,
      nextAttemptAt: givingUp || disable || redelivery ? null : new Date(now + jittered),
      disableReason: disable ? `Every delivery has failed since ${failingSince.toISOString()} (last: ${error}).` : null,
    });
  }
}
