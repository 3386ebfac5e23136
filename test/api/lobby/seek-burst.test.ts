/**
 * A burst of seeks to one pool keeps its waiters off the connection pool (issue 33): on one node
 * the posts queue in memory and at most one at a time holds a pooled connection waiting on the
 * pool's advisory lock. Before, every pooled connection waited on that one lock during a burst
 * of 100 seeks and unrelated requests got 503. Sampled from pg_stat_activity while 30 players
 * post at once (PostgreSQL: PGlite has one connection).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { STARTERS, backends, bearer, useHarness } from '../helpers.js';

const postgres = backends.find((b) => b.name === 'postgres')!;
const corr = { kind: 'correspondence', daysPerMove: 2 };

describe.skipIf(postgres.skipReason !== null)('a burst of seeks [postgres]', () => {
  const h = useHarness(postgres);

  it('holds at most one pooled connection waiting on the pool lock, and pairs everyone', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 30; i++)
      tokens.push(
        (
          await h.http
            .post('/v1/players')
            .send({ handle: `burst-${randomBytes(4).toString('hex')}` })
            .expect(201)
        ).body.token,
      );
    const url = (h.config as { url: string }).url;
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    let most = 0;
    let sampling = true;
    const sample = (async () => {
      while (sampling) {
        const { rows } = await watcher.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        );
        most = Math.max(most, rows[0]!.n);
      }
    })();
    try {
      const answers = await Promise.all(
        tokens.map((t) =>
          h.http
            .post('/v1/seeks')
            .set(bearer(t))
            .send({ timeControl: corr, deck: { starter: STARTERS[0] } }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(tokens.map(() => 201));
      expect(answers.filter((a) => a.body.status === 'paired')).toHaveLength(15);
    } finally {
      sampling = false;
      await sample;
      await watcher.end();
    }
    expect(most).toBeLessThanOrEqual(1);
  }, 120_000);
});
