/**
 * A computer player's worker thread (src/service/ai/pool.ts): imports the decider module and
 * answers each job with its action, or with the kind of error it threw (never the message). It is handed an AiJob only: the
 * seat's view, legal actions and events, never a match's full state.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { AiJob } from './runner.js';

const { deciderUrl, nice } = workerData as { deciderUrl: string; nice: number };
/**
 * On Linux a nice value belongs to a thread, and setpriority() takes a thread id: this thread's
 * (/proc/thread-self is /proc/<pid>/task/<tid>) gives the search's CPU way to the thread serving
 * requests. Under the EEVDF scheduler (Linux 6.6 on) a nice thread still runs out its slice before
 * a woken request thread or database backend gets the core, and each request wakes several: so the
 * thread also goes to SCHED_IDLE, which any ordinary thread preempts at once (isolation attack 5 on
 * a quiet machine, the bystander's read/move p99: 4.1x/3.5x at nice 10 alone, 3.2x/2.0x with it).
 * Node has no sched_setscheduler(), so util-linux's chrt sets it. Elsewhere (or without /proc or
 * chrt) the worker keeps what it could get.
 */
function lowerThreadPriority(value: number): void {
  if (value <= 0) return;
  let tid: number;
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, value);
  } catch {
    return;
  }
  try {
    execFileSync('chrt', ['--idle', '-p', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // No chrt here: the nice value alone.
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
