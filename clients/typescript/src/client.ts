/**
 * The typed client: openapi-fetch over the generated OpenAPI types (`client.api` for any call),
 * plus what generation cannot give:
 * - tokens: the seat token of each match it created or joined (or was given) is sent with that
 *   match's calls; otherwise the player token, if any;
 * - actions with If-Match (the last version this client saw of the match) and an
 *   Idempotency-Key per logical action, retried after a network error or a 503 with the same key;
 * - every error answer thrown as an EvonsProblem with a typed code;
 * - live events that resume after a dropped connection, and waitForMyTurn;
 * - challenges, rematches and seeks, and the account feed (resumed the same way).
 */
import createClient, { type Client } from 'openapi-fetch';
import { EventStream, type EventsOptions } from './events.js';
import { FeedStream, NdjsonFeedTransport, type FeedOptions, type FeedTransport } from './feed.js';
import { EvonsProblem } from './problem.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.js';
import { NdjsonTransport, type LiveTransport } from './transport.js';
import { WsSeat, type WsSeatOptions } from './ws-play.js';
import type {
  AcceptChallengeRequest,
  AcceptedChallenge,
  Action,
  ActionResult,
  MinimalActionResult,
  Challenge,
  ChallengeList,
  CreateChallengeRequest,
  DeclineReason,
  OwnSeek,
  OwnSeekList,
  RematchAnswer,
  RematchSeat,
  SeekList,
  SeekRequest,
  CreateMatchRequest,
  CreateMatchResponse,
  EventPage,
  JoinMatchRequest,
  JoinMatchResponse,
  LegalActions,
  MatchPage,
  MatchView,
  Seat,
  paths,
} from './types.js';

export interface EvonsClientOptions {
  /** Where the service answers, without /v1 (e.g. "https://evons.example"). */
  baseUrl: string;
  /** A player token (evp_…): creates and joins matches as that player, and acts in its matches. */
  playerToken?: string;
  /** The fetch to use (default: globalThis.fetch): proxies, tests, instrumentation. */
  fetch?: (request: Request) => Promise<Response>;
  /** Extra headers on every request (e.g. a User-Agent naming your bot). */
  headers?: Record<string, string>;
  retry?: Partial<RetryPolicy>;
  /** Makes each logical action's Idempotency-Key (default: crypto.randomUUID). */
  idempotencyKey?: () => string;
  /** The live-event transport (default: the NDJSON stream). */
  transport?: (api: Client<paths>) => LiveTransport;
  /** The account feed's transport (default: NDJSON; SseFeedTransport reads the same feed as Server-Sent Events). */
  feedTransport?: (api: Client<paths>) => FeedTransport;
  /** Reconnects in a row, with nothing received, before events() or feed() gives up (default 8). */
  streamReconnects?: number;
  /** Silence after which a live connection counts as dead (default 45 s: the server's keep-alive is 15 s). */
  streamIdleTimeoutMs?: number;
}

export interface ActOptions {
  /**
   * The version the action is based on, sent as If-Match (default: the last version this client
   * saw of the match). null: send none (act on whatever the match is now).
   */
  version?: number | null;
  /** The key of this logical action (default: a new one). Reuse it only to resend the same action. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Ask for the whole match view in the answer (Prefer: return=representation); default: the lean answer. */
  view?: boolean;
  /** Also return this seat's legal actions for the next decision (?include=legal; empty when it is not this seat's). */
  legal?: boolean;
}

/**
 * An action's lean answer (the default); `replayed` when the server answered a resend with the
 * stored result.
 */
export type ActResult = MinimalActionResult & { replayed: boolean };
/** An action's answer with the whole match view (`act(…, { view: true })`). */
export type ActViewResult = ActionResult & { replayed: boolean };

export type TurnResult =
  /** The match waits for this seat's decision. */
  | { myTurn: true; match: MatchView }
  /** The match is over: nothing will ever be this seat's turn again. */
  | { myTurn: false; match: MatchView };

interface MatchMemory {
  token?: string;
  seat?: Seat;
  version?: number;
}

export class EvonsClient {
  /** The generated client: every operation of the OpenAPI document, typed. */
  readonly api: Client<paths>;
  private readonly matches = new Map<string, MatchMemory>();
  private readonly policy: RetryPolicy;
  private readonly transport: LiveTransport;
  private readonly feedTransport: FeedTransport;
  private readonly newKey: () => string;

  constructor(private readonly options: EvonsClientOptions) {
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.newKey = options.idempotencyKey ?? (() => crypto.randomUUID());
    const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: options.headers,
      // Every request goes through the retry rules: reads and keyed actions are resent after a
      // network error; anything is resent after a 503 that says when (retry.ts).
      fetch: (request: Request) =>
        withRetries(() => base(request.clone()), {
          policy: this.policy,
          networkSafe: request.method === 'GET' || request.headers.has('idempotency-key'),
          signal: request.signal,
        }),
    });
    this.transport = (options.transport ?? ((api) => new NdjsonTransport(api)))(this.api);
    this.feedTransport = (options.feedTransport ?? ((api) => new NdjsonFeedTransport(api)))(this.api);
  }

  // ------------------------------------------------------------------ tokens and versions

  /** Acts as this seat token in `matchId` from now on (a token from elsewhere: a hot-seat pair, storage). */
  useSeat(matchId: string, token: string, seat?: Seat): this {
    const m = this.memory(matchId);
    m.token = token;
    if (seat) m.seat = seat;
    return this;
  }

  /** The token sent with `matchId`'s calls: its seat token, else the player token. */
  tokenFor(matchId: string): string | undefined {
    return this.matches.get(matchId)?.token ?? this.options.playerToken;
  }

  /**
   * `matchId` over one GraphQL WebSocket as this client's seat (./ws-play.ts): each move one
   * submitAction answered with the lean result. Starts from the version this client saw; the
   * socket opens on first use. Node 20 has no global WebSocket: pass `{ webSocket }` (the ws package).
   */
  connectWs(matchId: string, opts: Omit<WsSeatOptions, 'baseUrl' | 'matchId' | 'token'> = {}): WsSeat {
    const token = this.tokenFor(matchId);
    if (!token) throw new Error(`No token for match ${matchId}: create or join it, or useSeat() first`);
    return new WsSeat({
      baseUrl: this.options.baseUrl,
      matchId,
      token,
      version: this.versionOf(matchId),
      idempotencyKey: this.newKey,
      ...opts,
    });
  }

  /** This client's seat in `matchId`, once known (create, join, or a view read with its token). */
  seatIn(matchId: string): Seat | undefined {
    return this.matches.get(matchId)?.seat;
  }

  /** The newest version of `matchId` this client has seen (what If-Match will say). */
  versionOf(matchId: string): number | undefined {
    return this.matches.get(matchId)?.version;
  }

  private memory(matchId: string): MatchMemory {
    let m = this.matches.get(matchId);
    if (!m) this.matches.set(matchId, (m = {}));
    return m;
  }

  private saw(matchId: string, version: number | undefined): void {
    if (version === undefined) return;
    const m = this.memory(matchId);
    // Versions only grow; an older answer arriving late must not roll If-Match back.
    if (m.version === undefined || version > m.version) m.version = version;
  }

  private auth(matchId?: string): Record<string, string> {
    const token = matchId === undefined ? this.options.playerToken : this.tokenFor(matchId);
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  /** The data of a 2xx answer; any other answer throws (and teaches this client a version). */
  private ok<T>(r: { data?: T; error?: unknown; response: Response }, matchId?: string): T {
    if (r.error !== undefined || r.data === undefined) {
      const problem = EvonsProblem.from(r.response, r.error);
      if (matchId !== undefined) this.saw(matchId, problem.version);
      throw problem;
    }
    return r.data;
  }

  // ------------------------------------------------------------------ matches

  /** Creates a match; its seat token (or both, hot-seat) is kept for the calls that follow. */
  async createMatch(body: CreateMatchRequest): Promise<CreateMatchResponse> {
    const created = this.ok(await this.api.POST('/v1/matches', { body, headers: this.auth() }));
    this.useSeat(created.id, created.token, created.seat);
    this.saw(created.id, created.version);
    return created;
  }

  /** Takes the open seat of `matchId`; its token is kept for the calls that follow. */
  async joinMatch(matchId: string, body: JoinMatchRequest): Promise<JoinMatchResponse> {
    const joined = this.ok(
      await this.api.POST('/v1/matches/{id}/join', { params: { path: { id: matchId } }, body, headers: this.auth() }),
      matchId,
    );
    this.useSeat(matchId, joined.token, joined.seat);
    this.saw(matchId, joined.version);
    return joined;
  }

  /** The match as this client's seat sees it (spectator without a token). */
  async getMatch(matchId: string, opts: { signal?: AbortSignal } = {}): Promise<MatchView> {
    const view = this.ok(
      await this.api.GET('/v1/matches/{id}', { params: { path: { id: matchId } }, headers: this.auth(matchId), signal: opts.signal }),
      matchId,
    );
    this.saw(matchId, view.version);
    if (view.seat) this.memory(matchId).seat = view.seat;
    return view;
  }

  /** Every action this seat may take now (empty when it is not its decision). */
  async legalActions(matchId: string, opts: { text?: boolean } = {}): Promise<LegalActions> {
    const legal = this.ok(
      await this.api.GET('/v1/matches/{id}/legal-actions', {
        params: { path: { id: matchId }, query: { text: opts.text ? 'true' : 'false' } },
        headers: this.auth(matchId),
      }),
      matchId,
    );
    this.saw(matchId, legal.version);
    return legal;
  }

  /**
   * Submits one action with If-Match and an Idempotency-Key. A network error or a 503 is
   * retried with the same key, so the action is applied at most once whatever happens on the
   * wire; a 409 (the match moved on) throws: read the match again and decide again.
   */
  act(matchId: string, action: Action, opts: ActOptions & { view: true }): Promise<ActViewResult>;
  act(matchId: string, action: Action, opts?: ActOptions & { view?: false }): Promise<ActResult>;
  async act(matchId: string, action: Action, opts: ActOptions = {}): Promise<ActResult | ActViewResult> {
    const version = opts.version === undefined ? this.versionOf(matchId) : opts.version;
    const header: { 'idempotency-key': string; 'if-match'?: string; prefer?: string } = {
      'idempotency-key': opts.idempotencyKey ?? this.newKey(),
    };
    if (version !== null && version !== undefined) header['if-match'] = `"${version}"`;
    if (opts.view) header.prefer = 'return=representation';
    const r = await this.api.POST('/v1/matches/{id}/actions', {
      params: { path: { id: matchId }, header, query: opts.legal ? { include: 'legal' } : {} },
      body: { action },
      headers: this.auth(matchId),
      signal: opts.signal,
    });
    const result = this.ok(r, matchId);
    // Which answer came back is told by its shape (ActionResult carries the match view).
    if (Boolean(opts.view) !== 'match' in result)
      throw new Error(`the service answered an action ${opts.view ? 'without' : 'with'} its match view`);
    this.saw(matchId, result.version);
    return { ...result, replayed: r.response.headers.get('idempotent-replayed') === 'true' } as ActResult | ActViewResult;
  }

  /**
   * Concedes. Allowed whatever the game is waiting for, so it is sent without If-Match unless
   * `opts.version` asks for one (a resignation does not depend on the position).
   */
  resign(matchId: string, opts: ActOptions & { view?: false } = {}): Promise<ActResult> {
    return this.act(matchId, { type: 'resign' }, { version: null, ...opts });
  }

  /** One page of the event log, redacted for this seat. */
  async eventPage(matchId: string, opts: { after?: number; limit?: number } = {}): Promise<EventPage> {
    const page = this.ok(
      await this.api.GET('/v1/matches/{id}/events', {
        params: { path: { id: matchId }, query: { after: opts.after ?? 0, limit: opts.limit ?? 500 } },
        headers: this.auth(matchId),
      }),
      matchId,
    );
    this.saw(matchId, page.version);
    return page;
  }

  /** The live events of `matchId` after `after`: ends when the game does; resumes after drops. */
  events(matchId: string, opts: EventsOptions & { onConnect?: (after: number) => void } = {}): EventStream {
    return new EventStream(
      {
        transport: this.transport,
        matchId,
        token: () => this.tokenFor(matchId),
        reconnects: this.options.streamReconnects ?? 8,
        idleTimeoutMs: this.options.streamIdleTimeoutMs ?? 45_000,
        policy: this.policy,
        onConnect: opts.onConnect,
      },
      opts,
    );
  }

  /**
   * Resolves when the match waits for this client's seat ({ myTurn: true }) or is over
   * ({ myTurn: false }), reading the view once and then only when the live stream says the
   * match moved.
   */
  async waitForMyTurn(matchId: string, opts: { signal?: AbortSignal } = {}): Promise<TurnResult> {
    let match = await this.getMatch(matchId, opts);
    if (!match.seat) throw new TypeError(`waitForMyTurn: no seat token for match ${matchId}`);
    const decided = (m: MatchView): TurnResult | null => {
      if (m.status === 'finished') return { myTurn: false, match: m };
      return m.game?.pending?.seat === m.seat ? { myTurn: true, match: m } : null;
    };
    const now = decided(match);
    if (now) return now;
    // Wake on new events; events the last read already covers (seq ≤ its version) wake nothing.
    for await (const e of this.events(matchId, { after: match.version, ...(opts.signal ? { signal: opts.signal } : {}) })) {
      if (e.seq <= match.version) continue;
      match = await this.getMatch(matchId, opts);
      const done = decided(match);
      if (done) return done;
    }
    if (opts.signal?.aborted) throw opts.signal.reason;
    // The stream ended with the game.
    match = await this.getMatch(matchId, opts);
    const done = decided(match);
    if (done) return done;
    throw new Error(`waitForMyTurn: the event stream of ${matchId} ended while the match is ${match.status}`);
  }

  // ------------------------------------------------------------------ lists

  /** Matches waiting for this client's decision (with a player token: all of its matches). */
  async myMatches(query: NonNullable<paths['/v1/me/matches']['get']['parameters']['query']> = {}): Promise<MatchPage> {
    return this.ok(await this.api.GET('/v1/me/matches', { params: { query }, headers: this.auth() }));
  }

  /** The match history (e.g. { status: 'waiting' }: matches with an open seat to join). */
  async listMatches(query: NonNullable<paths['/v1/matches']['get']['parameters']['query']> = {}): Promise<MatchPage> {
    return this.ok(await this.api.GET('/v1/matches', { params: { query } }));
  }

  // ------------------------------------------------------------------ challenges (player token)

  /** Challenges a player (`to`), or anyone (`allowed` handles, or nobody named). Not resent after a network error. */
  async createChallenge(body: CreateChallengeRequest): Promise<Challenge> {
    return this.ok(await this.api.POST('/v1/challenges', { body, headers: this.auth() }));
  }

  /** A challenge (public: no token needed). */
  async getChallenge(challengeId: string): Promise<Challenge> {
    return this.ok(await this.api.GET('/v1/challenges/{id}', { params: { path: { id: challengeId } } }));
  }

  /** Challenges sent to you (`direction: 'in'`, the default) or yours (`'out'`), newest first, one page. */
  async myChallenges(query: NonNullable<paths['/v1/me/challenges']['get']['parameters']['query']> = {}): Promise<ChallengeList> {
    return this.ok(await this.api.GET('/v1/me/challenges', { params: { query }, headers: this.auth() }));
  }

  /**
   * Accepts a challenge with your deck: the match starts, and its seat token is kept for the calls
   * that follow (your player token would do too). A challenge closed meanwhile is a 409 challenge-closed.
   */
  async acceptChallenge(challengeId: string, body: AcceptChallengeRequest): Promise<AcceptedChallenge> {
    const accepted = this.ok(
      await this.api.POST('/v1/challenges/{id}/accept', { params: { path: { id: challengeId } }, body, headers: this.auth() }),
    );
    this.useSeat(accepted.match.id, accepted.match.token, accepted.match.seat);
    this.saw(accepted.match.id, accepted.match.version);
    return accepted;
  }

  /** Declines a challenge sent to you, with a reason key (default generic) the challenger's client words. */
  async declineChallenge(challengeId: string, reason?: DeclineReason): Promise<Challenge> {
    return this.ok(
      await this.api.POST('/v1/challenges/{id}/decline', {
        params: { path: { id: challengeId } },
        body: reason ? { reason } : {},
        headers: this.auth(),
      }),
    );
  }

  /** Cancels your open challenge. */
  async cancelChallenge(challengeId: string): Promise<Challenge> {
    return this.ok(await this.api.POST('/v1/challenges/{id}/cancel', { params: { path: { id: challengeId } }, headers: this.auth() }));
  }

  // ------------------------------------------------------------------ rematch (seat or player token)

  /** Offers a rematch of the finished `matchId` (seats swapped, same game, decks and settings). */
  async offerRematch(matchId: string): Promise<RematchAnswer> {
    return this.ok(
      await this.api.POST('/v1/matches/{id}/rematch', { params: { path: { id: matchId } }, headers: this.auth(matchId) }),
      matchId,
    );
  }

  /** Accepts the other seat's offer: the new match starts; its seat token is kept (the answer's `id` is the new match). */
  async acceptRematch(matchId: string): Promise<JoinMatchResponse> {
    const joined = this.ok(
      await this.api.POST('/v1/matches/{id}/rematch/accept', { params: { path: { id: matchId } }, headers: this.auth(matchId) }),
      matchId,
    );
    this.useSeat(joined.id, joined.token, joined.seat);
    this.saw(joined.id, joined.version);
    return joined;
  }

  /** Declines the other seat's offer. */
  async declineRematch(matchId: string): Promise<RematchAnswer> {
    return this.ok(
      await this.api.POST('/v1/matches/{id}/rematch/decline', { params: { path: { id: matchId } }, headers: this.auth(matchId) }),
      matchId,
    );
  }

  /** The offerer's seat token in the accepted rematch (once), kept for the new match's calls. */
  async claimRematchSeat(matchId: string): Promise<RematchSeat> {
    const seat = this.ok(
      await this.api.POST('/v1/matches/{id}/rematch/seat', { params: { path: { id: matchId } }, headers: this.auth(matchId) }),
      matchId,
    );
    this.useSeat(seat.id, seat.token, seat.seat);
    return seat;
  }

  // ------------------------------------------------------------------ seeks (player token)

  /** Posts a seek: `status: 'paired'` with `matchId` when it paired at once, else it stays open. */
  async postSeek(body: SeekRequest): Promise<OwnSeek> {
    return this.ok(await this.api.POST('/v1/seeks', { body, headers: this.auth() }));
  }

  /** The open seeks (public), oldest first: the order they pair in. */
  async listSeeks(query: NonNullable<paths['/v1/seeks']['get']['parameters']['query']> = {}): Promise<SeekList> {
    return this.ok(await this.api.GET('/v1/seeks', { params: { query } }));
  }

  /** Your seeks, newest first, with their status. */
  async mySeeks(): Promise<OwnSeekList> {
    return this.ok(await this.api.GET('/v1/me/seeks', { headers: this.auth() }));
  }

  /** Cancels your open seek (409 seek-not-open once it paired, expired or was cancelled). */
  async cancelSeek(seekId: string): Promise<OwnSeek> {
    return this.ok(await this.api.DELETE('/v1/seeks/{seekId}', { params: { path: { seekId } }, headers: this.auth() }));
  }

  // ------------------------------------------------------------------ the account feed (player token)

  /**
   * Your account feed: the snapshot (open challenges both ways, open seeks, running matches with
   * whose turn it is), then each entry (challenge-received, match-started, your-turn, …) once, in
   * order. Resumes with the last entry's id after a dropped connection, an idle one or a server
   * shutting down; ends with `opts.signal`.
   */
  feed(opts: FeedOptions = {}): FeedStream {
    return new FeedStream(
      {
        transport: this.feedTransport,
        token: () => this.options.playerToken,
        reconnects: this.options.streamReconnects ?? 8,
        idleTimeoutMs: this.options.streamIdleTimeoutMs ?? 45_000,
        policy: this.policy,
      },
      opts,
    );
  }
}
