/**
 * Rate limits: a clear 429 (problem+json, Retry-After). The budget belongs to a verified seat
 * token, else to the address: invented or respelled tokens and failed authentications buy no
 * fresh budget. Probes are exempt, whatever their query string.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import supertest from 'supertest';
import { buildApp, type App } from '../../src/app.js';
import { openStore } from '../../src/persistence/index.js';
import { bearer, expectProblem, localHttp, STARTERS } from './helpers.js';
import { memoryDatabase } from '../persistence/pglite-template.js';

describe('rate limits', () => {
  let app: App;
  let http: ReturnType<typeof supertest>;
  let close: () => Promise<void>;
  beforeEach(async () => {
    const opened = await openStore(memoryDatabase());
    app = await buildApp({ store: opened.store, logger: false, rateLimitPerMinute: 5 });
    await app.ready();
    http = await localHttp(app);
    close = async () => {
      await app.close();
      await opened.close();
    };
  });
  afterEach(async () => close?.());

  /** Creates a hot-seat match (one request against the address's budget). */
  async function create() {
    const res = await http
      .post('/v1/matches')
      .send({ handle: 'rl', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
      .expect(201);
    return res.body as { id: string; tokens: { p1: string; p2: string } };
  }

  it('the 6th request in a minute from one seat is a 429 problem with Retry-After; another seat has its own budget', async () => {
    const { id, tokens } = await create();
    for (let i = 0; i < 5; i++) await http.get(`/v1/matches/${id}`).set(bearer(tokens.p1)).expect(200);
    const limited = await http.get(`/v1/matches/${id}`).set(bearer(tokens.p1));
    const p = expectProblem(limited, 429, 'rate-limited');
    expect(p.title).toBe('Too many requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await http.get(`/v1/matches/${id}`).set(bearer(tokens.p2)).expect(200);
  });

  it('a respelled token (case, spaces) shares its budget', async () => {
    const { id, tokens } = await create();
    for (let i = 0; i < 5; i++) await http.get(`/v1/matches/${id}`).set(bearer(tokens.p1)).expect(200);
    for (const spelling of [`bEaReR ${tokens.p1}`, `Bearer  ${tokens.p1}`, `BEARER ${tokens.p1} `]) {
      expectProblem(await http.get(`/v1/matches/${id}`).set('authorization', spelling), 429, 'rate-limited');
    }
  });

  it('invented bearer tokens count against the address, and so do failed authentications', async () => {
    const { id } = await create(); // 1 of the address's 5
    for (let i = 0; i < 4; i++) {
      const res = await http.get(`/v1/matches/${id}`).set(bearer(randomBytes(24).toString('base64url')));
      expectProblem(res, 401, 'invalid-token');
    }
    // The address's budget is spent: an anonymous request and yet another invented token are refused.
    expectProblem(await http.get(`/v1/matches/${id}`), 429, 'rate-limited');
    expectProblem(await http.get(`/v1/matches/${id}`).set(bearer(randomBytes(24).toString('base64url'))), 429, 'rate-limited');
  });

  it('health probes are never limited, with or without a query string', async () => {
    for (let i = 0; i < 8; i++) {
      await http.get('/healthz').expect(200);
      await http.get(`/healthz?probe=${i}`).expect(200);
      await http.get(`/readyz?x=${i}`).expect(200);
    }
  });
});
