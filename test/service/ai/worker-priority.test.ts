/**
 * The computer's processes run at a lower priority than the process serving requests (AI_NICE),
 * every thread of them (V8's garbage-collecting helpers too), so the search's CPU yields to readers
 * and movers. A real pool: after one decision each child's main thread has the pool's nice value,
 * with chrt every thread of each child is SCHED_IDLE, and this process keeps its own.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { WorkerPool } from '../../../src/service/ai/pool.js';
import type { AiJob } from '../../../src/service/ai/runner.js';

const job: AiJob = { game: 'evons', seat: 'p1', level: 1, seed: 'x', view: {}, legal: [{ type: 'pass' }], events: [] };

/** Each thread of a process: its id and one field of /proc/<pid>/task/<tid>/stat (19: nice, 41: scheduling policy). */
function threadField(field: number, pid: number | 'self' = 'self'): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // The fields after the command's closing parenthesis start at field 3.
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[field - 3]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}
const threadNices = () => threadField(19);
/** SCHED_IDLE's number in the policy field. */
const SCHED_IDLE = 5;
const hasChrt = (() => {
  try {
    execFileSync('chrt', ['--help'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!existsSync('/proc/thread-self'))("the computer's worker priority", () => {
  it("lowers every thread of the computer's processes, and only theirs", async () => {
    const mainNice = threadNices().get(process.pid)!;
    const mainPolicies = [...threadField(41).values()];
    const wanted = Math.min(19, mainNice + 7);
    const pool = new WorkerPool({
      size: 2,
      maxHeapMb: 256,
      limitMs: () => 60_000,
      nice: wanted,
      deciderUrl: new URL('../../fixtures/ai/env-decider.ts', import.meta.url).href,
    });
    try {
      await Promise.all([pool.decide(job), pool.decide(job)]);
      const children = pool.pids();
      expect(children).toHaveLength(2);
      for (const pid of children) {
        expect(threadField(19, pid).get(pid)).toBe(wanted);
        // Where chrt is, SCHED_IDLE for each of the child's threads (more than its main one).
        if (hasChrt) {
          const policies = [...threadField(41, pid).values()];
          expect(policies.length).toBeGreaterThan(1);
          expect(policies.every((p) => p === SCHED_IDLE)).toBe(true);
        }
      }
      expect(threadNices().get(process.pid)).toBe(mainNice);
      expect([...threadField(41).values()].filter((p) => p === SCHED_IDLE).length).toBe(
        mainPolicies.filter((p) => p === SCHED_IDLE).length,
      );
    } finally {
      await pool.close();
    }
  });

  it('a child outlives neither a close of its pool nor a parent killed outright', async () => {
    const pool = new WorkerPool({
      size: 1,
      maxHeapMb: 256,
      limitMs: () => 60_000,
      deciderUrl: new URL('../../fixtures/ai/env-decider.ts', import.meta.url).href,
    });
    await pool.decide(job);
    const [pid] = pool.pids();
    expect(existsSync(`/proc/${pid}`)).toBe(true);
    await pool.close();
    expect(existsSync(`/proc/${pid}`)).toBe(false);

    // A parent killed outright while its child spins in a search: the child's watchdog ends it.
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../../fixtures/ai/pool-parent.ts', import.meta.url))],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const orphan = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    expect(existsSync(`/proc/${orphan}`)).toBe(true);
    parent.kill('SIGKILL');
    await vi.waitFor(() => expect(existsSync(`/proc/${orphan}`)).toBe(false), { timeout: 60_000, interval: 100 });
  });
});
