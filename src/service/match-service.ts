/**
 * The match service: what the REST routes and the GraphQL resolvers call, so the two APIs share
 * one set of semantics and errors. It speaks the games' contract (src/core/ruleset.ts) through
 * the registry, and returns domain results and domain errors (./errors.ts); each API maps them
 * to its own wire format. The work is in small modules: lobby (create, join), reads (views,
 * legal actions, events), moves (the action path), history (lists).
 */
import type { Seat } from '../core/ruleset.js';
import type { MatchRow, MatchStore, Scope } from '../persistence/types.js';
import { KnownCredentials } from './credentials.js';
import { problems } from './errors.js';
import { listMatches, myMatches, summary, type MyMatchesQuery } from './history.js';
import { LiveUpdates } from './live.js';
import { createMatch, joinMatch } from './lobby.js';
import { MatchLoader } from './match-loader.js';
import { expire, submitAction, type MoveOptions } from './moves.js';
import { flagged } from '../core/clock.js';
import { eventPage, legalActions, matchView, outcomeOf, redact } from './reads.js';
import { hashToken, newSeatToken } from './tokens.js';
import { Players, requireScope, seatOfPrincipal, type Principal } from './players.js';
import { DEFAULT_RATED_MIN_DECISIONS, Ratings } from './ratings.js';
import { WebhookEndpoints } from './webhooks/endpoints.js';
import { DEFAULT_WEBHOOK_LIMITS, type WebhookLimits } from './webhooks/limits.js';
import { FinishedExports } from './export.js';
import type {
  ActionOutcome,
  CreateMatchInput,
  CreateMatchResult,
  EventDto,
  JoinInput,
  JoinResult,
  LegalActionDto,
  LoadedMatch,
  MatchListFilterInput,
  MatchOutcome,
  MatchPageDto,
  MatchView,
  Viewer,
} from './types.js';

export type * from './types.js';

export interface MatchServiceOptions {
  store: MatchStore;
  cacheSize?: number;
  /** Epoch ms: what every clock reads (tests pass their own). */
  now?: () => number;
  /** Webhook URLs may point at private and loopback addresses (development, tests). Default false. */
  webhooksAllowPrivate?: boolean;
  /** Endpoints per seat and redeliveries per delivery (defaults: 5 and 3). */
  webhookLimits?: Partial<WebhookLimits>;
  /** Decisions each seat needs before a rated match moves ratings (default DEFAULT_RATED_MIN_DECISIONS). */
  ratedMinDecisions?: number;
}

const DEFAULT_CACHE_SIZE = 500;

export class MatchService {
  readonly store: MatchStore;
  readonly loader: MatchLoader;
  /** Committed appends from any node, for live streams. */
  readonly live: LiveUpdates;
  /** Token hashes verified on this node (the rate limiter keys on them). */
  readonly credentials = new KnownCredentials();
  readonly now: () => number;
  readonly webhooksAllowPrivate: boolean;
  readonly ratedMinDecisions: number;
  readonly webhooks: WebhookEndpoints;
  readonly players: Players;
  readonly ratings: Ratings;
  private readonly exports = new FinishedExports();
  /** The last sweep's per-match failures (the sweeper logs them). */
  sweepErrors: { id: string; error: string }[] = [];

  constructor(opts: MatchServiceOptions) {
    this.store = opts.store;
    this.now = opts.now ?? Date.now;
    this.webhooksAllowPrivate = opts.webhooksAllowPrivate ?? false;
    this.ratedMinDecisions = opts.ratedMinDecisions ?? DEFAULT_RATED_MIN_DECISIONS;
    this.loader = new MatchLoader(this.store, opts.cacheSize ?? DEFAULT_CACHE_SIZE);
    this.live = new LiveUpdates(this.store);
    this.webhooks = new WebhookEndpoints(this.store, this.webhooksAllowPrivate, { ...DEFAULT_WEBHOOK_LIMITS, ...opts.webhookLimits });
    this.players = new Players(this.store.players, this.credentials, (hash) => this.store.announceRevoked(hash));
    this.ratings = new Ratings(this.store.players, this.store.ratings);
  }

  /** Loader counters (replays, cache hits, catch-ups) for tests and metrics. */
  get stats() {
    return this.loader.stats;
  }

  /** With a player token (match:create) the creator's seat is that player's, its handle verified. */
  async createMatch(input: CreateMatchInput, token?: string | null): Promise<CreateMatchResult> {
    return createMatch(this, input, await this.players.principal(token));
  }

  async joinMatch(id: string, input: JoinInput, token?: string | null): Promise<JoinResult> {
    return joinMatch(this, id, input, await this.players.principal(token));
  }

  /**
   * The seat a credential holds in this match: a seat token's seat, or the seat of a player token's
   * player (null: a spectator, which a player without a seat here is too). A bad token is an error;
   * a player token needs `scope`.
   */
  async seatOf(row: MatchRow, token: string | null | undefined, scope: Scope = 'match:read'): Promise<Seat | null> {
    return this.seatFor(row, await this.players.principal(token), scope);
  }

  /** seatOf for a principal already resolved from its token (the event followers share that lookup). */
  seatFor(row: MatchRow, p: Principal, scope: Scope = 'match:read'): Seat | null {
    requireScope(p, scope);
    const seat = seatOfPrincipal(row, p);
    if (p.kind === 'seat') this.credentials.remember(hashToken(p.token));
    return seat;
  }

  /**
   * A new token for the seat a seat token holds, so that a leaked one can be cut off: the old token
   * stops working on every node at once, for reads and moves (the seat epoch each cached copy of
   * the match checks with its version) and for its open streams and subscriptions (the revocation
   * signal). A player's tokens are revoked under /v1/me/tokens instead.
   */
  async replaceSeatToken(id: string, token: string | null | undefined): Promise<{ seat: Seat; token: string }> {
    const p = await this.players.principal(token);
    if (p.kind === 'anonymous') throw problems.missingToken();
    if (p.kind !== 'seat') throw problems.seatTokenRequired();
    const entry = await this.loader.current(id);
    const seat = this.seatFor(entry.row, p)!; // a seat token of another match: invalid-token
    const oldHash = hashToken(p.token);
    const fresh = newSeatToken();
    // Decided by the database: of two replacements with the same old token, one wins.
    if (!(await this.store.replaceSeatToken(id, seat, oldHash, hashToken(fresh)))) throw problems.invalidToken();
    this.credentials.remember(hashToken(fresh));
    // Best-effort, as for player tokens: the streams' heartbeat check backs it up.
    await this.store.announceRevoked(oldHash).catch(() => undefined);
    return { seat, token: fresh };
  }

  /** Loads a match for one caller. `token`: undefined = no Authorization header, null = malformed. */
  async load(id: string, token: string | null | undefined, scope: Scope = 'match:read'): Promise<LoadedMatch> {
    let entry = await this.loader.current(id);
    const at = this.now();
    // A clock never shows less than zero: a match whose time ran out is ended before it is read.
    const ended = await expire(this, entry, at);
    if (ended) entry = ended;
    else if (entry.clock?.running && !entry.end && flagged(entry.clock, at)) entry = await this.loader.current(id);
    const seat = await this.seatOf(entry.row, token, scope);
    return { ...entry, viewer: seat ?? 'spectator', seat, at };
  }

  /**
   * The match as it was right after event `seq`, for one caller (time travel). Redacted exactly as
   * the live view was then: the caller's seat sees what it could see at that moment, no more.
   */
  async loadAt(id: string, token: string | null | undefined, seq: number): Promise<LoadedMatch> {
    const past = await this.loader.at(id, seq);
    if (!past) {
      const version = (await this.store.getVersion(id)) ?? 0;
      throw problems.validation(`at: the match has events 1 to ${version}; there is no event ${seq}.`, [`at: must be 1..${version}`]);
    }
    // The caller is identified by the seats as they are now (a token issued at the join still names its seat).
    const current = await this.store.getMatch(id);
    const seat = await this.seatOf(current ?? past.entry.row, token);
    return { ...past.entry, viewer: seat ?? 'spectator', seat, at: past.at };
  }

  /**
   * Ends every match whose clock ran out (at most `limit`), through the same conditional append
   * as a move: on any number of nodes, each timeout is written once. Returns how many it ended.
   */
  async sweep(limit = 100): Promise<number> {
    const at = this.now();
    let ended = 0;
    this.sweepErrors = [];
    for (const { id } of await this.store.expiredMatches(new Date(at), limit)) {
      try {
        if (await expire(this, await this.loader.current(id), at)) ended++;
      } catch (err) {
        // One match that cannot be loaded (say, a game this node does not host) must not stop the others.
        this.sweepErrors.push({ id, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return ended;
  }

  matchView(m: LoadedMatch): MatchView {
    return matchView(m);
  }

  /** The match as a `match-replay/1` file for the caller (seed, decks and actions once it is over). */
  /** A finished match's export as JSON text when this node has it already (cheap), else undefined. */
  cachedExport(m: LoadedMatch): string | undefined {
    return this.exports.cached(m);
  }

  /** The match's replay file (src/service/export.ts) for its caller, as JSON text; kept once the match is over. */
  exportText(m: LoadedMatch): Promise<string> {
    return this.exports.text(this.store, m);
  }

  /**
   * A registered player's whole history as NDJSON lines, newest first, page by page (never all in
   * memory): one match summary per line, or with `events` the match's public record (its
   * spectator replay file). `run` runs each match's export not in the cache (the HTTP layer passes
   * its gate for expensive work).
   */
  async *playerExport(handle: string, opts: { events: boolean; run?: <T>(work: () => Promise<T>) => Promise<T> }): AsyncGenerator<string> {
    const run = opts.run ?? (<T>(work: () => Promise<T>) => work());
    const player = await this.store.players.byHandle(handle);
    if (!player) throw problems.playerNotFound(handle);
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<MatchStore['listMatches']>> = await this.store.listMatches({ playerId: player.id }, { cursor, limit: 100 });
      for (const row of page.matches) {
        if (!opts.events) {
          yield JSON.stringify(summary(row, this.now())) + '\n';
          continue;
        }
        const m = await this.load(row.id, undefined);
        yield (this.cachedExport(m) ?? (await run(() => this.exportText(m)))) + '\n';
      }
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** How the match ended (its game's result, a timeout, an abort), or null while it runs. */
  outcome(m: LoadedMatch): MatchOutcome | null {
    return outcomeOf(m);
  }

  legal(m: LoadedMatch, opts: { text: boolean } = { text: true }): LegalActionDto[] {
    return legalActions(m, opts);
  }

  redact(m: Pick<LoadedMatch, 'ruleset'>, e: { seq: number; type: string; payload: unknown; actingSeat: Seat | string | null }, viewer: Viewer): EventDto | null {
    return redact(m, e, viewer);
  }

  /** Events after `after`, redacted for the viewer. `next` is the seq to pass as `after` next time. */
  events(m: LoadedMatch, after: number, limit: number): Promise<{ events: EventDto[]; next: number; hasMore: boolean }> {
    return eventPage(this.store, m, after, limit);
  }

  /** Applies one action for the seat holding `token`; a retry with the same key gets the same result. */
  submitAction(id: string, token: string | null | undefined, action: unknown, opts: MoveOptions): Promise<ActionOutcome> {
    return submitAction(
      { store: this.store, loader: this.loader, now: this.now, ratedMinDecisions: this.ratedMinDecisions, seatOf: (entry, t) => this.seatOf(entry.row, t, 'match:play') },
      id,
      token,
      action,
      opts,
    );
  }

  listMatches(filter: MatchListFilterInput, cursor: string | undefined, limit: number): Promise<MatchPageDto> {
    return listMatches(this.store, filter, cursor, limit, this.now());
  }

  /** Matches of the holder of a seat token: every match of that seat's handle, or just that match. */
  async myMatches(q: MyMatchesQuery): Promise<MatchPageDto> {
    const p = q.token === undefined || q.token === null ? null : await this.players.principal(q.token);
    if (p?.kind === 'player') {
      requireScope(p, 'match:read');
      return myMatches(this.store, { ...q, token: undefined }, this.now(), p.player.id);
    }
    return myMatches(this.store, q, this.now());
  }
}
