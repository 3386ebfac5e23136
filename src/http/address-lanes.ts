/**
 * Costly requests one at a time per address (lichess asks the same of its API clients): the rest
 * of one address's costly requests wait in a short line, costing nothing while they wait, and past
 * it are refused with 429 too-many-at-once (Retry-After). A work budget bounds how much one caller
 * spends in a minute; this bounds how much of the event loop it holds at any moment, so that four
 * exports or time-travel reads at once from one client delay a bystander's read as one would.
 */
import { LRUCache } from 'lru-cache';
import { problems, type ServiceError } from '../service/errors.js';

interface Lane {
  running: number;
  waiting: (() => void)[];
}

/** Seconds a refused caller is asked to wait. */
export const AT_ONCE_RETRY_AFTER_S = 1;

export class AddressLanes {
  /** For tests and metrics: the most requests of one address that ran at once, and how many were refused. */
  readonly stats = { peak: 0, refused: 0 };
  private readonly lanes: LRUCache<string, Lane>;

  /** `atOnce` 0: no lane (everything runs at once). */
  constructor(
    readonly atOnce: number,
    readonly queue: number,
    /** The refusal past the line (429 too-many-at-once). */
    private readonly refuse: (atOnce: number, queue: number) => ServiceError = (a, q) =>
      problems.tooManyAtOnce(a, q, AT_ONCE_RETRY_AFTER_S),
    keys = 10_000,
  ) {
    this.lanes = new LRUCache({ max: keys });
  }

  /** Waits for a turn of `address`'s lane; resolves with the release (call it once the work is done, whatever happened). */
  async enter(address: string): Promise<() => void> {
    if (this.atOnce <= 0) return () => {};
    let lane = this.lanes.get(address);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      this.lanes.set(address, lane);
    }
    if (lane.running >= this.atOnce) {
      if (lane.waiting.length >= this.queue) {
        this.stats.refused++;
        throw this.refuse(this.atOnce, this.queue);
      }
      // The slot passes straight from the request that leaves (running stays the same).
      await new Promise<void>((resolve) => lane!.waiting.push(resolve));
    } else lane.running++;
    this.stats.peak = Math.max(this.stats.peak, lane.running);
    let released = false;
    const l = lane;
    return () => {
      if (released) return;
      released = true;
      const next = l.waiting.shift();
      if (next) next();
      else l.running--;
    };
  }

  /** Requests of `address` running and waiting (tests). */
  of(address: string): { running: number; waiting: number } {
    const lane = this.lanes.get(address);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }
}
