/**
 * Refusals past a few a second are answered after a pause (src/http/refusal-pauses.ts), and the
 * addresses of RATE_LIMIT_EXEMPT are not counted by the request ceilings. No timing is asserted:
 * the pauses are counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../src/app.js';
import { openStore } from '../../../src/persistence/index.js';
import { FREE_REFUSALS_PER_SECOND, MAX_HELD, RefusalPauses } from '../../../src/http/refusal-pauses.js';
import { memoryDatabase } from '../../persistence/pglite-template.js';
import { STARTERS } from '../helpers.js';

describe('refusal pauses', () => {
  it('the first few refusals a second go at once, the rest wait; at most MAX_HELD wait at once per address', async () => {
    const p = new RefusalPauses(5);
    for (let i = 0; i < FREE_REFUSALS_PER_SECOND; i++) await p.hold('a', 1, 0);
    expect(p.stats.paused).toBe(0);
    await p.hold('a', 1, 0);
    expect(p.stats.paused).toBe(1);
    // Another address has its own few.
    await p.hold('b', 1, 0);
    expect(p.stats.paused).toBe(1);
    // Past MAX_HELD waiting at once, a refusal goes at once.
    const waiting = Array.from({ length: MAX_HELD + 3 }, () => p.hold('a', null, 0));
    await Promise.all(waiting);
    expect(p.stats).toEqual({ paused: 1 + MAX_HELD, heldPast: 3 });
    // A pause of 0 holds nothing.
    const off = new RefusalPauses(0);
    for (let i = 0; i < 20; i++) await off.hold('a', 1, 0);
    expect(off.stats.paused).toBe(0);
  });
});

describe('refusals over HTTP', () => {
  let app: App | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await app?.close();
    await close?.();
    app = undefined;
    close = undefined;
  });

  async function start(exempt: string[]) {
    const opened = await openStore(memoryDatabase());
    close = () => opened.close();
    // The service's clock stands still, so that the few free refusals of a second never refill, however slow the machine.
    app = await buildApp({
      store: opened.store,
      logger: false,
      now: () => 1_700_000_000_000,
      rateLimitPerMinute: 3,
      budgets: { perAddressPerMinute: 3, refusalPauseMs: 1, exempt },
    });
    return app;
  }
  const create = (a: App, remoteAddress: string) =>
    a.inject({
      method: 'POST',
      url: '/v1/matches',
      remoteAddress,
      payload: { handle: 'rp', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } },
    });

  it('a flood of 429s from one address is paused past the free few; the others still answer 429 with Retry-After', async () => {
    const a = await start([]);
    const statuses: number[] = [];
    for (let i = 0; i < 3 + FREE_REFUSALS_PER_SECOND + 4; i++) {
      const r = await create(a, '10.0.0.1');
      statuses.push(r.statusCode);
      if (r.statusCode === 429) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(FREE_REFUSALS_PER_SECOND + 4);
    expect(a.budgets.refusals.stats.paused).toBe(4);
  });

  it('an exempt address is counted by neither request ceiling; its neighbour is', async () => {
    const a = await start(['10.0.0.0/24', '::1']);
    for (let i = 0; i < 6; i++) expect((await create(a, '10.0.0.7')).statusCode).toBe(201);
    for (let i = 0; i < 6; i++) expect((await create(a, '::1')).statusCode).toBe(201);
    const other = [];
    for (let i = 0; i < 4; i++) other.push((await create(a, '10.0.1.7')).statusCode);
    expect(other).toEqual([201, 201, 201, 429]);
  });
});
