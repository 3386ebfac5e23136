/**
 * A real local webhook receiver for the webhook suites: node:http on 127.0.0.1:0, records every
 * request (including the ones it fails), and per path can be told to answer 500 a number of
 * times, to never answer, to answer with a large body, or to hold every request until the test
 * opens a gate; otherwise 200.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The status this request was answered with (null: never answered). */
  answered: number | null;
  /** The sender tore the connection down before an answer (its timeout, say). */
  aborted: boolean;
}

/** Requests on a gated path wait, unanswered, until release() (then each is answered 200). */
export interface Gate {
  release(): void;
}

export type Step = 500 | 'hang' | 'big' | 'trickle';

export interface BigAnswer {
  /** Whether the receiver managed to write the whole large answer. */
  finished: boolean;
  closed: Promise<void>;
}

export class Receiver {
  readonly received: Received[] = [];
  readonly bigAnswers: BigAnswer[] = [];
  /** Answers sent a byte every 500 ms for 8 s (finished: the receiver got to the end). */
  readonly trickles: BigAnswer[] = [];
  private readonly plans = new Map<string, Step[]>();
  private readonly always = new Map<string, Step>();
  private readonly hanging: http.ServerResponse[] = [];
  private readonly gates = new Map<string, { open: boolean; held: (() => void)[] }>();
  private readonly arrivals = new Map<string, (r: Received) => void>();

  private constructor(
    private readonly server: http.Server,
    readonly base: string,
  ) {}

  static async start(): Promise<Receiver> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const r = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => r.handle(req, res));
    return r;
  }

  /** The next answers on `path`, in order; after them, 200. */
  plan(path: string, ...steps: Step[]): void {
    this.plans.set(path, [...(this.plans.get(path) ?? []), ...steps]);
  }

  /** Every answer on `path` from now on (null: back to 200). */
  setAlways(path: string, step: Step | null): void {
    if (step === null) this.always.delete(path);
    else this.always.set(path, step);
  }

  /** Holds every request on `path` from now on, until the returned gate is released. */
  gate(path: string): Gate {
    const g = { open: false, held: [] as (() => void)[] };
    this.gates.set(path, g);
    return {
      release: () => {
        g.open = true;
        for (const answer of g.held.splice(0)) answer();
      },
    };
  }

  /** Calls `fn` as each request on `path` arrives, before it is answered. */
  onArrival(path: string, fn: (r: Received) => void): void {
    this.arrivals.set(path, fn);
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const queue = this.plans.get(path);
      const step = this.always.get(path) ?? queue?.shift();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const rec: Received = { path, headers, body: Buffer.concat(chunks).toString('utf8'), answered: null, aborted: false };
      this.received.push(rec);
      res.on('close', () => {
        if (!res.writableFinished && rec.answered === null) rec.aborted = true;
      });
      this.arrivals.get(path)?.(rec);
      const gate = this.gates.get(path);
      if (gate && !gate.open) {
        gate.held.push(() => {
          if (res.destroyed) return;
          rec.answered = 200;
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('ok');
        });
        this.hanging.push(res);
        return;
      }
      if (step === 'hang') {
        this.hanging.push(res);
        return;
      }
      if (step === 'trickle') {
        rec.answered = 200;
        const t: BigAnswer = { finished: false, closed: new Promise((resolve) => res.on('close', () => resolve())) };
        res.on('finish', () => (t.finished = true));
        res.on('error', () => {});
        this.trickles.push(t);
        res.writeHead(200, { 'content-type': 'text/plain' });
        let left = 16;
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          if (--left > 0) return void res.write('x');
          clearInterval(timer);
          res.end('x');
        }, 500);
        return;
      }
      if (step === 'big') {
        rec.answered = 200;
        const big: BigAnswer = { finished: false, closed: new Promise((resolve) => res.on('close', () => resolve())) };
        res.on('finish', () => (big.finished = true));
        this.bigAnswers.push(big);
        res.writeHead(200, { 'content-type': 'text/plain' });
        // 16 MB, far beyond any socket buffer: only a client that reads it all lets it finish.
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let left = 256;
        const pump = () => {
          while (left > 0) {
            left--;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => {});
        pump();
        return;
      }
      rec.answered = step === 500 ? 500 : 200;
      res.writeHead(rec.answered, { 'content-type': 'text/plain' });
      res.end(step === 500 ? 'no' : 'ok');
    });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls `check` until it returns a value (not undefined/false), or throws after a generous time. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 30_000,
): Promise<Exclude<T, false | undefined | null>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false && v !== null) return v as Exclude<T, false | undefined | null>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
