/** Rate limits: a clear 429 (problem+json, Retry-After), per seat token or address; probes are exempt. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { buildApp, type App } from '../../src/app.js';
import { openStore } from '../../src/persistence/index.js';
import { bearer, expectProblem, STARTERS } from './helpers.js';

describe('rate limits', () => {
  let app: App;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    app = await buildApp({ store: opened.store, logger: false, rateLimitPerMinute: 5 });
    await app.ready();
    close = async () => {
      await app.close();
      await opened.close();
    };
  });
  afterAll(async () => close?.());

  it('the 6th request in a minute from one client is a 429 problem with Retry-After; another seat has its own budget; probes are never limited', async () => {
    const http = supertest(app.server);
    const created = await http
      .post('/v1/matches')
      .send({ handle: 'rl', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
      .expect(201);
    const { id, tokens } = created.body as { id: string; tokens: { p1: string; p2: string } };
    for (let i = 0; i < 5; i++) await http.get(`/v1/matches/${id}`).set(bearer(tokens.p1)).expect(200);
    const limited = await http.get(`/v1/matches/${id}`).set(bearer(tokens.p1));
    const p = expectProblem(limited, 429, 'rate-limited');
    expect(p.title).toBe('Too many requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await http.get(`/v1/matches/${id}`).set(bearer(tokens.p2)).expect(200);
    for (let i = 0; i < 8; i++) await http.get('/healthz').expect(200);
  });
});
