/**
 * The account feed (GET /v1/me/events) as an async iterator that survives its connection: the
 * snapshot of a fresh connection, then every entry once, in order. It remembers the id of the last
 * entry it delivered, and when the connection drops (cut, idle for too long, the server shutting
 * down, a retryable problem line) it reconnects with ?after=<that id>: the server sends the
 * entries missed meanwhile and no new snapshot.
 *
 *   for await (const m of client.feed()) console.log(m.type);
 */
import type { Client } from 'openapi-fetch';
import { EvonsProblem, type Problem } from './problem.js';
import { beforeReconnect, connection } from './reconnect.js';
import type { RetryPolicy } from './retry.js';
import { lines, sseFrames } from './transport.js';
import type { FeedEnd, FeedEntry, FeedMessage, FeedSnapshot, paths } from './types.js';

/** One thing a feed connection delivered. */
export type FeedItem =
  | { kind: 'message'; message: FeedMessage }
  /** Blank line or comment: the connection is alive. */
  | { kind: 'keep-alive' }
  /** The last line: this server is stopping (reconnect elsewhere with the last id). */
  | { kind: 'end'; reason: 'shutdown' }
  /** The last line: the feed stopped with a problem (invalid-token: the token was revoked). */
  | { kind: 'error'; problem: Problem };

export interface FeedOpenRequest {
  /** Deliver the entries after this one (undefined: a fresh connection, snapshot first). */
  after: string | undefined;
  /** The player token. */
  token: string | undefined;
  signal: AbortSignal;
}

/** How the feed reaches the client: one connection's items; FeedStream does the rest. */
export interface FeedTransport {
  /** Opens one connection. Throws EvonsProblem when the server refuses it (401, 400, 429, …). */
  open(req: FeedOpenRequest): AsyncIterable<FeedItem>;
}

/** Reads one NDJSON line of the feed into an item. */
export function feedItem(line: string): FeedItem {
  if (line.trim() === '') return { kind: 'keep-alive' };
  const obj = JSON.parse(line) as FeedMessage | FeedEnd;
  if ('type' in obj) return { kind: 'message', message: obj };
  if ('end' in obj) return { kind: 'end', reason: obj.end };
  return { kind: 'error', problem: obj.error };
}

function feedRequest(api: Client<paths>, req: FeedOpenRequest, accept: string) {
  return api.GET('/v1/me/events', {
    params: { query: req.after === undefined ? {} : { after: req.after } },
    headers: { accept, ...(req.token ? { authorization: `Bearer ${req.token}` } : {}) },
    parseAs: 'stream',
    signal: req.signal,
  });
}

/** GET /v1/me/events as NDJSON (the default): one message per line, then a line that says why it ended. */
export class NdjsonFeedTransport implements FeedTransport {
  constructor(private readonly api: Client<paths>) {}

  async *open(req: FeedOpenRequest): AsyncIterable<FeedItem> {
    const { data, error, response } = await feedRequest(this.api, req, 'application/x-ndjson');
    if (error !== undefined || !data) throw EvonsProblem.from(response, error);
    for await (const line of lines(data)) yield feedItem(line);
  }
}

/**
 * The same feed as Server-Sent Events: each message is an event named by its type, its data the
 * NDJSON line's object; `event: end` carries the last line. Resuming is FeedStream's (?after=).
 */
export class SseFeedTransport implements FeedTransport {
  constructor(private readonly api: Client<paths>) {}

  async *open(req: FeedOpenRequest): AsyncIterable<FeedItem> {
    const { data, error, response } = await feedRequest(this.api, req, 'text/event-stream');
    if (error !== undefined || !data) throw EvonsProblem.from(response, error);
    for await (const frame of sseFrames(lines(data))) yield frame.event === null ? { kind: 'keep-alive' } : feedItem(frame.data);
  }
}

export interface FeedOptions {
  /** Resume after this entry id (the last one you handled): no snapshot, the entries after it first. */
  after?: string;
  /** Stops the iteration (the loop then ends quietly). */
  signal?: AbortSignal;
  /**
   * What `{"end":"shutdown"}` (the server is stopping) does: reconnect with the last id, to
   * whichever node answers (default), or end the iteration.
   */
  onShutdown?: 'reconnect' | 'end';
  /** Told every time a connection is (re)opened, with the id it resumes after (undefined: fresh). */
  onConnect?: (after: string | undefined) => void;
}

export interface FeedStreamSettings {
  transport: FeedTransport;
  token: () => string | undefined;
  /** Reconnects in a row without receiving anything before giving up (the last error throws). */
  reconnects: number;
  /** The server sends a keep-alive every 15 s: silence this long means a dead connection. */
  idleTimeoutMs: number;
  policy: RetryPolicy;
}

/** Entry ids remembered to drop a repeat (ids are opaque and not increasing: no "≤ last" test). */
const SEEN_IDS = 1000;

export class FeedStream implements AsyncIterable<FeedMessage> {
  /** Id of the last entry delivered: where a new connection resumes (undefined: none yet). */
  lastId: string | undefined;
  /** Connections opened so far (1 + reconnects). */
  connections = 0;
  private readonly seen = new Set<string>();

  constructor(
    private readonly s: FeedStreamSettings,
    private readonly opts: FeedOptions,
  ) {
    this.lastId = opts.after;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<FeedMessage> {
    const signal = this.opts.signal;
    let failures = 0;
    for (;;) {
      if (signal?.aborted) return;
      const conn = connection(signal, this.s.idleTimeoutMs, 'account feed idle');
      let failure: unknown = new Error('account feed closed without an end line');
      try {
        conn.alive();
        this.connections++;
        this.opts.onConnect?.(this.lastId);
        for await (const item of this.s.transport.open({ after: this.lastId, token: this.s.token(), signal: conn.signal })) {
          if (signal?.aborted) return; // lines already received are not delivered after an abort
          conn.alive();
          if (item.kind === 'message') {
            failures = 0;
            const m = item.message;
            if (m.type === 'snapshot') {
              yield m satisfies FeedSnapshot;
              continue;
            }
            // A resumed connection never repeats what was delivered; guard anyway.
            if (this.seen.has(m.id)) continue;
            this.remember(m.id);
            this.lastId = m.id;
            yield m satisfies FeedEntry;
          } else if (item.kind === 'end') {
            if (this.opts.onShutdown === 'end') return;
            failure = new Error('the server is shutting down');
            break;
          } else if (item.kind === 'error') {
            const problem = new EvonsProblem(item.problem);
            if (!problem.retryable) throw problem;
            failure = problem;
            break;
          }
        }
      } catch (err) {
        if (signal?.aborted) return;
        // A refusal (401, 400 invalid-cursor, …) will not change by asking again. One exception:
        // on a reconnect the server may still count the connection just cut (429 too-many-feeds).
        const busy = err instanceof EvonsProblem && err.code === 'too-many-feeds' && this.connections > 1;
        if (err instanceof EvonsProblem && !err.retryable && !busy) throw err;
        failure = err;
      } finally {
        conn.close();
      }
      if (!(await beforeReconnect(++failures, this.s.reconnects, this.s.policy, failure, signal))) return; // aborted while waiting
    }
  }

  private remember(id: string): void {
    this.seen.add(id);
    // A Set iterates in insertion order: the first one is the oldest.
    if (this.seen.size > SEEN_IDS) this.seen.delete(this.seen.values().next().value!);
  }
}
