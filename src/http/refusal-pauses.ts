/**
 * Refusals answered after a pause. A limit's refusal (429 over a budget or a line, 413, a GraphQL
 * document refused by its cost) is cheap, but a client that asks again the moment it is refused
 * makes thousands of them a second, and on two cores that alone slows everyone (measured: 9,000
 * refused GraphQL documents in 6 s from four loops, a bystander's read p99 4.5×). So past a few
 * refusals a second, an address gets each further one after REFUSAL_PAUSE_MS: a closed-loop
 * flood of N connections then costs N refusals a pause. The pause is never longer than the
 * refusal's own Retry-After (at least a second), so a client that honours it loses nothing; at
 * most MAX_HELD answers of one address wait at once (more are answered at once: holding costs a
 * timer, but not without bound).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkBuckets } from './work-budget.js';

/** Refusals a second one address gets at once, before the pause applies. */
export const FREE_REFUSALS_PER_SECOND = 5;
/** Paused answers one address may have waiting at once. */
export const MAX_HELD = 64;

export class RefusalPauses {
  /** For tests and operators: refusals answered after a pause, and those answered at once because too many were held. */
  readonly stats = { paused: 0, heldPast: 0 };
  private readonly free = new WorkBuckets(FREE_REFUSALS_PER_SECOND * 60, 1);
  private readonly held = new Map<string, number>();

  /** `pauseMs` 0: no pause. */
  constructor(readonly pauseMs: number) {}

  /** Resolves when the refusal to `address` may be sent: at once, or after the pause. */
  async hold(address: string, retryAfterS: number | null, now = Date.now()): Promise<void> {
    if (this.pauseMs <= 0) return;
    if (this.free.wait(address, 1, now) === 0) {
      this.free.spend(address, 1, now);
      return;
    }
    const held = this.held.get(address) ?? 0;
    if (held >= MAX_HELD) {
      this.stats.heldPast++;
      return;
    }
    const ms = retryAfterS !== null && retryAfterS > 0 ? Math.min(this.pauseMs, retryAfterS * 1000) : this.pauseMs;
    this.held.set(address, held + 1);
    this.stats.paused++;
    try {
      await sleep(ms, undefined, { ref: false });
    } finally {
      const left = (this.held.get(address) ?? 1) - 1;
      if (left > 0) this.held.set(address, left);
      else this.held.delete(address);
    }
  }
}
