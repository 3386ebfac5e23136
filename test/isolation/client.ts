/**
 * The isolation suite's HTTP client: node:http with a keep-alive agent whose sockets leave from
 * one loopback address of the caller's choosing (127.0.0.2, 127.0.0.11, …). The server sees each
 * actor as its own TCP peer, so the per-address limits count the attacker and the bystander
 * apart, as they would two machines, without TRUST_PROXY or forged headers.
 *
 * Every answer is counted by status ("network" for no answer); 5xx answers keep their problem
 * body and request id for the report.
 */
import http from 'node:http';

export interface Reply {
  status: number;
  ms: number;
  text: string;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

export interface Failure {
  what: string;
  status: number | 'network';
  detail: string;
}

export class Client {
  readonly statuses: Record<string, number> = {};
  /** Problem codes seen on 4xx/5xx answers (rate-limited, too-many-seeks, …). */
  readonly codes: Record<string, number> = {};
  /** 5xx answers and network errors: what, status, problem body (request id included). */
  readonly failures: Failure[] = [];
  private readonly agent: http.Agent;

  constructor(
    readonly base: string,
    readonly localAddress: string,
    private readonly timeoutMs = 30_000,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  }

  count(status: number | string, code?: string): void {
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (code) this.codes[code] = (this.codes[code] ?? 0) + 1;
  }

  /**
   * One request; never rejects (a network error is status 0 with the error in `text`). `parse:
   * false` reads a JSON body only when it is a refusal (an attacker's large answers stay text).
   */
  call(
    method: string,
    url: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string>; parse?: boolean } = {},
  ): Promise<Reply> {
    return new Promise((resolve) => {
      const t0 = performance.now();
      const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(payload));
      }
      const req = http.request(
        this.base + url,
        { method, agent: this.agent, localAddress: this.localAddress, headers, timeout: this.timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => done(0, e.message, res.headers));
          res.on('end', () => done(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), res.headers));
        },
      );
      let finished = false;
      const done = (status: number, text: string, resHeaders: http.IncomingHttpHeaders) => {
        if (finished) return;
        finished = true;
        const ms = performance.now() - t0;
        let body: unknown = null;
        if ((opts.parse !== false || status >= 400) && /json/.test(String(resHeaders['content-type'] ?? ''))) {
          try {
            body = JSON.parse(text);
          } catch {
            body = null;
          }
        }
        const code =
          status >= 400
            ? ((body as { code?: string; errors?: { extensions?: { code?: string } }[] } | null)?.code ??
              (body as { errors?: { extensions?: { code?: string } }[] } | null)?.errors?.[0]?.extensions?.code)
            : undefined;
        this.count(status === 0 ? 'network' : status, code);
        if (status === 0 || status >= 500)
          this.failures.push({ what: `${method} ${url}`, status: status === 0 ? 'network' : status, detail: text.slice(0, 400) });
        resolve({ status, ms, text, body, headers: resHeaders });
      };
      req.on('timeout', () => req.destroy(new Error(`timed out after ${this.timeoutMs} ms`)));
      req.on('error', (e) => done(0, e.message, {}));
      req.end(payload);
    });
  }

  /**
   * A call that must answer `want` (fixture set-up): throws with the answer otherwise. `patient`:
   * a 429 is asked again after its Retry-After (set-up that meets its own budget, as a client would).
   */
  async must<T = Record<string, unknown>>(
    method: string,
    url: string,
    want: number,
    opts: { token?: string; body?: unknown; patient?: boolean } = {},
  ): Promise<T> {
    let r = await this.call(method, url, opts);
    for (let i = 0; opts.patient && r.status === 429 && i < 30; i++) {
      await pause(1_000 * Math.max(1, Number(r.headers['retry-after']) || 1));
      r = await this.call(method, url, opts);
    }
    if (r.status !== want) throw new Error(`${method} ${url}: ${r.status} (wanted ${want}) ${r.text.slice(0, 300)}`);
    return r.body as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `n` copies of `fn` until `signal` aborts (each copy loops; a thrown error ends its copy and is kept). */
export async function loops(n: number, signal: AbortSignal, fn: (i: number) => Promise<void>): Promise<void> {
  const errors: unknown[] = [];
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      while (!signal.aborted) {
        try {
          await fn(i);
        } catch (e) {
          errors.push(e);
          return;
        }
      }
    }),
  );
  if (errors.length) throw errors[0];
}

/** Runs `fn` over `items` with at most `n` at once. */
export async function pool<T, R>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

export const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
