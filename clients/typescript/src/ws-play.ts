/**
 * Playing over one persistent connection: a seat's GraphQL WebSocket (protocol
 * graphql-transport-ws at /graphql), on which each move is one `submitAction` mutation answered
 * with the lean result (version, status, pending decision, and the seat's legal actions for its
 * next decision when it is again the seat's). The same rules as `EvonsClient.act` over REST:
 * - expectedVersion (REST's If-Match) is the last version this seat saw;
 * - each logical action has its own idempotency key; after a dropped connection the seat
 *   reconnects and sends the same action with the same key (applied once; the answer says
 *   `replayed`);
 * - an error is thrown as an EvonsProblem with the service's code and status.
 *
 * The protocol is spoken by hand (connection_init with the seat token, subscribe, next, error,
 * complete, ping/pong): no dependency beyond a WebSocket. Browsers and Node 22+ have one
 * (globalThis.WebSocket); on Node 20 pass the `ws` package's: `{ webSocket: WebSocket }`.
 */
import { EvonsProblem } from './problem.js';
import type { Action, MatchStatus, Seat, components } from './types.js';

type MatchOutcome = components['schemas']['MatchOutcome'];

/** The subset of the WebSocket interface used here (the DOM's, and the `ws` package's). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (e: { code: number; reason: string }) => void): void;
  addEventListener(type: 'error', listener: (e: unknown) => void): void;
}
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

export interface WsSeatOptions {
  /** Where the service answers, without /v1 (as EvonsClientOptions.baseUrl). */
  baseUrl: string;
  matchId: string;
  /** The seat's token (or a player token holding the seat), sent in connection_init. */
  token: string;
  /** The WebSocket constructor (default: globalThis.WebSocket). */
  webSocket?: WebSocketConstructor;
  /** Makes each logical action's idempotency key (default: crypto.randomUUID). */
  idempotencyKey?: () => string;
  /** The version last seen, if known (expectedVersion of the first action). */
  version?: number;
  /** Sends of one operation after a dropped connection, the first included (default 3). */
  attempts?: number;
  /** Wait for the connection's acknowledgement before giving up (default 10 s). */
  connectTimeoutMs?: number;
}

export interface WsLegalAction {
  type: string;
  /** Pass as act()'s action. */
  action: Action;
  text: string;
}

/** An event as GraphQL shows it (Event in the schema): the caller's own view. */
export interface WsEvent {
  seq: number;
  actingSeat: Seat | null;
  source: 'game' | 'match';
  type: string;
  data: Record<string, unknown>;
}

/** What the match waits for (the Pending schema of /openapi.json: { kind, seat, … }). */
export type WsPending = { kind: string; seat: Seat } & Record<string, unknown>;

/** The lean answer to an action over the socket. */
export interface WsActResult {
  version: number;
  replayed: boolean;
  status: MatchStatus;
  winner: Seat | null;
  outcome: MatchOutcome | null;
  pending: WsPending | null;
  events: WsEvent[];
  /** This seat's legal actions for the next decision; empty when it is not this seat's. */
  legalActions: WsLegalAction[];
}

/** The match as this seat sees it, enough to decide: its version, status, pending decision and legal actions. */
export interface WsDecision {
  version: number;
  status: MatchStatus;
  seat: Seat | null;
  pending: WsPending | null;
  legalActions: WsLegalAction[];
}

export interface WsActOptions {
  /** The version the action is based on (default: the last one this seat saw). null: none. */
  version?: number | null;
  /** The key of this logical action (default: a new one). */
  idempotencyKey?: string;
}

const ACT = `mutation Act($id: ID!, $action: JSON!, $key: String, $version: Int) {
  submitAction(matchId: $id, action: $action, idempotencyKey: $key, expectedVersion: $version) {
    version replayed status winner outcome { winner reason seat } pending
    events { seq actingSeat source type data }
    legalActions { type action text }
  }
}`;
const DECISION = `query Decision($id: ID!) {
  match(id: $id) { version status seat pending legalActions { type action text } }
}`;

interface GqlError {
  message: string;
  extensions?: { code?: unknown; status?: unknown; version?: unknown; errors?: unknown; retryAfter?: unknown };
}
interface Operation {
  resolve(r: { data?: unknown; errors?: GqlError[] }): void;
  reject(e: unknown): void;
  result?: { data?: unknown; errors?: GqlError[] };
}

/** The connection was lost with the operation in flight (it may or may not have been applied), or before it opened. */
export class Dropped extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`connection closed (${code}${reason ? ` ${reason}` : ''})`);
    this.name = 'Dropped';
  }
}

/** A GraphQL error's extensions as the problem the service would have answered over REST. */
function problemOf(e: GqlError | undefined): EvonsProblem {
  const ext = e?.extensions ?? {};
  const code = typeof ext.code === 'string' ? ext.code : 'unexpected-response';
  const status = typeof ext.status === 'number' ? ext.status : 500;
  // The rules engine's reasons are UPPER_SNAKE (REST's urn:evons:problem:illegal-action).
  const type = /^[A-Z][A-Z0-9_]*$/.test(code) ? 'urn:evons:problem:illegal-action' : `urn:evons:problem:${code}`;
  return new EvonsProblem(
    {
      type,
      title: e?.message ?? 'GraphQL error',
      status,
      code,
      detail: e?.message,
      ...(typeof ext.version === 'number' ? { version: ext.version } : {}),
      ...(Array.isArray(ext.errors) ? { errors: ext.errors.map(String) } : {}),
    },
    { retryAfter: typeof ext.retryAfter === 'number' ? ext.retryAfter : undefined },
  );
}

/** One seat of one match over its own GraphQL WebSocket. Open with connect(); close() when done. */
export class WsSeat {
  private socket: WebSocketLike | null = null;
  private ready: Promise<WebSocketLike> | null = null;
  private readonly ops = new Map<string, Operation>();
  private nextId = 1;
  private lastVersion: number | undefined;
  private closed = false;
  private readonly newKey: () => string;
  /** Connections opened so far (the first included): more than one means it reconnected. */
  connections = 0;

  constructor(private readonly options: WsSeatOptions) {
    this.lastVersion = options.version;
    this.newKey = options.idempotencyKey ?? (() => crypto.randomUUID());
  }

  get matchId(): string {
    return this.options.matchId;
  }

  /** The newest version of the match this seat has seen (the next action's expectedVersion). */
  get version(): number | undefined {
    return this.lastVersion;
  }

  /** Opens the connection (acts and reads open it too, on demand). */
  async connect(): Promise<this> {
    await this.open();
    return this;
  }

  /** The match as this seat sees it, with its legal actions (empty when the decision is not this seat's). */
  async decision(): Promise<WsDecision> {
    const data = (await this.run(DECISION, { id: this.options.matchId }, true)) as { match: WsDecision };
    this.saw(data.match.version);
    return data.match;
  }

  /**
   * One action for this seat: applied once, even if the connection drops and it is sent again
   * (with the same key). Throws EvonsProblem (version-conflict: `problem.version` is the current
   * version, which this seat now knows).
   */
  async act(action: Action, opts: WsActOptions = {}): Promise<WsActResult> {
    const version = opts.version === undefined ? this.lastVersion : (opts.version ?? undefined);
    const key = opts.idempotencyKey ?? this.newKey();
    const data = (await this.run(ACT, { id: this.options.matchId, action, key, version: version ?? null }, true)) as {
      submitAction: WsActResult;
    };
    this.saw(data.submitAction.version);
    return data.submitAction;
  }

  /** Resigns (either seat, any time while the match runs). */
  resign(opts: WsActOptions = {}): Promise<WsActResult> {
    return this.act({ type: 'resign' } as Action, opts);
  }

  /** Closes the connection; operations in flight fail. */
  close(): void {
    this.closed = true;
    this.socket?.close(1000, 'done');
    this.socket = null;
    this.ready = null;
  }

  private saw(version: number | undefined): void {
    if (version !== undefined && (this.lastVersion === undefined || version > this.lastVersion)) this.lastVersion = version;
  }

  /** Runs one operation; after a dropped connection, again on a new one (safe: reads, and keyed actions). */
  private async run(query: string, variables: Record<string, unknown>, resend: boolean): Promise<unknown> {
    const attempts = Math.max(1, this.options.attempts ?? 3);
    for (let attempt = 1; ; attempt++) {
      let r: { data?: unknown; errors?: GqlError[] };
      try {
        r = await this.send(query, variables);
      } catch (e) {
        // As fetch's network error over REST: resent (same key) while attempts remain, then thrown.
        if (e instanceof Dropped && resend && attempt < attempts && !this.closed) continue;
        throw e;
      }
      if (r.errors && r.errors.length > 0) {
        const problem = problemOf(r.errors[0]);
        this.saw(problem.version);
        throw problem;
      }
      return r.data;
    }
  }

  private async send(query: string, variables: Record<string, unknown>): Promise<{ data?: unknown; errors?: GqlError[] }> {
    const socket = await this.open();
    const id = String(this.nextId++);
    return new Promise((resolve, reject) => {
      this.ops.set(id, { resolve, reject });
      socket.send(JSON.stringify({ type: 'subscribe', id, payload: { query, variables } }));
    });
  }

  private open(): Promise<WebSocketLike> {
    if (this.closed) return Promise.reject(new Error('WsSeat is closed'));
    if (this.ready) return this.ready;
    const Impl = this.options.webSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!Impl) return Promise.reject(new Error('No WebSocket: pass options.webSocket (e.g. the ws package) on Node 20'));
    const url = `${this.options.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/graphql`;
    const socket = new Impl(url, 'graphql-transport-ws');
    this.socket = socket;
    this.connections++;
    const ready = new Promise<WebSocketLike>((resolve, reject) => {
      let acked = false;
      const timer = setTimeout(() => socket.close(4408, 'no connection_ack'), this.options.connectTimeoutMs ?? 10_000);
      socket.addEventListener('open', () =>
        socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${this.options.token}` } })),
      );
      socket.addEventListener('message', (e) => {
        let msg: { type?: string; id?: string; payload?: unknown };
        try {
          msg = JSON.parse(String(e.data)) as typeof msg;
        } catch {
          return;
        }
        if (msg.type === 'connection_ack') {
          acked = true;
          clearTimeout(timer);
          resolve(socket);
          return;
        }
        if (msg.type === 'ping') {
          socket.send(JSON.stringify({ type: 'pong' }));
          return;
        }
        const op = msg.id !== undefined ? this.ops.get(msg.id) : undefined;
        if (!op) return;
        if (msg.type === 'next') op.result = msg.payload as Operation['result'];
        else if (msg.type === 'error') {
          // Refused before it ran (a rate limit, a document refused): a list of errors.
          this.ops.delete(msg.id!);
          op.resolve({ errors: Array.isArray(msg.payload) ? (msg.payload as GqlError[]) : [] });
        } else if (msg.type === 'complete') {
          this.ops.delete(msg.id!);
          op.resolve(op.result ?? { errors: [{ message: 'completed without a result' }] });
        }
      });
      socket.addEventListener('error', () => {
        /* the close event follows */
      });
      socket.addEventListener('close', (e) => {
        clearTimeout(timer);
        if (this.socket === socket) {
          this.socket = null;
          this.ready = null;
        }
        const dropped = new Dropped(e.code, e.reason);
        for (const [id, op] of this.ops) {
          this.ops.delete(id);
          op.reject(dropped);
        }
        if (acked) return;
        // Refused at connection_init: 4403 with the problem code as the reason (invalid-token…).
        if (e.code === 4403)
          reject(
            new EvonsProblem({ type: `urn:evons:problem:${e.reason}`, title: 'Forbidden', status: 403, code: e.reason || 'invalid-token' }),
          );
        else reject(dropped);
      });
    });
    this.ready = ready;
    // A failed connection is not kept: the next operation opens another.
    ready.catch(() => {
      if (this.ready === ready) this.ready = null;
    });
    return ready;
  }
}
