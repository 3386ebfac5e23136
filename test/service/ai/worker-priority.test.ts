/**
 * The computer's worker threads run at a lower priority than the thread serving requests
 * (AI_NICE): on Linux a nice value is a thread's own, so the search's CPU yields to readers and
 * movers. A real pool: after one decision, some thread of this process has the pool's nice value
 * (and, with chrt, the SCHED_IDLE policy) and the main thread still has its own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../src/service/ai/pool.js';
import type { AiJob } from '../../../src/service/ai/runner.js';

const job: AiJob = { game: 'evons', seat: 'p1', level: 1, seed: 'x', view: {}, legal: [{ type: 'pass' }], events: [] };

/** Each thread of this process: its id and one field of /proc/self/task/<tid>/stat (19: nice, 41: scheduling policy). */
function threadField(field: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
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
  it('lowers the worker threads to the nice value asked for, and only them', async () => {
    const mainNice = threadNices().get(process.pid)!;
    const wanted = Math.min(19, mainNice + 7);
    const before = [...threadNices().values()].filter((n) => n === wanted).length;
    const pool = new WorkerPool({
      size: 2,
      maxHeapMb: 256,
      limitMs: () => 60_000,
      nice: wanted,
      deciderUrl: new URL('../../fixtures/ai/env-decider.ts', import.meta.url).href,
    });
    try {
      await Promise.all([pool.decide(job), pool.decide(job)]);
      const after = [...threadNices().values()].filter((n) => n === wanted).length;
      expect(after - before).toBeGreaterThanOrEqual(2);
      expect(threadNices().get(process.pid)).toBe(mainNice);
      // And, where chrt is, SCHED_IDLE for them alone.
      if (hasChrt) {
        const idle = [...threadField(41).entries()].filter(([, policy]) => policy === SCHED_IDLE);
        expect(idle.length).toBeGreaterThanOrEqual(2);
        expect(idle.map(([tid]) => tid)).not.toContain(process.pid);
      }
    } finally {
      await pool.close();
    }
  });
});
