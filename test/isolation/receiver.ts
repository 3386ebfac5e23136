/**
 * The webhook receiver of the isolation suite (127.0.0.1, its own port): `/fast/…` answers 200 at
 * once and records the arrival (match, version, performance.now); `/slow/…` answers 200 after
 * `slowMs`, as an endpoint on a struggling host would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  matchId: string;
  version: number;
  at: number;
}

export class Receiver {
  readonly fast: Arrival[] = [];
  slowArrived = 0;
  slowAnswered = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: http.Server,
    readonly base: string,
    private readonly slowMs: number,
  ) {}

  static async start(slowMs: number): Promise<Receiver> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const rx = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, slowMs);
    server.on('request', (req, res) => rx.handle(req, res));
    return rx;
  }

  url(path: string): string {
    return this.base + path;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      if ((req.url ?? '').startsWith('/slow/')) {
        this.slowArrived++;
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.slowAnswered++;
          if (!res.destroyed) res.writeHead(200).end('ok');
        }, this.slowMs);
        this.timers.add(t);
        return;
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { matchId: string; version: number } };
        this.fast.push({ matchId: body.data.matchId, version: body.data.version, at });
      } catch {
        // not a delivery: ignored
      }
      res.writeHead(200).end('ok');
    });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
