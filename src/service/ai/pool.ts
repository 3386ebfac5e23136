/**
 * The computer's thinking happens in child processes, never on the process that serves requests:
 * a pool of `size` of them, each deciding one job at a time. Processes, not worker threads: a
 * search allocates fast, and a worker thread's garbage is collected by V8's helper threads, which
 * the worker shares with the requests' thread at the requests' priority (isolation attack 5: the
 * four helpers took about one core while three SCHED_IDLE workers searched). A child's helpers
 * are its own, and the child lowers all of its threads (./worker.ts).
 * A job that outlives its limit has its process killed and replaced (a hang cannot pin a core for
 * ever), and so does a process that crashes; the job is then rejected and the runner claims it
 * again. Each child's heap is capped (`maxHeapMb`): a search that grows past it ends that child.
 * Its environment is NODE_ENV only (workerEnv): no DATABASE_URL, no secret of the server's; its
 * output goes nowhere (a crash's message may quote the seat's hand).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AiJob, Decider } from './runner.js';

export interface PoolOptions {
  size: number;
  /** A job's limit, by level (ms): past it, its process is replaced and the job fails. */
  limitMs: (job: AiJob) => number;
  /** Each process's old-generation heap cap (MB). */
  maxHeapMb: number;
  /** The module that decides (exports `decide(job)`): the computer players by default; tests name their own. */
  deciderUrl?: string;
  /** Each process's nice value (default 0: as the requests' process; above 0 also SCHED_IDLE, ./worker.ts). */
  nice?: number;
}

interface Slot {
  child: ChildProcess;
  busy: { id: number; resolve(a: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout } | null;
}

const here = import.meta.url;
/** Running from TypeScript sources (tsx, the tests): the children load them through tsx too. */
const fromSources = here.endsWith('.ts');
const ext = fromSources ? '.ts' : '.js';
const WORKER_PATH = fileURLToPath(new URL(`./worker${ext}`, here));
export const DEFAULT_DECIDER_URL = new URL(`./decide${ext}`, here).href;

/**
 * What a child's process.env holds: NODE_ENV alone (when set), never the server's environment
 * (DATABASE_URL and every other secret stay with the process that serves requests). A decider
 * needs nothing of it: the engines and the search read no environment.
 */
export function workerEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return env.NODE_ENV === undefined ? {} : { NODE_ENV: env.NODE_ENV };
}

function spawn(deciderUrl: string, maxHeapMb: number, nice: number): ChildProcess {
  // The server's own flags (a profiler, an inspector) are not the children's: only the heap cap,
  // and tsx's loader when running from sources (resolved from here, whatever the working directory).
  const execArgv = [`--max-old-space-size=${maxHeapMb}`, ...(fromSources ? ['--import', import.meta.resolve('tsx')] : [])];
  return fork(WORKER_PATH, [deciderUrl, String(nice)], {
    execArgv,
    env: workerEnv(),
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
}

export class WorkerPool implements Decider {
  private readonly slots: Slot[] = [];
  private readonly waiting: { job: AiJob; resolve(a: unknown): void; reject(e: Error): void }[] = [];
  private nextId = 1;
  private closed = false;
  /** Processes replaced after a hang or a crash (tests and metrics). */
  replaced = 0;

  constructor(private readonly opts: PoolOptions) {}

  /** The children's process ids (tests). */
  pids(): number[] {
    return this.slots.flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid]));
  }

  private slot(): Slot {
    const child = spawn(this.opts.deciderUrl ?? DEFAULT_DECIDER_URL, this.opts.maxHeapMb, this.opts.nice ?? 0);
    const slot: Slot = { child, busy: null };
    // The pool does not keep the server running; close() ends the children.
    child.unref();
    child.channel?.unref();
    child.on('message', (m: { id: number; action?: unknown; error?: string }) => {
      const b = slot.busy;
      if (!b || b.id !== m.id) return;
      clearTimeout(b.timer);
      slot.busy = null;
      if (m.error !== undefined) b.reject(new Error(`the computer player failed: ${m.error} thrown`));
      else b.resolve(m.action);
      this.next(slot);
    });
    const lost = (why: string) => {
      const b = slot.busy;
      slot.busy = null;
      if (b) {
        clearTimeout(b.timer);
        b.reject(new Error(`the computer player's process ${why}`));
      }
      this.replace(slot);
    };
    child.on('error', (err) => lost(`failed (${err.message})`));
    child.on('exit', (code, signal) => {
      if (!this.closed) lost(`exited (${code ?? signal})`);
    });
    return slot;
  }

  private replace(dead: Slot): void {
    const i = this.slots.indexOf(dead);
    if (i < 0) return;
    this.slots.splice(i, 1);
    dead.child.kill('SIGKILL');
    if (this.closed) return;
    this.replaced++;
    const fresh = this.slot();
    this.slots.push(fresh);
    this.next(fresh);
  }

  decide(job: AiJob): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the computer players are stopping'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      while (this.slots.length < this.opts.size) this.slots.push(this.slot());
      const idle = this.slots.find((s) => !s.busy);
      if (idle) this.next(idle);
    });
  }

  private next(slot: Slot): void {
    const w = this.waiting.shift();
    if (!w || this.closed) return;
    const id = this.nextId++;
    const timer = setTimeout(() => {
      // Hung (or far too slow): the process goes, a fresh one takes its place.
      const b = slot.busy;
      slot.busy = null;
      b?.reject(new Error(`the computer player took longer than ${this.opts.limitMs(w.job)} ms`));
      this.replace(slot);
    }, this.opts.limitMs(w.job));
    timer.unref();
    slot.busy = { id, resolve: w.resolve, reject: w.reject, timer };
    // A child that died meanwhile: its exit event replaces it and rejects this job.
    slot.child.send({ id, job: w.job }, (err) => {
      if (err && slot.busy?.id === id) slot.child.kill('SIGKILL');
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('the computer players are stopping'));
    await Promise.all(
      this.slots.splice(0).map((s) => {
        if (s.busy) {
          clearTimeout(s.busy.timer);
          s.busy.reject(new Error('the computer players are stopping'));
        }
        return ended(s.child);
      }),
    );
  }
}

/** Kills a child and resolves once it has exited. */
function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
