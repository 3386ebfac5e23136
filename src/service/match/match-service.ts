/**
 * The match service: what the REST routes and the GraphQL resolvers call, so the two APIs share
 * one set of semantics and errors. It speaks the games' contract (src/core/ruleset.ts) through
 * the registry, and returns domain results and domain errors (../errors.ts); each API maps them
 * to its own wire format. The work is in small modules: lobby (create, join), reads (views,
 * legal actions, events), moves (the action path), history (lists).
 */
import type { Seat } from '../../core/ruleset.js';
import { sha256Hex } from '../../core/hash.js';
import type { EventSource, MatchRow, MatchStore, Scope } from '../../persistence/types.js';
import { KnownCredentials } from '../accounts/credentials.js';
import { problems } from '../errors.js';
import { isCursorError, listMatches, myMatches, summary, type MyMatchesQuery } from './history.js';
import { LiveUpdates } from '../live/live.js';
import { createMatch, joinMatch } from '../lobby/lobby.js';
import { MatchLoader, type MatchEntry } from './match-loader.js';
import { aiLevelOf, aiPlayerId, type AiLevel } from '../ai/players.js';
import { gameRuleset } from './games.js';
import { GAME_IDS } from '../../games/registry.js';
import type { AiJob } from '../ai/runner.js';
import { aiSeed } from '../ai/seed.js';
import { expire, submitAction, type MoveOptions } from './moves.js';
import { flagged } from '../../core/clock.js';
import { eventPage, legalActions, matchView, outcomeOf, redact } from './reads.js';
import { hashToken, newSeatToken } from '../accounts/tokens.js';
import { Players, requireScope, requireScopeIn, seatOfPrincipal, type Principal } from '../accounts/players.js';
import { DEFAULT_RATED_MIN_DECISIONS, Ratings } from '../accounts/ratings.js';
import { WebhookEndpoints } from '../webhooks/endpoints.js';
import { AccountWebhooks } from '../webhooks/account.js';
import { DEFAULT_WEBHOOK_LIMITS, type WebhookLimits } from '../webhooks/limits.js';
import { FinishedExports } from './export.js';
import { Challenges, DEFAULT_CHALLENGE_SETTINGS, type ChallengeSettings } from '../lobby/challenges.js';
import { DEFAULT_TOURNAMENT_SETTINGS, Tournaments, type TournamentSettings } from '../tournaments/tournaments.js';
import { FREE, workCost, type ChargeWork } from '../work-costs.js';
import { BulkPairings, DEFAULT_BULK_PAIRING_PER_MINUTE } from '../lobby/bulk-pairings.js';
import { DEFAULT_SEEK_LIMITS, Seeks, type SeekLimits } from '../lobby/seeks.js';
import { AccountFeeds, DEFAULT_FEED_SETTINGS, type FeedSettings } from '../live/account-feed.js';
import {
  DEFAULT_REMATCH_OFFER_TTL_SECONDS,
  acceptRematch,
  claimRematchSeat,
  declineRematch,
  offerRematch,
  type RematchDeps,
  type RematchStarted,
} from '../lobby/rematch.js';
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
  /** Time-travel checkpoints kept (MatchLoader). */
  timeTravelCheckpoints?: number;
  /** Epoch ms: what every clock reads (tests pass their own). */
  now?: () => number;
  /** Webhook URLs may point at private and loopback addresses (development, tests). Default false. */
  webhooksAllowPrivate?: boolean;
  /** Endpoints per seat and redeliveries per delivery (defaults: 5 and 3). */
  webhookLimits?: Partial<WebhookLimits>;
  /** Decisions each seat needs before a rated match moves ratings (default DEFAULT_RATED_MIN_DECISIONS). */
  ratedMinDecisions?: number;
  /** Challenges per player per hour and how long they stay open (defaults: DEFAULT_CHALLENGE_SETTINGS). */
  challenges?: Partial<ChallengeSettings>;
  /** Matches one organizer may bulk-pair per minute (default DEFAULT_BULK_PAIRING_PER_MINUTE). */
  bulkPairingsPerMinute?: number;
  /** Open seeks per player and how long a seek stays open (defaults: DEFAULT_SEEK_LIMITS). */
  seekLimits?: Partial<SeekLimits>;
  /** Account feed connections per player on one node (default DEFAULT_FEED_SETTINGS). */
  feeds?: Partial<FeedSettings>;
  /** How long a rematch offer stays open (default DEFAULT_REMATCH_OFFER_TTL_SECONDS). */
  rematchOfferTtlSeconds?: number;
  /** The largest tournament field and the most Swiss rounds (defaults: DEFAULT_TOURNAMENT_SETTINGS). */
  tournaments?: Partial<TournamentSettings>;
}

const DEFAULT_CACHE_SIZE = 500;

/**
 * Whose fair share of the computer's workers a match against it spends: the player's, else the
 * address's (hashed: the database keeps no addresses), else its own.
 */
export function aiOwnerOf(who: Principal, address: string | undefined): string | null {
  if (who.kind === 'player') return `player:${who.player.id}`;
  if (address) return `address:${sha256Hex(address).slice(0, 32)}`;
  return null;
}

/** Files a player's export with events holds per answer (each is a replay); the Link header names the rest. */
export const EXPORT_FILES_PER_ANSWER = 20;

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
  /** A player's account webhooks (every feed entry of theirs). */
  readonly accountWebhooks: AccountWebhooks;
  readonly players: Players;
  readonly ratings: Ratings;
  readonly challenges: Challenges;
  readonly seeks: Seeks;
  readonly feeds: AccountFeeds;
  readonly tournaments: Tournaments;
  readonly bulkPairings: BulkPairings;
  private readonly exports = new FinishedExports();
  private readonly rematchTtlMs: number;
  /** The last sweep's per-match failures (the sweeper logs them). */
  sweepErrors: { id: string; error: string }[] = [];

  constructor(opts: MatchServiceOptions) {
    this.store = opts.store;
    this.now = opts.now ?? Date.now;
    this.webhooksAllowPrivate = opts.webhooksAllowPrivate ?? false;
    this.ratedMinDecisions = opts.ratedMinDecisions ?? DEFAULT_RATED_MIN_DECISIONS;
    this.rematchTtlMs = (opts.rematchOfferTtlSeconds ?? DEFAULT_REMATCH_OFFER_TTL_SECONDS) * 1000;
    this.loader = new MatchLoader(this.store, opts.cacheSize ?? DEFAULT_CACHE_SIZE, opts.timeTravelCheckpoints);
    this.live = new LiveUpdates(this.store);
    const webhookLimits = { ...DEFAULT_WEBHOOK_LIMITS, ...opts.webhookLimits };
    this.webhooks = new WebhookEndpoints(this.store, this.webhooksAllowPrivate, webhookLimits);
    this.accountWebhooks = new AccountWebhooks(this.store.webhooks, this.webhooksAllowPrivate, webhookLimits);
    this.players = new Players(this.store.players, this.credentials, (hash) => this.store.announceRevoked(hash));
    this.ratings = new Ratings(this.store.players, this.store.ratings);
    this.challenges = new Challenges(this, { ...DEFAULT_CHALLENGE_SETTINGS, ...opts.challenges });
    this.seeks = new Seeks(this.store, this.players, this.now, { ...DEFAULT_SEEK_LIMITS, ...opts.seekLimits }, (id) =>
      this.feeds.connected(id),
    );
    this.feeds = new AccountFeeds(this, { ...DEFAULT_FEED_SETTINGS, ...opts.feeds });
    this.tournaments = new Tournaments(this, { ...DEFAULT_TOURNAMENT_SETTINGS, ...opts.tournaments });
    this.bulkPairings = new BulkPairings(this, { perMinute: opts.bulkPairingsPerMinute ?? DEFAULT_BULK_PAIRING_PER_MINUTE });
  }

  /** Loader counters (replays, cache hits, catch-ups) for tests and metrics. */
  get stats() {
    return this.loader.stats;
  }

  /** With a player token (match:create) the creator's seat is that player's, its handle verified. */
  /** `address`: the caller's network address, the fair-share key of an anonymous creator's computer. */
  async createMatch(input: CreateMatchInput, token?: string | null, address?: string): Promise<CreateMatchResult> {
    const who = await this.players.principal(token);
    if (!input.ai) return createMatch(this, input, who);
    // Against the computer: its player takes the other seat, and its token is never shown.
    const level = input.ai.level as AiLevel;
    if (input.openSeat || input.opponentHandle !== undefined || input.position !== undefined) {
      throw problems.validation('ai: a match against the computer has no open seat, no opponentHandle and no position.');
    }
    const aiSeat: Seat = (input.seat ?? 'p1') === 'p1' ? 'p2' : 'p1';
    const ruleset = gameRuleset(input.game ?? GAME_IDS[0]!);
    const decks = { ...input.decks, [aiSeat]: input.decks?.[aiSeat] ?? { starter: ruleset.starterDecks[0]!.id } };
    const created = await createMatch(this, { ...input, ai: undefined, decks }, who, {
      opponent: { playerId: aiPlayerId(level), handle: aiPlayerId(level) },
      aiOwner: aiOwnerOf(who, address),
    });
    const { [aiSeat]: _theirs, ...tokens } = created.tokens;
    return { ...created, tokens };
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
    requireScopeIn(p, scope, row.id);
    const seat = seatOfPrincipal(row, p);
    if (p.kind === 'seat') this.credentials.remember(hashToken(p.token));
    return seat;
  }

  /**
   * Who a credential is, for a connection that outlives one request (a GraphQL WebSocket): its
   * principal, with `scope`, and for a seat token the match it names, the token checked against
   * that match as every read checks it. Refused as a read is: invalid-token, insufficient-scope.
   */
  async credential(
    token: string | null | undefined,
    scope: Scope = 'match:read',
  ): Promise<{ principal: Principal; seatMatchId: string | null }> {
    const principal = await this.players.principal(token);
    requireScope(principal, scope);
    if (principal.kind !== 'seat') return { principal, seatMatchId: null };
    const row = (await this.store.listMatches({ tokenHash: hashToken(principal.token) }, { cursor: null, limit: 1 })).matches[0];
    if (!row) throw problems.invalidToken();
    this.seatFor(row, principal, scope);
    return { principal, seatMatchId: row.id };
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
   * `charge` is told the work (the events replayed) before it is done.
   */
  async loadAt(id: string, token: string | null | undefined, seq: number, charge: ChargeWork = FREE): Promise<LoadedMatch> {
    const past = await this.loader.at(id, seq, charge);
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
    // Challenges past their time, each expired once whichever node sweeps (not counted as ended matches).
    try {
      await this.challenges.sweep(limit);
    } catch (err) {
      this.sweepErrors.push({ id: 'challenges', error: err instanceof Error ? err.message : String(err) });
    }
    // Bulk pairings whose time has come: their matches, created once whichever node sweeps.
    try {
      await this.bulkPairings.sweep();
    } catch (err) {
      this.sweepErrors.push({ id: 'bulk-pairings', error: err instanceof Error ? err.message : String(err) });
    }
    // Tournaments with a step due: a scheduled start, ended matches to score, a round's deadline, the next round.
    try {
      await this.tournaments.sweep(limit, (id, err) =>
        this.sweepErrors.push({ id, error: err instanceof Error ? err.message : String(err) }),
      );
    } catch (err) {
      this.sweepErrors.push({ id: 'tournaments', error: err instanceof Error ? err.message : String(err) });
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

  /** The match's replay file (./export.ts) for its caller, as JSON text; kept once the match is over. */
  exportText(m: LoadedMatch): Promise<string> {
    return this.exports.text(this.store, m);
  }

  /**
   * A registered player's whole history as NDJSON lines, newest first, page by page (never all in
   * memory): one match summary per line, or with `events` the match's public record (its
   * spectator replay file). `run` runs each match's export not in the cache (the HTTP layer passes
   * its gate for expensive work).
   */
  /**
   * A player's matches as NDJSON lines, newest first, from `cursor`: every summary, or with events
   * one answer's worth of files (EXPORT_FILES_PER_ANSWER; each costs a replay, ~0.18 s), with the
   * cursor of the rest in `next`. An unknown player or cursor throws before any line.
   */
  async playerExport(
    handle: string,
    opts: { events: boolean; cursor?: string | undefined; run?: <T>(work: () => Promise<T>) => Promise<T>; charge?: ChargeWork },
  ): Promise<{ lines: AsyncGenerator<string>; next: string | null }> {
    const run = opts.run ?? (<T>(work: () => Promise<T>) => work());
    const player = await this.store.players.byHandle(handle);
    if (!player) throw problems.playerNotFound(handle);
    const pageOf = async (cursor: string | null, limit: number) => {
      try {
        return await this.store.listMatches({ playerId: player.id }, { cursor, limit });
      } catch (e) {
        if (isCursorError(e)) throw problems.invalidCursor();
        throw e;
      }
    };
    const first = await pageOf(opts.cursor ?? null, opts.events ? EXPORT_FILES_PER_ANSWER : 100);
    if (opts.events) {
      // The answer's files, charged before the first line: a refusal is a whole answer, not a cut stream.
      (opts.charge ?? FREE)(first.matches.reduce((n, row) => n + workCost.export(row.version), 0));
      const files = async function* (this: MatchService) {
        for (const row of first.matches) {
          const m = await this.load(row.id, undefined);
          yield (this.cachedExport(m) ?? (await run(() => this.exportText(m)))) + '\n';
        }
      }.call(this);
      return { lines: files, next: first.nextCursor };
    }
    const summaries = async function* (this: MatchService) {
      let page = first;
      for (;;) {
        for (const row of page.matches) yield JSON.stringify(summary(row, this.now())) + '\n';
        if (!page.nextCursor) return;
        page = await pageOf(page.nextCursor, 100);
      }
    }.call(this);
    return { lines: summaries, next: null };
  }

  /** How the match ended (its game's result, a timeout, an abort), or null while it runs. */
  outcome(m: LoadedMatch): MatchOutcome | null {
    return outcomeOf(m);
  }

  legal(m: LoadedMatch, opts: { text: boolean } = { text: true }): LegalActionDto[] {
    return legalActions(m, opts);
  }

  redact(
    m: Pick<LoadedMatch, 'ruleset'>,
    e: { seq: number; source: EventSource; type: string; payload: unknown; actingSeat: Seat | string | null },
    viewer: Viewer,
  ): EventDto | null {
    return redact(m, e, viewer);
  }

  /** Events after `after`, redacted for the viewer. `next` is the seq to pass as `after` next time. */
  events(m: LoadedMatch, after: number, limit: number): Promise<{ events: EventDto[]; next: number; hasMore: boolean }> {
    return eventPage(this.store, m, after, limit);
  }

  /**
   * What a computer seat may know when it decides (src/service/ai/runner.ts): the game's view for
   * that seat, its legal actions and every event as it may see it. Never the state itself.
   */
  async aiJob(entry: MatchEntry, seat: Seat, level: AiLevel): Promise<AiJob> {
    const stored = await this.store.loadEvents(entry.row.id, { limit: entry.version });
    const events: EventDto[] = [];
    for (const e of stored) {
      const d = redact(entry, e, seat);
      if (d) events.push(d);
    }
    return {
      game: entry.row.game,
      seat,
      level,
      // Secret until the end: derived from the match's seed, which the worker never receives.
      seed: aiSeed(entry.row.seed, entry.row.id, entry.version),
      view: entry.ruleset.view(entry.state, seat),
      legal: entry.ruleset.legalActions(entry.state, seat),
      events,
    };
  }

  /**
   * Appends a computer seat's decision with `version` expected (src/service/ai/runner.ts). Only a
   * seat a computer player holds can be played this way; the key makes a repeat of the same
   * decision (a node retrying after a lost answer) return the first answer.
   */
  async playAsComputer(id: string, seat: Seat, action: unknown, version: number): Promise<void> {
    await submitAction(
      {
        store: this.store,
        loader: this.loader,
        now: this.now,
        ratedMinDecisions: this.ratedMinDecisions,
        seatOf: async (entry) => (aiLevelOf(entry.row.seats.find((s) => s.seat === seat)?.playerId) === null ? null : seat),
      },
      id,
      null,
      action,
      { expectedVersion: version, idempotencyKey: `computer-${version}`, representation: 'minimal' },
    );
  }

  /** Applies one action for the seat holding `token`; a retry with the same key gets the same result. */
  submitAction(id: string, token: string | null | undefined, action: unknown, opts: MoveOptions): Promise<ActionOutcome> {
    return submitAction(
      {
        store: this.store,
        loader: this.loader,
        now: this.now,
        ratedMinDecisions: this.ratedMinDecisions,
        seatOf: (entry, t) => this.seatOf(entry.row, t, 'match:play'),
      },
      id,
      token,
      action,
      opts,
    );
  }

  private get rematchDeps(): RematchDeps {
    return {
      store: this.store,
      loader: this.loader,
      credentials: this.credentials,
      now: this.now,
      offerTtlMs: this.rematchTtlMs,
      seatOf: (entry, t) => this.seatOf(entry.row, t, 'match:play'),
    };
  }

  /** A seat of a finished match offers a rematch (../lobby/rematch.ts). */
  offerRematch(id: string, token: string | null | undefined): Promise<{ rematch: NonNullable<MatchView['rematch']> }> {
    return offerRematch(this.rematchDeps, id, token);
  }

  declineRematch(id: string, token: string | null | undefined): Promise<{ rematch: NonNullable<MatchView['rematch']> }> {
    return declineRematch(this.rematchDeps, id, token);
  }

  /** The other seat accepts: the new match, and the accepter's new seat token (once). */
  acceptRematch(id: string, token: string | null | undefined): Promise<RematchStarted> {
    return acceptRematch(this.rematchDeps, id, token);
  }

  /** The offerer's new seat token in the accepted rematch (once). */
  claimRematchSeat(id: string, token: string | null | undefined): Promise<{ id: string; seat: Seat; token: string }> {
    return claimRematchSeat(this.rematchDeps, id, token);
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
