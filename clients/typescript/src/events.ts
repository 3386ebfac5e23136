/**
 * A match's live events as an async iterator that survives its connection: it remembers the
 * seq of the last event it delivered, and when the connection drops (cut, idle for too long, the
 * server shutting down, a retryable problem line) it reconnects with ?after=<that seq>, so the
 * caller sees every event it may see exactly once, in order, until the game ends.
 *
 *   for await (const e of client.events(matchId)) console.log(e.seq, e.event.type);
 */
import { EvonsProblem } from './problem.js';
import { beforeReconnect, connection } from './reconnect.js';
import type { RetryPolicy } from './retry.js';
import type { LiveTransport } from './transport.js';
import type { MatchEvent } from './types.js';

export interface EventsOptions {
  /** Start with the events whose seq is greater than this (default 0: the whole log). */
  after?: number;
  /** Stops the iteration (the loop then ends quietly). */
  signal?: AbortSignal;
}

export interface EventStreamSettings {
  transport: LiveTransport;
  matchId: string;
  token: () => string | undefined;
  /** Reconnects in a row without receiving anything before giving up (the last error throws). */
  reconnects: number;
  /** The server sends a keep-alive every 15 s: silence this long means a dead connection. */
  idleTimeoutMs: number;
  policy: RetryPolicy;
  /** Told every time a connection is (re)opened, with the `after` it asked from. */
  onConnect?: ((after: number) => void) | undefined;
}

export class EventStream implements AsyncIterable<MatchEvent> {
  /** Seq of the last event delivered: where a new connection resumes. */
  lastSeq: number;
  /** Connections opened so far (1 + reconnects). */
  connections = 0;
  private readonly signal: AbortSignal | undefined;

  constructor(
    private readonly s: EventStreamSettings,
    opts: EventsOptions,
  ) {
    this.lastSeq = opts.after ?? 0;
    this.signal = opts.signal;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<MatchEvent> {
    let failures = 0;
    for (;;) {
      if (this.signal?.aborted) return;
      const conn = connection(this.signal, this.s.idleTimeoutMs, 'event stream idle');
      let failure: unknown = new Error('event stream closed without an end line');
      try {
        conn.alive();
        this.connections++;
        this.s.onConnect?.(this.lastSeq);
        for await (const item of this.s.transport.open({
          matchId: this.s.matchId,
          after: this.lastSeq,
          token: this.s.token(),
          signal: conn.signal,
        })) {
          if (this.signal?.aborted) return; // lines already received are not delivered after an abort
          conn.alive();
          if (item.kind === 'event') {
            // A resumed connection never repeats what was delivered; guard anyway.
            if (item.event.seq <= this.lastSeq) continue;
            this.lastSeq = item.event.seq;
            failures = 0;
            yield item.event;
          } else if (item.kind === 'end') {
            if (item.reason === 'finished') return;
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
        if (this.signal?.aborted) return;
        // A refusal (404, 401, …) will not change by asking again.
        if (err instanceof EvonsProblem && !err.retryable) throw err;
        failure = err;
      } finally {
        conn.close();
      }
      if (!(await beforeReconnect(++failures, this.s.reconnects, this.s.policy, failure, this.signal))) return; // aborted while waiting
    }
  }
}
