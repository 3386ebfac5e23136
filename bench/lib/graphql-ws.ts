/**
 * GraphQL over WebSocket for the tests and bench/live.ts: the graphql-ws library's client (the
 * protocol's reference implementation, as integrators use it) and a raw `ws` socket that speaks
 * graphql-transport-ws by hand, to see close codes and single messages.
 */
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';

export const wsUrl = (httpBase: string) => `${httpBase.replace(/^http/, 'ws')}/graphql`;

/**
 * A graphql-ws client that authenticates with `token` in connection_init and never retries. Lazy
 * by default: it connects on the first operation and closes when none is left (graphql-ws's
 * lazy mode), so each operation after an idle moment opens a new connection. `persistent` keeps
 * one connection open from creation until dispose() (a game client's socket).
 */
export function gqlWsClient(httpBase: string, token?: string, opts: { persistent?: boolean } = {}): Client {
  return createClient({
    url: wsUrl(httpBase),
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: !opts.persistent,
  });
}

export interface Next<T> {
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** A subscription through the client, collecting what it sends until it completes or fails (`onNext` sees each result as it arrives). */
export function subscribe<T>(client: Client, query: string, variables: Record<string, unknown> = {}, onNext?: (r: Next<T>) => void) {
  const results: Next<T>[] = [];
  let error: unknown = null;
  let dispose: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    dispose = client.subscribe<T>(
      { query, variables },
      {
        next: (r) => {
          results.push(r as Next<T>);
          onNext?.(r as Next<T>);
        },
        error: (e) => {
          error = e;
          resolve();
        },
        complete: () => resolve(),
      },
    );
  });
  return { results, done, error: () => error, dispose: () => dispose() };
}

export interface RawSocket {
  socket: WebSocket;
  messages: { type: string; id?: string; payload?: unknown }[];
  opened: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  send(msg: unknown): void;
}

/** A socket speaking graphql-transport-ws by hand. */
export function rawSocket(httpBase: string, protocol = 'graphql-transport-ws'): RawSocket {
  const socket = new WebSocket(wsUrl(httpBase), protocol);
  const messages: RawSocket['messages'] = [];
  socket.on('message', (d) => messages.push(JSON.parse(String(d)) as RawSocket['messages'][number]));
  return {
    socket,
    messages,
    opened: new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    }),
    closed: new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }))),
    send: (msg) => socket.send(JSON.stringify(msg)),
  };
}

export async function waitFor(cond: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One query or mutation over the client's socket (graphql-ws sends it as a `subscribe` message):
 * its single result (data and/or errors), or rejects with what the client's sink got as an error
 * (the `error` message's list of errors, or the close event).
 */
export function execute<T>(client: Client, query: string, variables: Record<string, unknown> = {}): Promise<Next<T>> {
  return new Promise((resolve, reject) => {
    let result: Next<T> | undefined;
    client.subscribe<T>(
      { query, variables },
      {
        next: (r) => {
          result = r as Next<T>;
        },
        error: (e) => reject(e instanceof Error ? e : Object.assign(new Error('graphql-ws error'), { payload: e as unknown })),
        complete: () => (result ? resolve(result) : reject(new Error('completed without a result'))),
      },
    );
  });
}
