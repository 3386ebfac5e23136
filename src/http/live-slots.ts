/**
 * How many of one kind of long-lived thing (live streams, WebSocket connections) each address holds
 * open on this node, and a cap on it: one more is refused with 429 too-many-streams until one is
 * closed. Each open one holds memory and, for streams, reads; without a cap one address could hold
 * thousands.
 */
import { problems } from '../service/errors.js';

export class LiveSlots {
  private readonly held = new Map<string, number>();

  /** `max` 0: no cap (still counted). */
  constructor(
    readonly max: number,
    private readonly what: string,
  ) {}

  /** Takes one slot for `address`, or throws too-many-streams; pair with give(). */
  take(address: string): void {
    const n = this.held.get(address) ?? 0;
    if (this.max > 0 && n >= this.max) {
      throw problems.tooManyStreams(`At most ${this.max} ${this.what} open at once from one address: close one first.`);
    }
    this.held.set(address, n + 1);
  }

  give(address: string): void {
    const n = (this.held.get(address) ?? 0) - 1;
    if (n > 0) this.held.set(address, n);
    else this.held.delete(address);
  }

  /** How many `address` holds now. */
  count(address: string): number {
    return this.held.get(address) ?? 0;
  }
}
