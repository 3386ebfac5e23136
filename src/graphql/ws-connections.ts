/**
 * GraphQL over WebSocket (graphql-transport-ws, served by Mercurius at /graphql): who a connection
 * is, decided once at `connection_init` from its payload `{ authorization: "Bearer …" }` (key in any case; or the
 * upgrade request's Authorization header) with the same principal and seat checks as every REST
 * call, and how many subscriptions it may hold.
 *
 * Mercurius's own onConnect sees the payload but not the socket, so it cannot close with a
 * protocol close code. Instead each socket's `connection_init` is read here as it arrives (this
 * listener runs before Mercurius's), authentication starts at once, and the subscription context
 * Mercurius asks for on that same message waits for it. A refused credential closes the socket
 * with 4403 (the protocol's Forbidden) and the problem code as the reason, before any ack.
 */
import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import { GraphQLError } from 'graphql';
import { ServiceError, problems } from '../service/errors.js';
import type { MatchService } from '../service/match-service.js';
import type { Principal } from '../service/players.js';
import { bearerToken } from '../service/tokens.js';
import { databaseFailure } from '../persistence/db-errors.js';
import type { AddressSlots } from './budgets.js';

/** Close codes: the graphql-transport-ws protocol's own, and RFC 6455's. */
/** Bytes a WebSocket may hold unsent for its client; past it the connection closes with 1013 slow-consumer. */
export const WS_BUFFER_MAX_BYTES = 1024 * 1024;

export const CLOSE = {
  /** A credential refused (the reason is the problem code: invalid-token, insufficient-scope). */
  forbidden: 4403,
  /** No connection_init within INIT_TIMEOUT_MS. */
  initTimeout: 4408,
  /** A second connection_init. */
  tooManyInits: 4429,
  /** A subscribe whose id is already in use ("Subscriber for <id> already exists"). */
  subscriberExists: 4409,
  /** A message the protocol does not allow (a subscribe whose query is not text). */
  badRequest: 4400,
  /** The server is stopping: reconnect (another node answers). */
  goingAway: 1001,
  internal: 1011,
  /** The database did not answer while checking the credential: retry. */
  tryAgainLater: 1013,
} as const;

export const INIT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_SUBSCRIPTIONS = 20;
/** Queries and mutations one connection may have running at once (GRAPHQL_WS_MAX_OPERATIONS). */
export const DEFAULT_MAX_OPERATIONS = 8;

/** What a subscription resolver returns: an iterator that return() ends (and frees its slot). */
interface Closable {
  return(): unknown;
}

/**
 * The operation ids a socket's subscriptions use, from the client's `subscribe` to the
 * subscription's end (the client's `complete`, or the server's `complete` or `error`).
 *
 * Mercurius starts a subscription without waiting for it, and a `complete` read while its
 * resolver is still setting it up finds nothing to end: the subscription would go on, unseen,
 * holding its slot. Here such a `complete` is remembered, and the iterator the resolver returns
 * is ended at once (attach). Mercurius does not check ids either; the protocol closes the socket
 * with 4409 when a subscribe reuses one in use.
 */
export class Operations {
  private readonly ops = new Map<string, { iterator: Closable | null; completed: boolean }>();

  /** A client's subscribe: false when its id is in use (the socket is to close with 4409). */
  subscribe(id: string): boolean {
    if (this.ops.has(id)) return false;
    this.ops.set(id, { iterator: null, completed: false });
    return true;
  }

  /** A client's complete: ends the subscription, or remembers it for the resolver still setting it up. */
  complete(id: string): void {
    const op = this.ops.get(id);
    if (!op) return;
    if (op.iterator) this.ops.delete(id);
    else op.completed = true;
  }

  /** The server ended the operation (sent `complete` or `error` for it). */
  ended(id: string): void {
    this.ops.delete(id);
  }

  /** The iterator a resolver returns for operation `id`: ended at once when the client completed it meanwhile. */
  attach(id: unknown, iterator: Closable): void {
    const op = typeof id === 'string' ? this.ops.get(id) : undefined;
    if (!op) return;
    if (op.completed) {
      this.ops.delete(id as string);
      iterator.return();
    } else op.iterator = iterator;
  }
}

/** One authenticated connection: its credential, its address and its active subscriptions. */
export class LiveConnection {
  private active = 0;
  /** Queries and mutations running now (sent, not yet answered). */
  private running = 0;

  constructor(
    /** As for MatchService.load: undefined = none (a spectator). */
    readonly token: string | undefined,
    readonly principal: Principal,
    /** A seat token's match (a seat token names one seat of one match). */
    readonly seatMatchId: string | null,
    private readonly maxSubscriptions: number,
    /** The client's address (as Fastify's req.ip), and the live streams each address holds. */
    readonly address: string,
    private readonly streams: AddressSlots,
    private readonly maxOperations: number = DEFAULT_MAX_OPERATIONS,
    /** The socket's operation ids (the resolvers attach the iterators they return). */
    readonly operations: Operations = new Operations(),
  ) {}

  /**
   * Takes a slot for a query or mutation until its answer is out, or refuses one more than
   * maxOperations (too-many-operations, 429): thousands sent at once on one socket would hold
   * every pooled database connection. Pair with endOperation().
   */
  beginOperation(): void {
    if (this.running >= this.maxOperations) {
      throw new GraphQLError(`At most ${this.maxOperations} queries and mutations in flight per connection: wait for an answer first.`, {
        extensions: { code: 'too-many-operations', status: 429, limit: this.maxOperations },
      });
    }
    this.running++;
  }

  endOperation(): void {
    if (this.running > 0) this.running--;
  }

  /**
   * Takes a subscription slot, or refuses over the limit (too-many-subscriptions) or over the
   * address's live streams (too-many-streams); pair with release().
   */
  admit(): void {
    if (this.active >= this.maxSubscriptions) {
      throw new GraphQLError(`At most ${this.maxSubscriptions} active subscriptions per connection: complete one first.`, {
        extensions: { code: 'too-many-subscriptions', status: 429, limit: this.maxSubscriptions },
      });
    }
    this.streams.take(this.address);
    this.active++;
  }

  release(): void {
    if (this.active === 0) return;
    this.active--;
    this.streams.give(this.address);
  }
}

type Auth = { ok: true; connection: LiveConnection } | { ok: false; code: number; reason: string };

interface SocketState {
  auth: Promise<Auth> | null;
  timer: NodeJS.Timeout;
  operations: Operations;
}

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export class WsConnections {
  private readonly sockets = new WeakMap<WebSocket, SocketState>();
  /** Each upgrade request's client address as Fastify saw it (trustProxy applied). */
  private readonly addresses = new WeakMap<IncomingMessage, string>();

  constructor(
    private readonly service: MatchService,
    private readonly maxSubscriptions: number,
    private readonly log: Logger,
    private readonly streams: AddressSlots,
    private readonly maxOperations: number = DEFAULT_MAX_OPERATIONS,
  ) {}

  /** Notes the address of an upgrade request (from its onRequest hook, before the socket exists). */
  addressOf(req: IncomingMessage, address: string): void {
    this.addresses.set(req, address);
  }

  /** Reads each new socket's connection_init (register before Mercurius sees the socket). */
  attach(wss: WebSocketServer): void {
    wss.on('connection', (socket: WebSocket, req: IncomingMessage) => this.accept(socket, req));
  }

  /** The subscription context for Mercurius (on connection_init): the authenticated connection, or nothing on a closed socket. */
  async contextFor(socket: WebSocket): Promise<{ live?: LiveConnection }> {
    const auth = await this.sockets.get(socket)?.auth;
    if (auth?.ok) return { live: auth.connection };
    return {};
  }

  /** Closes every socket: the server is stopping (clients reconnect elsewhere). */
  closeAll(wss: WebSocketServer): void {
    for (const socket of wss.clients) socket.close(CLOSE.goingAway, 'shutting-down');
  }

  private accept(socket: WebSocket, req: IncomingMessage): void {
    const state: SocketState = {
      auth: null,
      timer: setTimeout(() => socket.close(CLOSE.initTimeout, 'Connection initialisation timeout'), INIT_TIMEOUT_MS),
      operations: new Operations(),
    };
    // The server's `complete` or `error` for an operation ends it (Mercurius writes each message
    // as JSON.stringify({ type, id, payload }): the type comes first).
    const send = socket.send.bind(socket) as (data: unknown, ...rest: unknown[]) => void;
    socket.send = ((data: unknown, ...rest: unknown[]) => {
      if (typeof data === 'string' && (data.startsWith('{"type":"complete"') || data.startsWith('{"type":"error"'))) {
        try {
          const id = (JSON.parse(data) as { id?: unknown }).id;
          if (typeof id === 'string') state.operations.ended(id);
        } catch {
          // not ours to judge
        }
      }
      // A client that does not read is closed rather than buffered for without bound.
      if (socket.bufferedAmount > WS_BUFFER_MAX_BYTES) {
        socket.close(CLOSE.tryAgainLater, 'slow-consumer');
        return;
      }
      send(data, ...rest);
    }) as typeof socket.send;
    state.timer.unref();
    this.sockets.set(socket, state);
    socket.on('close', () => clearTimeout(state.timer));
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      // Only connection_init, subscribe and complete matter here (each is read twice: small, at most 64 KiB).
      const text = isBinary ? '' : String(data);
      if (!text.includes('connection_init') && !text.includes('subscribe') && !text.includes('complete')) return;
      let msg: unknown;
      try {
        msg = JSON.parse(text);
      } catch {
        return; // Mercurius answers malformed messages
      }
      const type = (msg as { type?: unknown } | null)?.type;
      const id = (msg as { id?: unknown } | null)?.id;
      if (type === 'subscribe') {
        // The protocol's query is a string. Mercurius would take an object for a syntax tree and
        // graphql-js trusts its shape (answering with JavaScript's own error text): an invalid message.
        if (typeof (msg as { payload?: { query?: unknown } }).payload?.query !== 'string') socket.close(CLOSE.badRequest, 'Invalid message: payload.query must be GraphQL text');
        else if (typeof id === 'string' && state.auth && !state.operations.subscribe(id)) socket.close(CLOSE.subscriberExists, `Subscriber for ${id} already exists`);
        return;
      }
      if (type === 'complete') {
        if (typeof id === 'string') state.operations.complete(id);
        return;
      }
      if (type !== 'connection_init') return;
      if (state.auth) {
        socket.close(CLOSE.tooManyInits, 'Too many initialisation requests');
        return;
      }
      clearTimeout(state.timer);
      const address = this.addresses.get(req) ?? req.socket.remoteAddress ?? 'unknown';
      state.auth = this.authenticate((msg as { payload?: unknown }).payload, req.headers.authorization, address, state.operations).then((auth) => {
        if (!auth.ok) socket.close(auth.code, auth.reason);
        return auth;
      });
    });
  }

  private async authenticate(payload: unknown, header: string | undefined, address: string, operations: Operations): Promise<Auth> {
    const key = payload !== null && typeof payload === 'object' ? authorizationKey(payload) : undefined;
    const given = key !== undefined ? (payload as Record<string, unknown>)[key] : header;
    try {
      if (given !== undefined && typeof given !== 'string') throw problems.invalidToken();
      const token = bearerToken(given);
      const { principal, seatMatchId } = await this.service.credential(token, 'match:read');
      return { ok: true, connection: new LiveConnection(token ?? undefined, principal, seatMatchId, this.maxSubscriptions, address, this.streams, this.maxOperations, operations) };
    } catch (err) {
      if (err instanceof ServiceError) return { ok: false, code: CLOSE.forbidden, reason: err.code };
      const failure = databaseFailure(err);
      if (failure !== null) {
        this.log.warn({ err }, `graphql-ws: database ${failure} at connection_init`);
        return { ok: false, code: CLOSE.tryAgainLater, reason: failure === 'overloaded' ? 'overloaded' : 'database-unavailable' };
      }
      this.log.error({ err }, 'graphql-ws: connection_init failed');
      return { ok: false, code: CLOSE.internal, reason: 'internal' };
    }
  }
}

/**
 * The payload's authorization key, matched as an HTTP header name is (any case): GraphiQL sends
 * its header editor's headers as the payload, typically spelt `Authorization`.
 */
function authorizationKey(payload: object): string | undefined {
  return Object.keys(payload).find((k) => k.toLowerCase() === 'authorization');
}
