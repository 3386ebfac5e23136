/**
 * A private Evons service for the bot when it is given no --server: the real app on an
 * in-memory PGlite database, on a free local port, gone when the bot exits.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.js';
import { openStore } from '../../src/persistence/index.js';

export async function localServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const opened = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const app = await buildApp({ store: opened.store, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
}
