/**
 * A computer player's worker thread (src/service/ai/pool.ts): imports the decider module and
 * answers each job with its action, or with the kind of error it threw (never the message). It is handed an AiJob only: the
 * seat's view, legal actions and events, never a match's full state.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { AiJob } from './runner.js';

const { deciderUrl, nice } = workerData as { deciderUrl: string; nice: number };
/**
 * On Linux a nice value belongs to a thread, and setpriority() takes a thread id: this thread's
 * (/proc/thread-self is /proc/<pid>/task/<tid>) gives the search's CPU way to the thread serving
 * requests. Elsewhere (or without /proc) the worker keeps the process's priority.
 */
function lowerThreadPriority(value: number): number | null {
  if (value <= 0) return null;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, value);
    return tid;
  } catch {
    return null;
  }
}
lowerThreadPriority(nice ?? 0);
const decider = (await import(deciderUrl)) as { decide(job: AiJob): unknown };

parentPort!.on('message', (m: { id: number; job: AiJob }) => {
  try {
    parentPort!.postMessage({ id: m.id, action: decider.decide(m.job) });
  } catch (err) {
    // The error's kind only: a decider's message may quote its input, the seat's hidden cards.
    parentPort!.postMessage({ id: m.id, error: err instanceof Error ? err.name : typeof err });
  }
});
