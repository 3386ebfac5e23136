/**
 * Ends matches whose clock ran out, on every node: a timer calls `sweep` (expired matches by the
 * indexed deadline, each ended through the conditional append, so two nodes sweeping the same
 * match write one ending). Reads and moves also end an expired match themselves, so the sweeper
 * only decides how soon a match nobody looks at is over.
 */
export interface Sweepable {
  sweep(limit?: number): Promise<number>;
  readonly sweepErrors: readonly { id: string; error: string }[];
}

export interface SweeperLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export class Sweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly target: Sweepable,
    private readonly intervalMs: number,
    private readonly log?: SweeperLog,
  ) {}

  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** One pass now (never two at once on this node). */
  tick(): Promise<void> {
    this.running ??= (async () => {
      try {
        const ended = await this.target.sweep();
        if (ended > 0) this.log?.info({ ended }, 'ended matches whose time ran out');
        for (const e of this.target.sweepErrors) this.log?.warn(e, 'could not end an expired match');
      } catch (err) {
        // A database outage must not stop the timer: the next tick tries again.
        this.log?.warn({ err }, 'deadline sweep failed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
