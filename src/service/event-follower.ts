/**
 * Follows one match's events for one caller: the stored ones after a seq, then each new one as it
 * is committed on any node (LiveUpdates: PostgreSQL LISTEN/NOTIFY), redacted for that caller, until
 * the game is over. The NDJSON and SSE streams and the GraphQL `matchEvents` subscription are
 * each a sink for it, so they send the same events in the same order.
 *
 * Every read goes through MatchService.load with the caller's token, so a token that stops being
 * valid (a revoked player token) stops the follower with that error.
 */
import type { EventDto, MatchService } from './match-service.js';

/** Keep-alive interval of the live streams; each beat also catches up, in case a notification was lost (they are best-effort). */
export const HEARTBEAT_MS = 15_000;
const PAGE = 500;

export interface FollowSink {
  /** The next events, in seq order, each once (redacted: some seqs may be missing). */
  events(events: EventDto[]): void;
  /** The game is over and every event has been handed over; the follower has stopped. */
  finished(): void;
  /** Reading failed (database down, token no longer valid); the follower has stopped. */
  failed(err: unknown): void;
  /** Every HEARTBEAT_MS while following (a keep-alive for the transport). */
  heartbeat?(): void;
}

export interface FollowOptions {
  id: string;
  /** As for MatchService.load: undefined = no credential, null = malformed. */
  token: string | null | undefined;
  /** Start after this seq. */
  after: number;
  heartbeatMs?: number;
}

export class EventFollower {
  private after: number;
  private running = false;
  private again = false;
  private stopped = false;
  private unwatch: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly service: MatchService,
    private readonly opts: FollowOptions,
    private readonly sink: FollowSink,
  ) {
    this.after = opts.after;
  }

  /** The seq of the last event handed over (or skipped as invisible to this caller). */
  get position(): number {
    return this.after;
  }

  /** Starts watching and sends what is stored; resolves once watching (nothing missed from then on). */
  async start(): Promise<void> {
    const unwatch = await this.service.live.watch(this.opts.id, () => void this.pump());
    if (this.stopped) {
      unwatch();
      return;
    }
    this.unwatch = unwatch;
    this.timer = setInterval(() => {
      this.sink.heartbeat?.();
      void this.pump();
    }, this.opts.heartbeatMs ?? HEARTBEAT_MS);
    this.timer.unref();
    void this.pump();
  }

  /** Stops watching; nothing more reaches the sink. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unwatch?.();
    this.unwatch = null;
  }

  /** Hands over everything after `after`; serialised, so events never interleave or repeat. */
  private async pump(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        const m = await this.service.load(this.opts.id, this.opts.token);
        const page = await this.service.events(m, this.after, PAGE);
        if (this.stopped) return;
        if (page.events.length > 0) this.sink.events(page.events);
        this.after = page.next;
        if (page.hasMore) this.again = true;
        else if (this.service.outcome(m)) {
          this.stop();
          this.sink.finished();
        }
      } while (this.again && !this.stopped);
    } catch (err) {
      if (this.stopped) return;
      this.stop();
      this.sink.failed(err);
    } finally {
      this.running = false;
    }
  }
}
