/**
 * How a match's live events reach the client. A transport opens one connection and turns what
 * arrives into items; it neither reconnects nor remembers anything (EventStream does both, the
 * same way for every transport). NDJSON (GET /v1/matches/{id}/stream) is the one the server has
 * today; a Server-Sent Events transport implements the same interface (`id:` = seq, resuming
 * with `after` = Last-Event-ID) and needs no change elsewhere.
 */
import type { Client } from 'openapi-fetch';
import type { MatchEvent, StreamEnd, paths } from './types.js';
import { EvonsProblem, type Problem } from './problem.js';

/** One thing a live connection delivered. */
export type LiveItem =
  | { kind: 'event'; event: MatchEvent }
  /** Blank line or comment: the connection is alive. */
  | { kind: 'keep-alive' }
  /** The last line: the game is over, or this server is stopping (reconnect). */
  | { kind: 'end'; reason: 'finished' | 'shutdown' }
  /** The last line: the stream stopped with a problem (reconnect when it is retryable). */
  | { kind: 'error'; problem: Problem };

export interface OpenRequest {
  matchId: string;
  /** Deliver events whose seq is greater than this. */
  after: number;
  /** Seat or player token; none = spectator. */
  token: string | undefined;
  /** Aborted to drop the connection (caller gave up, or it went idle). */
  signal: AbortSignal;
}

export interface LiveTransport {
  /** Opens one connection. Throws EvonsProblem when the server refuses it (404, 401, …). */
  open(req: OpenRequest): AsyncIterable<LiveItem>;
}

/** Splits a byte stream into lines (\n or \r\n), the last one included when unterminated. */
export async function* lines(body: ReadableStream<Uint8Array>): AsyncIterable<string> {
  // A reader rather than `for await` over the stream: not every browser iterates streams.
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        yield buffered.slice(0, nl).replace(/\r$/, '');
        buffered = buffered.slice(nl + 1);
      }
    }
    buffered += decoder.decode();
    if (buffered) yield buffered;
  } finally {
    // Stopped early (the caller broke off): let the connection go.
    reader.cancel().catch(() => undefined);
  }
}

/** Reads the NDJSON line of the stream route into an item. */
export function ndjsonItem(line: string): LiveItem {
  if (line.trim() === '') return { kind: 'keep-alive' };
  const obj = JSON.parse(line) as MatchEvent | StreamEnd;
  if ('seq' in obj) return { kind: 'event', event: obj };
  if ('end' in obj) return { kind: 'end', reason: obj.end };
  return { kind: 'error', problem: obj.error };
}

/** GET /v1/matches/{id}/stream?after=…: one event per line, then a line that says why it ended. */
export class NdjsonTransport implements LiveTransport {
  /** `api`: the client's generated fetch client (so the route is checked against the document). */
  constructor(private readonly api: Client<paths>) {}

  async *open(req: OpenRequest): AsyncIterable<LiveItem> {
    const { data, error, response } = await this.api.GET('/v1/matches/{id}/stream', {
      params: { path: { id: req.matchId }, query: { after: req.after } },
      headers: { accept: 'application/x-ndjson', ...(req.token ? { authorization: `Bearer ${req.token}` } : {}) },
      parseAs: 'stream',
      signal: req.signal,
    });
    if (error !== undefined || !data) throw EvonsProblem.from(response, error);
    for await (const line of lines(data)) yield ndjsonItem(line);
  }
}
