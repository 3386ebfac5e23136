/**
 * Renders the OpenAPI document from the Zod route schemas, without a database. Beside app.ts, not
 * in http/: it builds the whole app, and nothing below the composition root imports that.
 */
import { buildApp } from './app.js';
import type { MatchStore } from './persistence/types.js';

const noStore = new Proxy({} as MatchStore, {
  get: (_t, prop) => {
    if (prop === 'then') return undefined;
    return () => {
      throw new Error(`the OpenAPI renderer has no store (called ${String(prop)})`);
    };
  },
});

/** The document as committed in openapi/openapi.json: pretty-printed, trailing newline. */
export async function renderOpenapi(): Promise<string> {
  const app = await buildApp({ store: noStore, webhooks: { worker: false }, ai: false });
  try {
    await app.ready();
    return JSON.stringify(app.swagger(), null, 2) + '\n';
  } finally {
    await app.close();
  }
}
