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
import type { MatchService } from '../service/match/match-service.js';
import type { Principal } from '../service/accounts/players.js';
import { bearerToken } from '../service/accounts/tokens.js';
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
/**
 * Operations a connection may have unanswered beyond its cap before the server stops reading it:
 * these few are still handed over (a query or mutation among them: too-many-operations at once).
 */
export const OVER_CAP_ALLOWANCE = 8;
/** Messages read but held while a connection is not being read; one more: a flood (1013 too-many-operations). */
export const MAX_HELD_MESSAGES = 64;
/** A flooding connection is closed once its operations in flight are answered, or after this long. */
export const FLOOD_CLOSE_MAX_MS = 5_000;

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
  private readonly ops = new Map<string, { iterator: Closable | null; completed: boolean; pending: boolean }>();
  private unanswered = 0;
  /** Called when an operation stops counting as unanswered (the socket's reader may go on). */
  onSettled: () => void = () => {};

  /**
   * Operations sent and not yet answered: a query or mutation until its `complete` or `error`
   * is out, a subscription until it starts (then its slot is a subscription's).
   */
  get pending(): number {
    return this.unanswered;
  }

  /** A client's subscribe: false when its id is in use (the socket is to close with 4409). */
  subscribe(id: string): boolean {
    if (this.ops.has(id)) return false;
    this.ops.set(id, { iterator: null, completed: false, pending: true });
    this.unanswered++;
    return true;
  }

  /** A client's complete: ends the subscription, or remembers it for the resolver still setting it up. */
  complete(id: string): void {
    const op = this.ops.get(id);
    if (!op) return;
    if (op.iterator) this.remove(id);
    else op.completed = true;
  }

  /** Operation `id` is a subscription, being set up: it no longer counts as unanswered. */
  started(id: unknown): void {
    const op = typeof id === 'string' ? this.ops.get(id) : undefined;
    if (op) this.settle(op);
  }

  /** The server ended the operation (sent `complete` or `error` for it). */
  ended(id: string): void {
    this.remove(id);
  }

  /** The iterator a resolver returns for operation `id`: ended at once when the client completed it meanwhile. */
  attach(id: unknown, iterator: Closable): void {
    const op = typeof id === 'string' ? this.ops.get(id) : undefined;
    if (!op) return;
    this.settle(op);
    if (op.completed) {
      this.remove(id as string);
      iterator.return();
    } else op.iterator = iterator;
  }

  private remove(id: string): void {
    const op = this.ops.get(id);
    if (!op) return;
    this.ops.delete(id);
    this.settle(op);
  }

  private settle(op: { pending: boolean }): void {
    if (!op.pending) return;
    op.pending = false;
    this.unanswered--;
    this.onSettled();
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
    this.gate(socket, state, req);
  }

  /**
   * Every message of the socket passes here before Mercurius sees it (ws emits each as the
   * socket's 'message' event; this socket's emit is wrapped). A connection with
   * maxOperations + OVER_CAP_ALLOWANCE operations unanswered is not read on (backpressure:
   * ws pauses its TCP socket, so the client's own writes wait): the messages already read wait
   * here in order, unparsed, and go on one by one as its operations are answered, a query or
   * mutation only into a free slot (so it runs). More than MAX_HELD_MESSAGES waiting is a flood:
   * they are dropped unrun, and the socket is closed with 1013 too-many-operations once what it
   * has in flight is answered. Without this, each of 10,000 operations sent at once was parsed,
   * given a context and refused in turn (isolation suite, attack 7: a bystander's p99 ×200–400).
   */
  private gate(socket: WebSocket, state: SocketState, req: IncomingMessage): void {
    type Frame = [data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean];
    const held: { frame: Frame; msg?: unknown }[] = [];
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    const close = socket.close.bind(socket);
    const ops = state.operations;
    const start = socket.protocol === 'graphql-ws' ? 'start' : 'subscribe';
    let flooding = false;
    let releasing = false;
    let scheduled = false;
    let floodTimer: NodeJS.Timeout | null = null;

    // A paused socket would not read the client's close frame either: read on before any close.
    socket.close = ((code?: number, reason?: string | Buffer) => {
      held.length = 0;
      if (floodTimer) clearTimeout(floodTimer);
      if (socket.isPaused) socket.resume();
      close(code, reason);
    }) as typeof socket.close;
    socket.on('close', () => {
      held.length = 0;
      if (floodTimer) clearTimeout(floodTimer);
    });

    const parse = (frame: Frame): unknown => {
      const [data] = frame;
      let text = Buffer.isBuffer(data)
        ? data.toString()
        : Array.isArray(data)
          ? Buffer.concat(data).toString()
          : Buffer.from(data).toString();
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // as Mercurius's parser
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined; // Mercurius answers malformed messages
      }
    };
    const isStart = (msg: unknown) => (msg as { type?: unknown } | null)?.type === start;

    /** Checks a message (this module's part of the protocol), then hands it to Mercurius. */
    const deliver = (frame: Frame, msg: unknown) => {
      this.inspect(socket, state, req, msg, start);
      if (socket.readyState === socket.OPEN) emit('message', ...frame);
    };

    const flood = () => {
      flooding = true;
      held.length = 0;
      const end = () => socket.close(CLOSE.tryAgainLater, 'too-many-operations');
      if (ops.pending === 0) return end();
      floodTimer = setTimeout(end, FLOOD_CLOSE_MAX_MS);
      floodTimer.unref();
    };

    const release = () => {
      scheduled = false;
      if (releasing || socket.readyState !== socket.OPEN) return;
      if (flooding) {
        if (ops.pending === 0) socket.close(CLOSE.tryAgainLater, 'too-many-operations');
        return;
      }
      releasing = true;
      try {
        while (held.length > 0 && socket.readyState === socket.OPEN) {
          const next = held[0]!;
          next.msg ??= parse(next.frame);
          // A query or mutation goes on into a free slot only (so it runs, rather than being refused).
          if (isStart(next.msg) && ops.pending >= this.maxOperations) return;
          held.shift();
          deliver(next.frame, next.msg);
        }
        if (held.length === 0 && socket.isPaused && socket.readyState === socket.OPEN) socket.resume();
      } finally {
        releasing = false;
      }
    };
    ops.onSettled = () => {
      if (scheduled || (held.length === 0 && !flooding)) return;
      scheduled = true;
      queueMicrotask(release);
    };

    socket.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event !== 'message') return emit(event, ...args);
      // Closing (or a flood being closed): nothing more is run.
      if (flooding || socket.readyState !== socket.OPEN) return false;
      const frame = args as Frame;
      if (held.length > 0 || ops.pending >= this.maxOperations + OVER_CAP_ALLOWANCE) {
        held.push({ frame });
        socket.pause();
        if (held.length > MAX_HELD_MESSAGES) flood();
        return true;
      }
      deliver(frame, parse(frame));
      return true;
    }) as typeof socket.emit;
  }

  /** This module's part of the protocol: connection_init (authentication), and the operation ids. */
  private inspect(socket: WebSocket, state: SocketState, req: IncomingMessage, msg: unknown, start: string): void {
    const type = (msg as { type?: unknown } | null)?.type;
    const id = (msg as { id?: unknown } | null)?.id;
    if (type === start) {
      // The protocol's query is a string. Mercurius would take an object for a syntax tree and
      // graphql-js trusts its shape (answering with JavaScript's own error text): an invalid message.
      if (typeof (msg as { payload?: { query?: unknown } }).payload?.query !== 'string')
        socket.close(CLOSE.badRequest, 'Invalid message: payload.query must be GraphQL text');
      // Its id is a string too: one the server could not tell from others would escape every count.
      else if (typeof id !== 'string') socket.close(CLOSE.badRequest, 'Invalid message: id must be a string');
      else if (state.auth && !state.operations.subscribe(id)) socket.close(CLOSE.subscriberExists, `Subscriber for ${id} already exists`);
      return;
    }
    if (type === (start === 'start' ? 'stop' : 'complete')) {
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
    state.auth = this.authenticate((msg as { payload?: unknown }).payload, req.headers.authorization, address, state.operations).then(
      (auth) => {
        if (!auth.ok) socket.close(auth.code, auth.reason);
        return auth;
      },
    );
  }

  private async authenticate(payload: unknown, header: string | undefined, address: string, operations: Operations): Promise<Auth> {
    const key = payload !== null && typeof payload === 'object' ? authorizationKey(payload) : undefined;
    const given = key !== undefined ? (payload as Record<string, unknown>)[key] : header;
    try {
      if (given !== undefined && typeof given !== 'string') throw problems.invalidToken();
      const token = bearerToken(given);
      const { principal, seatMatchId } = await this.service.credential(token, 'match:read');
      return {
        ok: true,
        connection: new LiveConnection(
          token ?? undefined,
          principal,
          seatMatchId,
          this.maxSubscriptions,
          address,
          this.streams,
          this.maxOperations,
          operations,
        ),
      };
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
