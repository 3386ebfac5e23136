/**
 * The benchmarks' HTTP client: node:http with a keep-alive agent, not fetch. The load generator
 * shares the 2 cores with the server and the database, and fetch cost several times more CPU per
 * request. Every answer is read whole and parsed as JSON (as a client would).
 */
import { setMaxListeners } from 'node:events';
import http from 'node:http';

export interface Reply {
  status: number;
  ms: number;
  body: unknown;
  text: string;
  headers: http.IncomingHttpHeaders;
}

export type Call = (base: string, method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: unknown) => Promise<Reply>;

/** A client whose requests all end when `stop` aborts, each within `timeoutMs`. */
export function httpClient(stop: AbortSignal, timeoutMs: number): Call {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  // Every request in flight listens on `stop`: dozens at once are the point, not a leak.
  setMaxListeners(0, stop);
  return (base, method, url, headers, body) =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        base + url,
        {
          method,
          agent,
          timeout: timeoutMs,
          headers:
            payload === undefined
              ? headers
              : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            stop.removeEventListener('abort', onAbort);
            const text = Buffer.concat(chunks).toString('utf8');
            const ms = performance.now() - t0;
            let parsed: unknown = null;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              parsed = null;
            }
            resolve({ status: res.statusCode ?? 0, ms, body: parsed, text, headers: res.headers });
          });
        },
      );
      const onAbort = () => req.destroy(new Error('benchmark stopped'));
      stop.addEventListener('abort', onAbort, { once: true });
      req.on('timeout', () => req.destroy(new Error(`request timed out after ${timeoutMs} ms`)));
      req.on('error', (e) => {
        stop.removeEventListener('abort', onAbort);
        reject(e);
      });
      req.end(payload);
    });
}
