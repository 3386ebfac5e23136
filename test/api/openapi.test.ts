/** openapi/openapi.json is generated from the route schemas and committed; it must be current. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderOpenapi } from '../../src/http/openapi-doc.js';
import { startApp } from './helpers.js';

describe('OpenAPI document', () => {
  it('the committed openapi/openapi.json equals what the code generates (run `npm run openapi`)', async () => {
    const committed = await readFile(new URL('../../openapi/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(await renderOpenapi());
  });

  it('is served at /openapi.json, documents problem+json errors, and /docs, /healthz, /readyz, /v1/cards and /v1/decks answer', async () => {
    const h = await startApp({ kind: 'pglite', dataDir: 'memory://' });
    try {
      const doc = (await h.http.get('/openapi.json').expect(200)).body;
      expect(doc.openapi).toBe('3.1.0');
      const post = doc.paths['/v1/matches/{id}/actions'].post;
      expect(Object.keys(post.responses['409'].content)).toEqual(['application/problem+json']);
      expect(post.security).toEqual([{ seatToken: [] }]);
      expect(doc.components.schemas.Problem).toBeDefined();
      await h.http.get('/docs/').expect(200);
      expect((await h.http.get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
      expect((await h.http.get('/readyz').expect(200)).body).toEqual({ status: 'ready' });
      const cards = (await h.http.get('/v1/cards').expect(200)).body;
      expect(cards.cards.length).toBeGreaterThan(0);
      const decks = (await h.http.get('/v1/decks').expect(200)).body;
      expect(decks.decks.map((d: { id: string }) => d.id)).toContain('starter-verdant-quake');
      const r = await h.http.get('/healthz');
      expect(r.headers['x-request-id']).toBeTruthy();
    } finally {
      await h.close();
    }
  });
});
