/**
 * The computer's worker threads get only what they need of the environment (issue 34 item 9):
 * never DATABASE_URL or any other secret of the server's, whatever the server was started with.
 * A real pool, a real worker: its decider answers with the names its process.env holds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../src/service/ai/pool.js';
import type { AiJob } from '../../../src/service/ai/runner.js';

const job: AiJob = { game: 'evons', seat: 'p1', level: 1, seed: 'x', view: {}, legal: [{ type: 'pass' }], events: [] };

describe("the computer's worker environment", () => {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, EVONS_TEST_SECRET: process.env.EVONS_TEST_SECRET };
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('holds no DATABASE_URL nor any other variable of the server, NODE_ENV aside', async () => {
    process.env.DATABASE_URL = 'postgres://postgres:secret@127.0.0.1:5432/evons';
    process.env.EVONS_TEST_SECRET = 'do-not-inherit';
    const pool = new WorkerPool({
      size: 1,
      maxHeapMb: 256,
      limitMs: () => 60_000,
      deciderUrl: new URL('../../fixtures/ai/env-decider.ts', import.meta.url).href,
    });
    try {
      const answer = (await pool.decide(job)) as { names: string[] };
      expect(answer.names).not.toContain('DATABASE_URL');
      expect(answer.names).not.toContain('EVONS_TEST_SECRET');
      expect(answer.names.filter((n) => n !== 'NODE_ENV')).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
