/**
 * Follows one match's events for one caller: the stored ones after a seq, then each new one as it
 * is committed on any node (LiveUpdates: PostgreSQL LISTEN/NOTIFY), redacted for that caller, until
 * the game is over. The NDJSON and SSE streams and the GraphQL `matchEvents` subscription are
 * each a sink for it, so they send the same events in the same order.
 *
 * Every read checks the caller's token (MatchService.seatOf, or load), so a token that stops being
 * valid (a revoked player token) stops the follower with that error.
 *
 * Many followers of one match on one node (a live board with its spectators) are all told of the
 * same append at once. They share its reads: the match and the stored events after a seq are read
 * once per announced version, by whichever follower asks first, and each follower redacts the
 * events for its own caller. The followers with one token share its check too (a player token is
 * looked up once per version, however many subscriptions use it). A shared read is keyed by the announced version, so it always began
 * after that announcement and holds that version: nobody joins a read that started too early.
 * The keep-alive's catch-up and a lost-notification catch-up read alone, through MatchService.load
 * (which also ends a match whose clock ran out).
 */
import type { StoredEvent } from '../../persistence/types.js';
import { hashToken } from '../accounts/tokens.js';
import type { MatchEntry } from '../match/match-loader.js';
import type { EventDto, LoadedMatch, MatchService } from '../match/match-service.js';

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
  /**
   * Resolves when the transport has taken what it was given (backpressure): the follower reads its
   * next page of stored events only then, so a backlog is never read faster than it is sent.
   */
  ready?(): Promise<void>;
}

export interface FollowOptions {
  id: string;
  /** As for MatchService.load: undefined = no credential, null = malformed. */
  token: string | null | undefined;
  /** Start after this seq. */
  after: number;
  heartbeatMs?: number;
}

/** In-flight reads by key, per service (one per node): joined while they run, forgotten when done. */
const inflight = new WeakMap<MatchService, Map<string, Promise<unknown>>>();

function shared<T>(service: MatchService, key: string, read: () => Promise<T>): Promise<T> {
  let reads = inflight.get(service);
  if (!reads) inflight.set(service, (reads = new Map()));
  let p = reads.get(key) as Promise<T> | undefined;
  if (!p) {
    p = read().finally(() => reads.delete(key));
    reads.set(key, p);
  }
  return p;
}

export class EventFollower {
  private after: number;
  private running = false;
  private again = false;
  /** The highest version announced since the last read began; null: read alone (catch-up). */
  private announced: number | null = null;
  private alone = false;
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
    const unwatchAppends = await this.service.live.watch(this.opts.id, (version) => {
      if (version === undefined) this.alone = true;
      else this.announced = Math.max(this.announced ?? 0, version);
      void this.pump();
    });
    // The caller's token revoked on any node: read again now (the token check fails: invalid-token),
    // rather than at the next heartbeat.
    const { token } = this.opts;
    const unwatchToken = token
      ? await this.service.live.watchRevoked(hashToken(token), () => {
          this.alone = true;
          void this.pump();
        })
      : () => {};
    const unwatch = () => {
      unwatchAppends();
      unwatchToken();
    };
    if (this.stopped) {
      unwatch();
      return;
    }
    this.unwatch = unwatch;
    this.timer = setInterval(() => {
      this.sink.heartbeat?.();
      this.alone = true;
      void this.pump();
    }, this.opts.heartbeatMs ?? HEARTBEAT_MS);
    this.timer.unref();
    this.alone = true;
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

  /**
   * The match at `version` or later, read once for every follower told of that version; the token
   * checked for this one, its lookup (a player token's row) shared by the followers with that token.
   */
  private async loadShared(version: number): Promise<LoadedMatch> {
    const { id, token } = this.opts;
    const entry: MatchEntry = await shared(this.service, `match\0${id}\0${version}`, () => this.service.loader.current(id));
    const principal =
      typeof token === 'string'
        ? await shared(this.service, `principal\0${hashToken(token)}\0${id}\0${version}`, () => this.service.players.principal(token))
        : await this.service.players.principal(token);
    const seat = this.service.seatFor(entry.row, principal);
    return { ...entry, viewer: seat ?? 'spectator', seat, at: this.service.now() };
  }

  /** The events after `after`, for this caller: stored ones read once per (after, version), redacted here. */
  private async page(m: LoadedMatch, version: number | null): Promise<{ events: EventDto[]; next: number; hasMore: boolean }> {
    if (version === null) return this.service.events(m, this.after, PAGE);
    const { id } = this.opts;
    const after = this.after;
    const stored: StoredEvent[] = await shared(this.service, `events\0${id}\0${after}\0${version}`, () =>
      this.service.store.loadEvents(id, { afterSeq: after, limit: PAGE + 1 }),
    );
    const hasMore = stored.length > PAGE;
    const events: EventDto[] = [];
    for (const e of stored.slice(0, PAGE)) {
      const d = this.service.redact(m, e, m.viewer);
      if (d) events.push(d);
    }
    return { events, next: stored.slice(0, PAGE).at(-1)?.seq ?? after, hasMore };
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
        const version = this.alone ? null : this.announced;
        this.alone = false;
        this.announced = null;
        const m = version === null ? await this.service.load(this.opts.id, this.opts.token) : await this.loadShared(version);
        const page = await this.page(m, version);
        if (this.stopped) return;
        if (page.events.length > 0) this.sink.events(page.events);
        this.after = page.next;
        if (page.hasMore) {
          this.again = true;
          await this.sink.ready?.();
        } else if (this.service.outcome(m)) {
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
