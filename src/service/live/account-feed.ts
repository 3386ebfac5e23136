/**
 * One feed per account (GET /v1/me/events, GraphQL `myEvents`): what happens around a registered
 * player's matches, challenges and seeks, on any node.
 *
 * The entries are rows the database writes itself (triggers of migration account_feed), in the
 * transaction of the change that causes them; this module only reads them. One hub per node reads
 * the new entries of every player connected to it in one query after each notification (an
 * append, or a challenge, seek or match change announced by any node), so 1,000 connected players
 * cost one query per batch of notifications, not 1,000. A connection starts at the hub's current
 * position: what came before it (a resume after Last-Event-ID) is read for that player alone, up
 * to exactly that position, so nothing is sent twice or skipped.
 */
import type { FeedRow, FeedStore, MatchStore, PlayerRow } from '../../persistence/types.js';
import type { LiveUpdates } from './live.js';
import type { ChallengeView, Challenges } from '../lobby/challenges.js';
import type { OwnSeekView, Seeks } from '../lobby/seeks.js';
import type { Players } from '../accounts/players.js';
import type { Seat } from '../../core/ruleset.js';
import { problems } from '../errors.js';
import { committedAt, comparePositions, parsePosition } from '../../persistence/feed-store.js';
import { FEED_KINDS, type FeedKind } from '../../contract/kinds.js';
import { randomBytes } from 'node:crypto';
import { hashToken } from '../accounts/tokens.js';

// In a module of their own: the request schemas (src/contract/) name them too (account webhooks).
export { FEED_KINDS, type FeedKind };

/** One entry as clients get it: `id` is its position (SSE id; send it back as Last-Event-ID). */
export interface FeedEntry {
  id: string;
  type: FeedKind;
  at: string;
  data: Record<string, unknown>;
}

/** A match of the player's, as the snapshot lists it. */
export interface FeedMatch {
  matchId: string;
  game: string;
  seat: Seat;
  status: 'waiting' | 'active';
  rated: boolean;
  timeControl: string;
  toMove: Seat | null;
  /** Whether the match waits for this player's decision. */
  yourTurn: boolean;
  version: number;
  deadline: string | null;
  opponent: string | null;
}

/** What a fresh connection gets first: the state the entries after it change. */
export interface FeedSnapshot {
  challenges: { in: ChallengeView[]; out: ChallengeView[] };
  seeks: OwnSeekView[];
  matches: FeedMatch[];
}

export type FeedMessage = { type: 'snapshot'; data: FeedSnapshot } | FeedEntry;

export interface FeedSink {
  /** In feed order, never twice. */
  send(messages: FeedMessage[]): void;
  /** The feed cannot go on (the token was revoked): the connection ends with this error. */
  failed(err: unknown): void;
}

export interface FeedSettings {
  /** Feed connections one player may hold open on one node (0: no cap); one more is too-many-feeds. */
  perPlayer: number;
  /** How often an idle feed sends a keep-alive (a blank line, an SSE comment). */
  keepAliveMs: number;
}

export const DEFAULT_FEED_SETTINGS: FeedSettings = { perPlayer: 5, keepAliveMs: 15_000 };

/** How long a feed ticket (POST /v1/me/feed/tickets) may be used, once. */
export const FEED_TICKET_TTL_MS = 60_000;
const TICKET_PREFIX = 'evt_';

const WINDOW = 500;
const PAGE = 500;
/** Entries committed above the horizon (an older writer still running) are looked for again this soon. */
const HELD_RETRY_MS = 20;
/** A lost notification costs at most this much delay. */
const POLL_MS = 2_000;
const SNAPSHOT_LIMIT = 100;

export function feedEntry(r: FeedRow): FeedEntry {
  return { id: r.position, type: r.kind as FeedKind, at: r.createdAt.toISOString(), data: r.data };
}

interface Listener {
  deliver(rows: FeedRow[]): void;
}

/** The node's one reader of new entries, for every connected player. */
export class FeedHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Subscribed, not yet part of a read: the next read starts delivering to them, from where it starts. */
  private readonly joining: { playerId: string; l: Listener; from: (position: string) => void }[] = [];
  private position: string | null = null;
  private started: Promise<void> | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private heldDelay = HELD_RETRY_MS;
  private stopWatching: (() => void) | null = null;
  /** Where errors of a read are logged (the app sets its logger). */
  log: { warn(obj: object, msg: string): void } | undefined;

  constructor(
    private readonly store: FeedStore,
    private readonly live: LiveUpdates,
  ) {}

  /** How many connections listen on this node. */
  get size(): number {
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      this.position = await this.store.horizon();
      this.stopWatching = await this.live.watchFeed(() => this.kick());
      this.poll = setInterval(() => this.kick(), POLL_MS);
      this.poll.unref();
    })().catch((err: unknown) => {
      this.started = null;
      throw err;
    });
    return this.started;
  }

  /**
   * Starts delivering `playerId`'s new entries to `l`. Resolves with the position from which the
   * hub delivers: every entry after it reaches `l`, none before it.
   */
  async subscribe(playerId: string, l: Listener): Promise<{ from: string; unsubscribe: () => void }> {
    await this.start();
    // The next read to start takes it in and says where it starts: from there on the hub delivers
    // to it (a read already running started before it, and never delivers to it).
    const from = new Promise<string>((resolve) => this.joining.push({ playerId, l, from: resolve }));
    this.kick();
    return {
      from: await from,
      unsubscribe: () => {
        const s = this.listeners.get(playerId);
        if (!s?.delete(l)) return;
        if (s.size === 0) this.listeners.delete(playerId);
      },
    };
  }

  /** Read soon (coalesced: one read at a time, one more if asked meanwhile). */
  kick(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    if ((this.listeners.size === 0 && this.joining.length === 0) || this.position === null) return;
    this.reading = this.read().finally(() => {
      this.reading = null;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async read(): Promise<void> {
    if (this.listeners.size === 0) {
      // Idle until now: start from the present, not from where the last listener left.
      try {
        this.position = await this.store.horizon();
      } catch (err) {
        this.log?.warn({ err }, 'account feed: read failed; retrying');
        this.later(1_000);
        return;
      }
    }
    for (const j of this.joining.splice(0)) {
      let set = this.listeners.get(j.playerId);
      if (!set) this.listeners.set(j.playerId, (set = new Set()));
      set.add(j.l);
      j.from(this.position!);
    }
    const players = [...this.listeners.keys()];
    if (players.length === 0) return;
    let w;
    try {
      w = await this.store.window(this.position!, players, WINDOW);
    } catch (err) {
      this.log?.warn({ err }, 'account feed: read failed; retrying');
      this.later(1_000);
      return;
    }
    this.position = w.next;
    const byPlayer = new Map<string, FeedRow[]>();
    for (const r of w.rows) {
      const list = byPlayer.get(r.playerId);
      if (list) list.push(r);
      else byPlayer.set(r.playerId, [r]);
    }
    for (const [player, rows] of byPlayer) for (const l of this.listeners.get(player) ?? []) l.deliver(rows);
    if (!w.more) {
      this.heldDelay = HELD_RETRY_MS;
      return;
    }
    if (w.rows.length >= WINDOW) this.later(0);
    else {
      // Entries above the horizon wait for an older writer to end: look again, less often while it runs.
      this.later(this.heldDelay);
      this.heldDelay = Math.min(this.heldDelay * 2, 1_000);
    }
  }

  private later(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, ms);
    this.timer.unref?.();
  }

  async close(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    if (this.timer) clearTimeout(this.timer);
    this.poll = this.timer = null;
    this.stopWatching?.();
    this.stopWatching = null;
    this.started = null;
    this.listeners.clear();
    await this.reading?.catch(() => undefined);
  }
}

/** What the feeds use of the match service (which passes itself). */
export interface FeedDeps {
  readonly store: Pick<MatchStore, 'feed' | 'listMatches'>;
  readonly live: LiveUpdates;
  readonly players: Pick<Players, 'player' | 'playerOfHash'>;
  /** The service's clock (ms): ticket expiry. */
  readonly now: () => number;
  readonly challenges: Pick<Challenges, 'list'>;
  readonly seeks: Pick<Seeks, 'ofPlayer' | 'renewLive' | 'limits'>;
}

/** Opens feeds: the credential, the per-player cap, the snapshot or the resume, then the hub. */
export class AccountFeeds {
  readonly hub: FeedHub;
  private readonly open = new Map<string, number>();

  private leaseTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly service: FeedDeps,
    private readonly settings: FeedSettings,
  ) {
    this.hub = new FeedHub(service.store.feed, service.live);
  }

  /** How often an idle feed sends a keep-alive. */
  get keepAliveMs(): number {
    return this.settings.keepAliveMs;
  }

  /** Whether the player has a feed open on this node. */
  connected(playerId: string): boolean {
    return this.open.has(playerId);
  }

  /**
   * Renews the live seeks of every player with a feed open here (their lease runs out a lease
   * after the last renewal: a closed feed, or a killed node, lets them expire).
   */
  async renewLeases(): Promise<number> {
    return this.service.seeks.renewLive([...this.open.keys()]);
  }

  private renewEvery(): void {
    if (this.leaseTimer || this.open.size === 0) return;
    this.leaseTimer = setInterval(
      () => {
        if (this.open.size === 0) {
          clearInterval(this.leaseTimer!);
          this.leaseTimer = null;
          return;
        }
        this.renewLeases().catch((err: unknown) => this.hub.log?.warn({ err }, 'live seek renewal failed'));
      },
      Math.max(1_000, Math.floor(this.service.seeks.limits.liveLeaseMs / 3)),
    );
    this.leaseTimer.unref();
  }

  close(): void {
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.leaseTimer = null;
  }

  /** The player a feed is for (a player token with match:read), checked before a stream starts. */
  async player(token: string | null | undefined): Promise<PlayerRow> {
    return this.service.players.player(token, 'match:read');
  }

  /**
   * A ticket for one feed connection (GET /v1/me/events?ticket=, for a browser's EventSource,
   * which cannot send Authorization): it stands for `token` (its player and scopes), once, within
   * FEED_TICKET_TTL_MS. Only its hash is stored, in the database: any node takes it.
   */
  async mintTicket(token: string | null | undefined): Promise<{ ticket: string; expiresAt: string }> {
    await this.player(token);
    const ticket = TICKET_PREFIX + randomBytes(32).toString('base64url');
    const now = this.service.now();
    const expiresAt = new Date(now + FEED_TICKET_TTL_MS);
    await this.service.store.feed.addTicket(hashToken(ticket), hashToken(token!), expiresAt, new Date(now));
    return { ticket, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Uses a ticket: the player and the minting token's hash (the feed ends when that token is
   * revoked). 401 invalid-ticket when it is unknown, used or expired; invalid-token when its
   * token was revoked meanwhile.
   */
  async redeemTicket(ticket: string): Promise<{ me: PlayerRow; tokenHash: string }> {
    const tokenHash = ticket.startsWith(TICKET_PREFIX)
      ? await this.service.store.feed.useTicket(hashToken(ticket), new Date(this.service.now()))
      : null;
    if (!tokenHash) throw problems.invalidTicket();
    return { me: await this.service.players.playerOfHash(tokenHash, 'match:read'), tokenHash };
  }

  /**
   * Checks what a connection asks for (400 invalid-cursor for a position that is not one of this
   * player's entries; 429 too-many-feeds over the cap) and takes its slot: pair with the returned
   * release, or let `connect` own it.
   */
  async admit(me: PlayerRow, resumeAfter: string | undefined): Promise<() => void> {
    // Checked before any query: a number past the columns' types is no entry (not SQLSTATE 22003).
    if (resumeAfter !== undefined && (!parsePosition(resumeAfter) || !(await this.service.store.feed.exists(me.id, resumeAfter)))) {
      throw problems.invalidCursor('after (or Last-Event-ID) must be the id of one of your feed entries, as the feed sent it.');
    }
    const n = this.open.get(me.id) ?? 0;
    if (this.settings.perPlayer > 0 && n >= this.settings.perPlayer) throw problems.tooManyFeeds(this.settings.perPlayer);
    this.open.set(me.id, n + 1);
    this.renewEvery();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(me.id) ?? 1) - 1;
      if (left > 0) this.open.set(me.id, left);
      else this.open.delete(me.id);
    };
  }

  /**
   * Sends `me`'s feed to `sink` until the returned stop is called: first the snapshot (fresh) or
   * the entries after `resumeAfter`, then every new entry as it is committed on any node.
   */
  async connect(me: PlayerRow, tokenHash: string | null, resumeAfter: string | undefined, sink: FeedSink): Promise<() => void> {
    let ready = false;
    let stopped = false;
    const early: FeedRow[] = [];
    // The last position sent: the hub may start behind a resume point (it lags by a read), so
    // what it delivers is filtered against it: nothing twice.
    let last: string | null = resumeAfter ?? null;
    // A fresh connection's snapshot shows every entry committed before `seen`: the hub can still
    // deliver some of them (its start may lie below them while a writer elsewhere runs), and they
    // are not sent again.
    let seen: string | null = null;
    const send = (rows: FeedRow[]) => {
      const fresh = rows.filter(
        (r) => (last === null || comparePositions(r.position, last) > 0) && (seen === null || !committedAt(seen, r.position)),
      );
      if (fresh.length === 0) return;
      last = fresh[fresh.length - 1]!.position;
      sink.send(fresh.map(feedEntry));
    };
    const sub = await this.hub.subscribe(me.id, {
      deliver: (rows) => {
        if (stopped) return;
        if (!ready) early.push(...rows);
        else send(rows);
      },
    });
    const stopRevoked = tokenHash ? await this.service.live.watchRevoked(tokenHash, () => sink.failed(problems.invalidToken())) : () => {};
    const stop = () => {
      stopped = true;
      sub.unsubscribe();
      stopRevoked();
    };
    try {
      if (resumeAfter === undefined) {
        seen = await this.service.store.feed.now();
        sink.send([{ type: 'snapshot', data: await this.snapshot(me) }]);
      } else {
        // Everything between the resume point and where the hub took over, page by page.
        let after = resumeAfter;
        for (;;) {
          const rows = await this.service.store.feed.between(me.id, after, sub.from, PAGE);
          send(rows);
          if (rows.length < PAGE) break;
          after = rows[rows.length - 1]!.position;
        }
      }
    } catch (err) {
      stop();
      throw err;
    }
    ready = true;
    send(early.splice(0));
    return stop;
  }

  /** The state a fresh connection starts from: open challenges both ways, own seeks, running matches. */
  async snapshot(me: PlayerRow): Promise<FeedSnapshot> {
    const c = this.service.challenges;
    const [incoming, outgoing, seeks, active, waiting] = await Promise.all([
      c.list(me, 'in', { status: 'open', limit: SNAPSHOT_LIMIT }),
      c.list(me, 'out', { status: 'open', limit: SNAPSHOT_LIMIT }),
      this.service.seeks.ofPlayer(me.id),
      this.service.store.listMatches({ playerId: me.id, status: 'active' }, { cursor: null, limit: SNAPSHOT_LIMIT }),
      this.service.store.listMatches({ playerId: me.id, status: 'waiting' }, { cursor: null, limit: SNAPSHOT_LIMIT }),
    ]);
    const matches: FeedMatch[] = [];
    for (const m of [...active.matches, ...waiting.matches]) {
      const mine = m.seats.find((s) => s.playerId === me.id);
      if (!mine) continue;
      const other = m.seats.find((s) => s.seat !== mine.seat);
      matches.push({
        matchId: m.id,
        game: m.game,
        seat: mine.seat,
        status: m.status as 'waiting' | 'active',
        rated: m.rated,
        timeControl: m.timeControl,
        toMove: m.toMove,
        yourTurn: m.status === 'active' && m.toMove === mine.seat,
        version: m.version,
        deadline: m.deadline?.toISOString() ?? null,
        opponent: other?.handle ?? null,
      });
    }
    return { challenges: { in: incoming.challenges, out: outgoing.challenges }, seeks: seeks.filter((s) => s.status === 'open'), matches };
  }
}
