/** The suites' harness itself (harness.ts): what useHarness's handle gives, and when. */
import { describe, expect, it } from 'vitest';
import { createHotSeat, pglite, useHarness, useSecondApp } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const messageOf = (read: () => unknown): string => {
  try {
    read();
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('useHarness', () => {
  const h = useHarness(pglite, { clock: true });
  const b = useSecondApp(h);
  // Read while the describe is collected, before any hook ran.
  const early = [messageOf(() => h.app), messageOf(() => h.baseUrl()), messageOf(() => b.http)];

  it('a field read outside the tests throws, saying when it exists', () => {
    for (const m of early) expect(m).toMatch(/outside the tests/);
  });

  it('gives a listening app on its store, and a second node on the same database and clock', async () => {
    expect(h.baseUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const m = await createHotSeat(h.http, { timeControl: { kind: 'correspondence', daysPerMove: 1 } });
    expect((await h.store.getMatch(m.id))?.id).toBe(m.id);
    h.t.now += HOUR;
    const { clock } = (await b.http.get(`/v1/matches/${m.id}`).expect(200)).body;
    expect(clock.deadline).toBe(new Date(Date.UTC(2030, 0, 1) + DAY).toISOString());
    expect(clock.remainingMs[clock.running]).toBe(DAY - HOUR);
  });
});
