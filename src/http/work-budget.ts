/**
 * Work budgets: how much one caller may make the server do, in work units (one unit ≈ one
 * millisecond of server CPU on the reference machine; ./work-costs.ts says what each operation
 * costs, and `npm run bench:costs` measures it). Every client (a verified token, else its address)
 * and every address has a bucket that refills at its budget's rate and holds a burst of a few
 * seconds of it (WORK_BURST_SECONDS): a fresh caller cannot spend a whole minute at once. A
 * costly operation states its cost before it runs (the events it will replay, the rows it will
 * read, the pixels it will draw): it runs when each of its buckets holds that much, and takes it
 * from all of them; else it is refused, having changed nothing, with 429 rate-limited and the
 * seconds until the buckets hold enough. An operation costing more than a whole bucket (page caps
 * keep that rare) runs when its buckets are full and leaves them in debt.
 *
 * @fastify/rate-limit counts requests, each as one: it has no weights, so this small token bucket
 * does the weighing. Buckets live in each node's memory, the least recently used forgotten first.
 */
import { LRUCache } from 'lru-cache';

interface Bucket {
  level: number;
  /** When `level` was measured (ms). */
  at: number;
}

export class WorkBuckets {
  private readonly buckets: LRUCache<string, Bucket>;
  /** Units a bucket holds at most (a full one is what a fresh caller may spend at once). */
  readonly capacity: number;

  constructor(
    /** Units a bucket refills per minute; 0: no limit. */
    readonly perMinute: number,
    /** Seconds of refill a bucket holds: its burst (60: a minute's budget at once). */
    burstSeconds = 60,
    keys = 10_000,
  ) {
    this.buckets = new LRUCache({ max: keys });
    this.capacity = Math.max(1, (perMinute * Math.min(60, Math.max(1, burstSeconds))) / 60);
  }

  private levelOf(key: string, t: number): number {
    const b = this.buckets.get(key);
    if (!b) return this.capacity;
    return Math.min(this.capacity, b.level + ((t - b.at) * this.perMinute) / 60_000);
  }

  /** How many units `key` could spend now (for tests and metrics). */
  level(key: string, t = Date.now()): number {
    return this.perMinute <= 0 ? Infinity : this.levelOf(key, t);
  }

  /** 0 when `key`'s bucket holds `units` at `t`, else the whole seconds until it will. */
  wait(key: string, units: number, t: number): number {
    if (this.perMinute <= 0 || units <= 0) return 0;
    const short = Math.min(units, this.capacity) - this.levelOf(key, t);
    return short > 0 ? Math.max(1, Math.ceil((short * 60) / this.perMinute)) : 0;
  }

  /** Takes `units` from `key`'s bucket (after wait() said 0). */
  spend(key: string, units: number, t: number): void {
    if (this.perMinute <= 0 || units <= 0) return;
    this.buckets.set(key, { level: this.levelOf(key, t) - units, at: t });
  }
}

/**
 * Takes `units` from each (buckets, key) pair, or from none: 0 when taken, else the seconds to
 * wait until every one of them holds enough.
 */
export function takeWork(parts: readonly (readonly [WorkBuckets, string])[], units: number, t: number): number {
  const wait = Math.max(0, ...parts.map(([b, k]) => b.wait(k, units, t)));
  if (wait > 0) return wait;
  for (const [b, k] of parts) b.spend(k, units, t);
  return 0;
}
