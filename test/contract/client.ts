/**
 * The contract suites' harness: the real app listening on a random local port, and a client
 * generated from the committed openapi/openapi.json (openapi-typescript → generated/api.d.ts,
 * `npm run openapi:types`) through openapi-fetch. tsc checks every call against the document.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/api.js';
import { startOn, type Backend } from '../api/helpers.js';

export type Client = ReturnType<typeof createClient<paths>>;

export interface Served {
  baseUrl: string;
  client: Client;
  close(): Promise<void>;
}

export async function serve(backend: Backend): Promise<Served> {
  const h = await startOn(backend);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no TCP address');
  const baseUrl = `http://127.0.0.1:${addr.port}`;
  return { baseUrl, client: createClient<paths>({ baseUrl }), close: () => h.close() };
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
