/**
 * How a match's live events reach the client. A transport opens one connection and turns what
 * arrives into items; it neither reconnects nor remembers anything (EventStream does both, the
 * same way for every transport): NDJSON (the default) and Server-Sent Events, both from
 * GET /v1/matches/{id}/stream.
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

/**
 * The same route as Server-Sent Events (`Accept: text/event-stream`): `id:` is the seq,
 * `event: match-event` carries an event, `event: end` the NDJSON form's last line, `:` lines are
 * keep-alives. A 204 is the server saying the match is over and nothing is newer. Resuming is
 * EventStream's (it asks with `after`, which the server treats like Last-Event-ID).
 */
export class SseTransport implements LiveTransport {
  constructor(private readonly api: Client<paths>) {}

  async *open(req: OpenRequest): AsyncIterable<LiveItem> {
    const { data, error, response } = await this.api.GET('/v1/matches/{id}/stream', {
      params: { path: { id: req.matchId }, query: { after: req.after } },
      headers: { accept: 'text/event-stream', ...(req.token ? { authorization: `Bearer ${req.token}` } : {}) },
      parseAs: 'stream',
      signal: req.signal,
    });
    if (response.status === 204) {
      yield { kind: 'end', reason: 'finished' };
      return;
    }
    if (error !== undefined || !data) throw EvonsProblem.from(response, error);
    for await (const frame of sseFrames(lines(data))) {
      yield frame.event === null ? { kind: 'keep-alive' } : sseItem(frame.event, frame.data);
    }
  }
}

/** One Server-Sent Events frame: a dispatched message, or (event null) a comment line. */
export interface SseFrame {
  event: string | null;
  data: string;
  id: string | undefined;
}

/** Parses SSE lines into frames (WHATWG HTML's event stream format, the fields this service sends). */
export async function* sseFrames(source: AsyncIterable<string>): AsyncIterable<SseFrame> {
  let event = 'message';
  let payload: string[] = [];
  let id: string | undefined;
  for await (const line of source) {
    if (line === '') {
      // A blank line dispatches what the frame held.
      if (payload.length > 0) yield { event, data: payload.join('\n'), id };
      event = 'message';
      payload = [];
      id = undefined;
    } else if (line.startsWith(':')) yield { event: null, data: '', id: undefined };
    else {
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') payload.push(value);
      else if (field === 'id') id = value;
    }
  }
}

/** One dispatched SSE frame as an item: an event, or the stream's last word (as in NDJSON). */
export function sseItem(event: string, data: string): LiveItem {
  if (event === 'end') return ndjsonItem(data);
  return { kind: 'event', event: JSON.parse(data) as MatchEvent };
}
