/**
 * The real service for the client's tests: buildApp on an in-memory PGlite store, listening on
 * a free local port (as test/api/helpers.ts and the contract suite do). `dropConnections` cuts
 * every open TCP connection from the server's side, as a crashed proxy or a lost network would.
 */
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../../../src/app.js';
import { openStore } from '../../../src/persistence/index.js';
import { memoryDatabase } from '../../../test/persistence/pglite-template.js';
import { EvonsClient, type Seat } from '../src/index.js';

export const STARTERS = ['starter-verdant-quake', 'starter-storm-shade', 'starter-ember-tide'] as const;

export interface Served {
  app: App;
  baseUrl: string;
  /** Destroys every open connection (the server itself keeps running). */
  dropConnections(): number;
  close(): Promise<void>;
}

export async function serve(): Promise<Served> {
  const opened = await openStore(memoryDatabase());
  const app = await buildApp({ store: opened.store, logger: false });
  const sockets = new Set<Socket>();
  app.server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    dropConnections: () => {
      const n = sockets.size;
      for (const s of sockets) s.destroy();
      return n;
    },
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
}

/** Ann opens a match with an open seat and Ben takes it, each through their own client (which keeps its seat token). */
export async function openAndJoin(baseUrl: string, p1 = new EvonsClient({ baseUrl }), p2 = new EvonsClient({ baseUrl })) {
  const created = await p1.createMatch({ handle: 'ann', openSeat: true, decks: { p1: { starter: STARTERS[1] } } });
  await p2.joinMatch(created.id, { handle: 'ben', deck: { starter: STARTERS[0] } });
  return { id: created.id, p1, p2, clients: { p1, p2 } as Record<Seat, EvonsClient> };
}
