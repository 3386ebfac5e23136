/**
 * A computer player's process (src/service/ai/pool.ts): imports the decider module and answers
 * each job with its action, or with the kind of error it threw (never the message). It is handed
 * an AiJob only: the seat's view, legal actions and events, never a match's full state.
 * Arguments: the decider module's URL, then the nice value.
 */
import { execFileSync } from 'node:child_process';
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AiJob } from './runner.js';

const [deciderUrl = '', niceArg = '0'] = process.argv.slice(2);

/**
 * The search's CPU gives way to the server's. The nice value, then SCHED_IDLE for every thread of
 * this process (V8's garbage-collecting helpers among them): under Linux's EEVDF scheduler (6.6 on)
 * a nice thread still runs out its slice before a woken request thread or database backend gets
 * the core, and each request wakes several; any ordinary thread preempts a SCHED_IDLE one at once
 * (isolation attack 5 on a quiet machine, the bystander's read/move p99: 4.1x/3.5x at nice 10
 * alone, 3.2x/2.0x with SCHED_IDLE on the search's own thread). Threads started later inherit it.
 * Node has no sched_setscheduler(), so util-linux's chrt sets it; elsewhere (or without chrt) the
 * process keeps what it could get.
 */
function lowerPriority(value: number): void {
  if (!(value > 0)) return;
  try {
    setPriority(value);
  } catch {
    return;
  }
  try {
    execFileSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // No chrt here: the nice value alone.
  }
}

/**
 * A server killed outright (kill -9) cannot end its children, and a child deep in a search (or a
 * hung one) never sees its channel close: a watchdog thread ends this process once its parent is
 * gone, whatever its main thread is doing.
 */
function dieWithParent(): void {
  const watchdog = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => { if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL'); }, 1000);`,
    { eval: true, workerData: process.ppid, env: {}, resourceLimits: { maxOldGenerationSizeMb: 16 } },
  );
  watchdog.unref();
}

lowerPriority(Number(niceArg));
dieWithParent();
process.on('disconnect', () => process.exit(0));
// Listening before the decider is imported: a job sent meanwhile waits for it, not lost.
const decider = import(deciderUrl) as Promise<{ decide(job: AiJob): unknown }>;

async function answer(m: { id: number; job: AiJob }): Promise<{ id: number; action?: unknown; error?: string }> {
  try {
    return { id: m.id, action: (await decider).decide(m.job) };
  } catch (err) {
    // The error's kind only: a decider's message may quote its input, the seat's hidden cards.
    return { id: m.id, error: err instanceof Error ? err.name : typeof err };
  }
}

process.on('message', (m: { id: number; job: AiJob }) => {
  void answer(m).then((a) => process.send?.(a));
});
