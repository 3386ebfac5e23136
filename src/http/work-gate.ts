/**
 * Expensive work (rendering a PNG, building an export) a few at a time per node: more callers wait
 * in a short line, and past it are refused with 503 server-busy (Retry-After). A flood of such
 * reads, from any number of addresses, then holds at most `atOnce` pieces of work on this node's
 * CPU, and the event loop stays free between them for health probes and moves.
 */
import { problems } from '../service/errors.js';

/** Seconds a refused caller is asked to wait. */
export const BUSY_RETRY_AFTER_S = 1;

export class WorkGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** For tests and metrics: how many ran at once at most, and how many were refused. */
  readonly stats = { peak: 0, shed: 0 };

  /** `atOnce` 0: no gate (everything runs at once). */
  constructor(
    readonly atOnce: number,
    private readonly queue: number,
  ) {}

  /**
   * Runs `work` when a slot is free. `wait: true` (a stream already under way) never refuses; else a
   * full line is a 503 server-busy.
   */
  async run<T>(work: () => Promise<T> | T, opts: { wait?: boolean } = {}): Promise<T> {
    if (this.atOnce <= 0) return work();
    if (this.running >= this.atOnce) {
      if (!opts.wait && this.waiting.length >= this.queue) {
        this.stats.shed++;
        throw problems.serverBusy(BUSY_RETRY_AFTER_S);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    this.stats.peak = Math.max(this.stats.peak, this.running);
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line (running stays the same), else it is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
