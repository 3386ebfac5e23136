/**
 * The contract suites' harness: the real app listening on a random local port, and a client
 * generated from the committed openapi/openapi.json (openapi-typescript → generated/api.d.ts,
 * `npm run openapi:types`) through openapi-fetch. tsc checks every call against the document.
 */
import createClient from 'openapi-fetch';
import { afterAll, beforeAll } from 'vitest';
import type { paths } from './generated/api.js';
import { useHarness, type Backend } from '../api/helpers.js';
import { contractViolations, operations } from './document.js';

export type Client = ReturnType<typeof createClient<paths>>;

export interface Served {
  baseUrl: string;
  client: Client;
  /** Every way a response so far differed from the document ("GET /v1/… 200: …"). */
  violations: string[];
}

/**
 * Registers, in the calling describe, the app on `backend` (useHarness) and a client on it;
 * returns a handle whose fields are there from the describe's beforeAll until its afterAll.
 */
export function useClient(backend: Backend): Served {
  const h = useHarness(backend);
  let current: Served | undefined;
  beforeAll(() => {
    current = clientOn(h.baseUrl());
  });
  afterAll(() => {
    current = undefined;
  });
  const field = <K extends keyof Served>(k: K): Served[K] => {
    if (!current)
      throw new Error(
        `useClient(${backend.name}).${k} was read outside the tests: it exists from the describe's beforeAll until its afterAll`,
      );
    return current[k];
  };
  return {
    get baseUrl() {
      return field('baseUrl');
    },
    get client() {
      return field('client');
    },
    get violations() {
      return field('violations');
    },
  };
}

function clientOn(baseUrl: string): Served {
  const client = createClient<paths>({ baseUrl });
  const violations: string[] = [];
  // Each response is checked against what the document declares for its operation.
  client.use({
    async onResponse({ request, response, schemaPath }) {
      const op = operations.find((o) => o.path === schemaPath && o.method === request.method);
      const where = `${request.method} ${schemaPath} ${response.status}`;
      if (!op) {
        violations.push(`${where}: no such operation in the document`);
        return;
      }
      const text = await response.clone().text();
      const contentType = response.headers.get('content-type');
      for (const v of contractViolations(op, { status: response.status, contentType, headers: response.headers, text })) {
        violations.push(`${where}: ${v}`);
      }
    },
  });
  return { baseUrl, client, violations };
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
