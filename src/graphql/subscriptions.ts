/**
 * GraphQL subscriptions over WebSocket (graphql-transport-ws at /graphql): `matchEvents` sends a
 * match's events as the connection's credential may see them (the same objects as `Match.events`
 * and the REST stream), `myTurn` each match that now waits for the connection's decision.
 *
 * Both are fed by the store's append notifications (PostgreSQL LISTEN/NOTIFY, through
 * LiveUpdates), not by Mercurius's in-process emitter, so a move committed on any node reaches
 * subscribers on every node. Every read goes through MatchService.load with the connection's
 * token: redaction and token checks are those of REST.
 */
import { GraphQLError, Kind, type DocumentNode, type GraphQLResolveInfo } from 'graphql';
import type { IResolvers } from 'mercurius';
import type { MatchRow } from '../persistence/types.js';
import { databaseFailure } from '../persistence/db-errors.js';
import { OVERLOADED_RETRY_AFTER_S, problems } from '../service/errors.js';
import { EventFollower, HEARTBEAT_MS } from '../service/live/event-follower.js';
import type { LoadedMatch, MatchService } from '../service/match/match-service.js';
import { seatOfPrincipal } from '../service/accounts/players.js';
import { hashToken } from '../service/accounts/tokens.js';
import { TurnFeed } from '../service/live/turn-feed.js';
import { MAX_SEQ, MatchIdSchema } from '../contract/ids.js';
import { gqlError } from './errors.js';
import { eventOut } from './event-out.js';
import { checkCost, type QueryLimits } from './limits.js';
import { LiveQueue } from './live-queue.js';
import type { MatchSource } from './match-source.js';
import type { LiveConnection } from './ws-connections.js';
import type { GraphqlBudgets } from './budgets.js';
import { listed } from './games.js';
import { FEED_KINDS } from '../contract/kinds.js';
import { workCost } from '../service/work-costs.js';

export const subscriptionTypeDefs = /* GraphQL */ `
  """
  Live updates over WebSocket at /graphql, protocol graphql-transport-ws (the graphql-ws library).
  Authenticate in connection_init: payload { authorization: "Bearer <seat or player token>" } (key in any case); none
  = spectator. A refused credential closes the connection with 4403 and the problem code as reason.
  """
  type Subscription {
    """
    The match's events as the connection may see them (same objects as Match.events), in seq order:
    first the stored ones after \`after\`, then each one as it is committed on any node. Completes
    when the game is over. To resume, subscribe again with after = the last seq received.
    """
    matchEvents(matchId: ID!, after: Int = 0): Event!
    """
    Each match that now waits for the connection's decision (a seat token: its match; a player
    token: any of the player's matches), as the connection sees it: first those waiting now, then
    one each time an append leaves a match waiting for you (once per version). Needs a token.
    """
    myTurn: Match!
    """
    Your account feed, as GET /v1/me/events sends it (a player token): on a fresh subscription first
    a snapshot (type snapshot: your open challenges both ways, open seeks, running and waiting
    matches), then each entry as it is committed on any node. To resume after a cut, subscribe
    again with after = the id of the last entry received: the missed entries come first, none twice.
    """
    myEvents(after: String): AccountFeedMessage!
  }

  """
  One message of the account feed. data is the same JSON object as in GET /v1/me/events (its
  schema per type is in the OpenAPI document: FeedSnapshot, FeedMatchStarted, FeedYourTurn, …):
  public facts only, never a card, a deck or a token.
  """
  type AccountFeedMessage {
    "The entry's id (pass it back as after); null for the snapshot."
    id: String
    "${listed(['snapshot', ...FEED_KINDS])}."
    type: String!
    "When the entry was written; null for the snapshot."
    at: String
    "The snapshot's data (FeedSnapshot in /openapi.json) or the entry's (FeedEntry, by type)."
    data: JSON!
  }
`;

interface LiveLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface LiveContext {
  live?: LiveConnection;
  app: { log: LiveLog };
  /** The graphql-ws operation id (Mercurius puts it in a subscription's context). */
  id?: unknown;
}

/**
 * A subscription's failure (at subscribe or while it runs) as the client may see it, never with a
 * driver's message, and logged as REST logs the same failure (src/http/problems.ts): a service
 * error (a token revoked meanwhile: invalid-token) at info with its code, the database not
 * answering at warn, anything else at error.
 */
function liveError(err: unknown, log: LiveLog): GraphQLError {
  const e = gqlError(err);
  const ext = (e as { extensions?: Record<string, unknown> }).extensions;
  if (typeof ext?.code === 'string') {
    log.info({ code: ext.code, status: ext.status }, e.message);
    return e instanceof GraphQLError ? e : new GraphQLError(e.message, { extensions: ext });
  }
  const failure = databaseFailure(err);
  if (failure === 'overloaded') {
    log.warn({ err }, 'database overloaded');
    return new GraphQLError('The service is busy; subscribe again after extensions.retryAfter seconds.', {
      extensions: { code: 'overloaded', status: 503, retryAfter: OVERLOADED_RETRY_AFTER_S },
    });
  }
  if (failure === 'unavailable') {
    log.warn({ err }, 'database unavailable');
    return new GraphQLError('The database is not answering; subscribe again shortly.', {
      extensions: { code: 'database-unavailable', status: 503 },
    });
  }
  log.error({ err }, 'graphql subscription failed');
  return new GraphQLError('Something went wrong on our side.', { extensions: { code: 'internal', status: 500 } });
}

/** An iterator that fails at once with `error`: Mercurius sends it as the subscription's error without logging it again. */
function failed<T>(error: GraphQLError): LiveQueue<T> {
  const q = new LiveQueue<T>(() => {});
  q.fail(error);
  return q;
}

/** The cost budget, which needs the variables (the document itself was validated before subscribe). */
function checkSubscriptionCost(info: GraphQLResolveInfo, limits: QueryLimits): void {
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [info.operation, ...Object.values(info.fragments)] };
  checkCost(info.schema, document, info.variableValues, info.operation.name?.value, limits);
}

function connectionOf(ctx: LiveContext): LiveConnection {
  // Only the WebSocket transport carries one (a subscription over HTTP is refused before execution).
  if (!ctx.live) throw problems.validation('Subscriptions are served over WebSocket at /graphql (graphql-transport-ws).');
  return ctx.live;
}

/**
 * Runs a subscribe body: every error leaves coded, none with internal details. It is returned as
 * a failed iterator, not thrown: Mercurius logs a thrown one at error level, without a message,
 * whatever it was (a match not found, the database down).
 */
async function guardLive<T>(ctx: LiveContext, fn: () => Promise<LiveQueue<T>>): Promise<LiveQueue<T>> {
  let queue: LiveQueue<T>;
  try {
    queue = await fn();
  } catch (err) {
    queue = failed(liveError(err, ctx.app.log));
  }
  // A client's complete read while this was being set up ends it now (and frees its slot).
  ctx.live?.operations.attach(ctx.id, queue);
  return queue;
}

/** An account feed message as the AccountFeedMessage type resolves it. */
type FeedOut = { id: string | null; type: string; at: string | null; data: unknown };
const FEED_POSITION = /^[0-9]{1,20}-[0-9]{1,20}$/;

const sourceOf = (service: MatchService, m: LoadedMatch): MatchSource => ({ mv: service.matchView(m), load: async () => m });

export function buildSubscriptionResolvers(service: MatchService, limits: QueryLimits, budgets: GraphqlBudgets): IResolvers {
  const turns = new TurnFeed(service);

  return {
    Subscription: {
      matchEvents: {
        subscribe: (_root: unknown, args: { matchId: string; after?: number | null }, ctx: LiveContext, info: GraphQLResolveInfo) =>
          guardLive(ctx, async () => {
            checkSubscriptionCost(info, limits);
            const conn = connectionOf(ctx);
            if (!MatchIdSchema.safeParse(args.matchId).success)
              throw problems.validation('matchId: not a match id', ['matchId: letters, digits, "_" and "-", at most 64']);
            const after = args.after ?? 0;
            if (!Number.isInteger(after) || after < 0 || after > MAX_SEQ)
              throw problems.validation(`after must be 0..${MAX_SEQ}`, [`after: must be 0..${MAX_SEQ}`]);
            // A subscription is a request from its address: it counts toward the address's ceiling.
            budgets.subscription(conn.address);
            conn.admit();
            try {
              await service.load(args.matchId, conn.token); // not found, token errors: before anything is sent
              const queue = new LiveQueue<ReturnType<typeof eventOut>>(() => {
                follower.stop();
                conn.release();
              });
              const follower = new EventFollower(
                service,
                { id: args.matchId, token: conn.token, after },
                {
                  events: (events) => events.forEach((e) => queue.push(eventOut(e))),
                  finished: () => queue.end(),
                  failed: (err) => queue.fail(liveError(err, ctx.app.log)),
                },
              );
              await follower.start();
              return queue;
            } catch (err) {
              conn.release();
              throw err;
            }
          }),
        resolve: (e: ReturnType<typeof eventOut>) => e,
      },
      myEvents: {
        subscribe: (_root: unknown, args: { after?: string | null }, ctx: LiveContext, info: GraphQLResolveInfo) =>
          guardLive(ctx, async () => {
            checkSubscriptionCost(info, limits);
            const conn = connectionOf(ctx);
            const p = conn.principal;
            if (p.kind === 'anonymous') throw problems.missingToken();
            if (p.kind !== 'player') throw problems.playerTokenRequired();
            const after = args.after ?? undefined;
            if (after !== undefined && !FEED_POSITION.test(after))
              throw problems.validation('after: not a feed entry id', ['after: <digits>-<digits>, an entry id as the feed sent it']);
            budgets.subscription(conn.address);
            const me = await service.feeds.player(conn.token);
            conn.admit();
            let release: (() => void) | null = null;
            try {
              release = await service.feeds.admit(me, after);
              const queue = new LiveQueue<FeedOut>(() => {
                stop?.();
                release?.();
                conn.release();
              });
              let stop: (() => void) | null = null;
              stop = await service.feeds.connect(me, hashToken(conn.token!), after, {
                send: (messages) => messages.forEach((m) => queue.push('id' in m ? m : { id: null, type: m.type, at: null, data: m.data })),
                failed: (err) => queue.fail(liveError(err, ctx.app.log)),
              });
              return queue;
            } catch (err) {
              release?.();
              conn.release();
              throw err;
            }
          }),
        resolve: (m: FeedOut) => m,
      },
      myTurn: {
        subscribe: (_root: unknown, _args: unknown, ctx: LiveContext, info: GraphQLResolveInfo) =>
          guardLive(ctx, async () => {
            checkSubscriptionCost(info, limits);
            const conn = connectionOf(ctx);
            if (conn.principal.kind === 'anonymous') throw problems.missingToken();
            budgets.subscription(conn.address);
            // Its first look loads and sends up to a window of matches: charged as work, like a page.
            budgets.workFor(conn.address, conn.token)(workCost.turnWindow(conn.principal.kind === 'seat' ? 1 : MY_TURN_WINDOW));
            conn.admit();
            try {
              return await myTurn(service, turns, conn, ctx);
            } catch (err) {
              conn.release();
              throw err;
            }
          }),
        resolve: (s: MatchSource) => s,
      },
    },
  } as IResolvers;
}

/** Matches waiting for the decision that a look (the start, a catch-up) sends at most: the soonest deadlines first. */
export const MY_TURN_WINDOW = 10;

/** The matches waiting for the connection's decision, once per version, from any node's appends. */
async function myTurn(service: MatchService, turns: TurnFeed, conn: LiveConnection, ctx: LiveContext): Promise<LiveQueue<MatchSource>> {
  const p = conn.principal;
  /** The version each match was last sent at. */
  const sent = new Map<string, number>();
  let chain = Promise.resolve();
  let closed = false;

  /** The connection's seat in a row, when it has one there (a seat token not of this match: none). */
  const seatIn = (row: MatchRow) => {
    if (p.kind === 'seat' && row.id !== conn.seatMatchId) return null;
    try {
      return seatOfPrincipal(row, p);
    } catch {
      return null;
    }
  };

  const check = async (id: string): Promise<void> => {
    if (closed) return;
    const m = await service.load(id, conn.token);
    if (closed || !m.seat || service.outcome(m) || m.row.status !== 'active' || m.row.toMove !== m.seat) return;
    if (sent.get(id) === m.version) return;
    sent.set(id, m.version);
    queue.push(sourceOf(service, m));
  };
  // Serialised: one match at a time, in the order the notifications came.
  const offer = (ids: string[]) => {
    chain = chain
      .then(async () => {
        for (const id of ids) await check(id);
      })
      .catch((err: unknown) => queue.fail(liveError(err, ctx.app.log)));
  };
  /** Everything waiting for the connection now (at the start, and whenever notifications may have been missed). */
  const lookAgain = () => {
    chain = chain
      .then(async () => {
        if (p.kind === 'seat') return offer([conn.seatMatchId!]);
        // The most urgent few only: a backlog of thousands was sent whole (184 MB in 30 s). The
        // rest come as these are played (each look sees the next most urgent), or from myMatches.
        const page = await service.myMatches({
          token: conn.token,
          handle: undefined,
          status: 'active',
          turn: 'mine',
          cursor: undefined,
          limit: MY_TURN_WINDOW,
        });
        offer(page.matches.map((s) => s.id));
      })
      .catch((err: unknown) => queue.fail(liveError(err, ctx.app.log)));
  };

  let unwatch: (() => void) | null = null;
  // As the streams do: a periodic look in case a notification was lost.
  const timer = setInterval(lookAgain, HEARTBEAT_MS);
  timer.unref();
  const queue = new LiveQueue<MatchSource>(() => {
    closed = true;
    clearInterval(timer);
    unwatch?.();
    conn.release();
  });
  let stopWatching: () => void;
  try {
    stopWatching = await turns.watch({
      ...(p.kind === 'seat' ? { matchId: conn.seatMatchId! } : {}),
      appended: (row) => {
        const seat = seatIn(row);
        if (seat && row.status === 'active' && row.toMove === seat && sent.get(row.id) !== row.version) offer([row.id]);
      },
      catchUp: lookAgain,
    });
    // The connection's token revoked on any node: look now (the token check fails: invalid-token).
    const unwatchToken = await service.live.watchRevoked(hashToken(conn.token!), lookAgain);
    const unwatchTurns = stopWatching;
    stopWatching = () => {
      unwatchTurns();
      unwatchToken();
    };
  } catch (err) {
    closed = true;
    clearInterval(timer);
    throw err;
  }
  if (closed) stopWatching();
  else {
    unwatch = stopWatching;
    lookAgain();
  }
  return queue;
}
