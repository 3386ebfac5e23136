/**
 * The computer's thinking happens in worker threads (node:worker_threads), never on the thread
 * that serves requests: a pool of `size` workers, each deciding one job at a time. A job that
 * outlives its limit has its worker terminated and replaced (a hang cannot pin a core for ever),
 * and so does a worker that crashes; the job is then rejected and the runner claims it again.
 * Each worker's heap is capped (`maxHeapMb`): a search that grows past it ends that worker.
 * Its environment is NODE_ENV only (workerEnv): no DATABASE_URL, no secret of the server's.
 */
import { Worker } from 'node:worker_threads';
import type { AiJob, Decider } from './runner.js';

export interface PoolOptions {
  size: number;
  /** A job's limit, by level (ms): past it, its worker is replaced and the job fails. */
  limitMs: (job: AiJob) => number;
  /** Each worker's old-generation heap cap (MB). */
  maxHeapMb: number;
  /** The module that decides (exports `decide(job)`): the computer players by default; tests name their own. */
  deciderUrl?: string;
  /** Each worker thread's nice value (default 0: as the requests' thread). */
  nice?: number;
}

interface Slot {
  worker: Worker;
  busy: { id: number; resolve(a: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout } | null;
}

const here = import.meta.url;
/** Running from TypeScript sources (tsx, the tests): workers load them through tsx too. */
const fromSources = here.endsWith('.ts');
const ext = fromSources ? '.ts' : '.js';
const WORKER_URL = new URL(`./worker${ext}`, here).href;
export const DEFAULT_DECIDER_URL = new URL(`./decide${ext}`, here).href;

/**
 * What a worker's process.env holds: NODE_ENV alone (when set), never the server's environment
 * (DATABASE_URL and every other secret stay on the thread that serves requests). A decider needs
 * nothing of it: the engines and the search read no environment.
 */
export function workerEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return env.NODE_ENV === undefined ? {} : { NODE_ENV: env.NODE_ENV };
}

function spawn(deciderUrl: string, maxHeapMb: number, nice: number): Worker {
  const options = {
    workerData: { deciderUrl, workerUrl: WORKER_URL, nice },
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
    env: workerEnv(),
  };
  if (!fromSources) return new Worker(new URL(WORKER_URL), options);
  // A worker does not inherit the TypeScript loader: it imports the worker module through tsx's
  // API (resolved from the working directory, the repository's root, as `npm start` and the tests run).
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(WORKER_URL)}, ${JSON.stringify(here)}))`;
  return new Worker(boot, { ...options, eval: true });
}

export class WorkerPool implements Decider {
  private readonly slots: Slot[] = [];
  private readonly waiting: { job: AiJob; resolve(a: unknown): void; reject(e: Error): void }[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers replaced after a hang or a crash (tests and metrics). */
  replaced = 0;

  constructor(private readonly opts: PoolOptions) {}

  private slot(): Slot {
    const slot: Slot = { worker: spawn(this.opts.deciderUrl ?? DEFAULT_DECIDER_URL, this.opts.maxHeapMb, this.opts.nice ?? 0), busy: null };
    slot.worker.unref();
    slot.worker.on('message', (m: { id: number; action?: unknown; error?: string }) => {
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
        b.reject(new Error(`the computer player's worker ${why}`));
      }
      this.replace(slot);
    };
    slot.worker.on('error', (err) => lost(`crashed (${err.message})`));
    slot.worker.on('exit', (code) => {
      if (!this.closed) lost(`exited (${code})`);
    });
    return slot;
  }

  private replace(dead: Slot): void {
    const i = this.slots.indexOf(dead);
    if (i < 0) return;
    this.slots.splice(i, 1);
    void dead.worker.terminate().catch(() => undefined);
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
      // Hung (or far too slow): the worker goes, a fresh one takes its place.
      const b = slot.busy;
      slot.busy = null;
      b?.reject(new Error(`the computer player took longer than ${this.opts.limitMs(w.job)} ms`));
      this.replace(slot);
    }, this.opts.limitMs(w.job));
    timer.unref();
    slot.busy = { id, resolve: w.resolve, reject: w.reject, timer };
    slot.worker.postMessage({ id, job: w.job });
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
        return s.worker.terminate().catch(() => undefined);
      }),
    );
  }
}
