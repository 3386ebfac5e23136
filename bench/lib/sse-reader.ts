/**
 * A small Server-Sent Events reader over node:http, for the tests and bench/live.ts: parses the
 * stream as the WHATWG spec says (fields id/event/data, `:` comments, a blank line dispatches),
 * and keeps each message with the time it arrived. Not a client library: no reconnection.
 */
import http from 'node:http';

export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
  /** performance.timeOrigin + performance.now() when the message was complete. */
  receivedAt: number;
}

export interface SseStream {
  /** Status and headers, once the response has started. */
  response: Promise<{ status: number; headers: http.IncomingHttpHeaders }>;
  messages: SseMessage[];
  /** Comment lines received (keep-alives). */
  comments: string[];
  /** The raw body, for non-SSE answers (problems) and checks. */
  body(): string;
  /** Resolves when the server ends the response (or the connection drops). */
  ended: Promise<void>;
  /** Called for each message as it arrives. */
  onMessage: ((m: SseMessage) => void) | null;
  /** Drops the connection (a client going away). */
  close(): void;
}

export const nowMs = (): number => performance.timeOrigin + performance.now();

export function openSse(url: string, headers: Record<string, string> = {}): SseStream {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  let raw = '';
  let buf = '';
  let id: string | undefined;
  let event = '';
  let data: string[] = [];
  let req: http.ClientRequest | null = null;
  const stream: SseStream = {
    messages,
    comments,
    body: () => raw,
    onMessage: null,
    close: () => req?.destroy(),
    response: null as never,
    ended: null as never,
  };
  const line = (l: string) => {
    if (l === '') {
      if (data.length > 0 || event !== '') {
        const m: SseMessage = { id, event: event || 'message', data: data.join('\n'), receivedAt: nowMs() };
        messages.push(m);
        stream.onMessage?.(m);
      }
      event = '';
      data = [];
      return;
    }
    if (l.startsWith(':')) {
      comments.push(l.slice(1).trim());
      return;
    }
    const i = l.indexOf(':');
    const field = i < 0 ? l : l.slice(0, i);
    const value = i < 0 ? '' : l.slice(i + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  let started: (v: { status: number; headers: http.IncomingHttpHeaders }) => void;
  let failed: (e: unknown) => void;
  stream.response = new Promise((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  stream.ended = new Promise<void>((resolve) => {
    req = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      started({ status: res.statusCode ?? 0, headers: res.headers });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buf += chunk;
        let i: number;
        while ((i = buf.search(/\r\n|\r|\n/)) >= 0) {
          const l = buf.slice(0, i);
          buf = buf.slice(i + (buf.startsWith('\r\n', i) ? 2 : 1));
          line(l);
        }
      });
      res.on('end', resolve);
      res.on('close', resolve);
      res.on('error', () => resolve());
    });
    req.on('error', (e) => {
      failed(e);
      resolve();
    });
  });
  return stream;
}
