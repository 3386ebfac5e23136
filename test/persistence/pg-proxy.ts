/**
 * A TCP proxy in front of PostgreSQL that a test can cut (connections reset, new ones refused:
 * a restart or a crash) or hang (bytes swallowed: a SIGSTOPped or partitioned server).
 */
import net from 'node:net';

export type ProxyMode = 'pass' | 'cut' | 'hang';

export interface PgProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  set(mode: ProxyMode): void;
  close(): Promise<void>;
}

export async function startPgProxy(target: { host: string; port: number }): Promise<PgProxy> {
  let mode: ProxyMode = 'pass';
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    if (mode === 'cut') return void client.resetAndDestroy();
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (d) => {
      if (mode === 'pass') upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (mode === 'pass') client.write(d);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    set(next) {
      mode = next;
      if (next !== 'cut') return;
      for (const [c, u] of [...pairs]) {
        c.resetAndDestroy();
        u.destroy();
      }
    },
    async close() {
      mode = 'cut';
      for (const [c, u] of [...pairs]) {
        c.destroy();
        u.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
