/**
 * The bystander in a thread of its own (worker_threads): its requests, its timings and its
 * webhook receiver run on an event loop the attacker's client never touches, so a figure measures
 * the server, not the test process (with the bystander on the suite's loop, that loop's p99 delay
 * was 14-30 ms during some attacks: more than the bystander's whole read). The main thread drives
 * it: init, phases, failures, close.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { Samples } from '../../bench/lib/stats.js';
import { Bystander, type PhaseFigures } from './bystander.js';
import { Client } from './client.js';
import { Receiver } from './receiver.js';

export interface ThreadOptions {
  base: string;
  localAddress: string;
  /** Plays against the computer and times its answers. */
  ai?: boolean;
  /** Gives both seats a webhook to a fast receiver of its own and times the deliveries. */
  webhooks?: boolean;
}

type Op = { op: 'init'; handle: string } | { op: 'phase'; ms: number } | { op: 'failures' } | { op: 'close' };
type Request = { id: number } & Op;
type WirePhase = Omit<PhaseFigures, 'read' | 'move' | 'ai' | 'delivery'> & Record<'read' | 'move' | 'ai' | 'delivery', number[]>;

const HERE = import.meta.url;

if (parentPort && (workerData as { bystanderThread?: ThreadOptions } | null)?.bystanderThread) {
  const opts = (workerData as { bystanderThread: ThreadOptions }).bystanderThread;
  const port = parentPort;
  const api = new Client(opts.base, opts.localAddress);
  const receiver = opts.webhooks ? await Receiver.start(0) : undefined;
  const by = new Bystander(api, { ...(opts.ai ? { ai: true } : {}), ...(receiver ? { receiver } : {}) });
  port.on('message', (m: Request) => {
    void (async () => {
      try {
        if (m.op === 'init') {
          await by.init(m.handle);
          port.postMessage({ id: m.id, value: null });
        } else if (m.op === 'phase') {
          const f = await by.phase(m.ms);
          const wire: WirePhase = { ...f, read: f.read.all(), move: f.move.all(), ai: f.ai.all(), delivery: f.delivery.all() };
          port.postMessage({ id: m.id, value: wire });
        } else if (m.op === 'failures') {
          port.postMessage({ id: m.id, value: api.failures });
        } else {
          api.close();
          await receiver?.close();
          port.postMessage({ id: m.id, value: null });
        }
      } catch (e) {
        port.postMessage({ id: m.id, error: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
      }
    })();
  });
}

/** The main thread's handle on a bystander thread. */
export class BystanderThread {
  private next = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: { id: number; value?: unknown; error?: string }) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.error !== undefined) w.reject(new Error(`bystander thread: ${m.error}`));
      else w.resolve(m.value);
    });
    worker.on('error', (e) => {
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    });
  }

  static start(opts: ThreadOptions): BystanderThread {
    // The thread does not inherit the TypeScript loader: it imports this module through tsx's API.
    const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(HERE)}, ${JSON.stringify(HERE)}))`;
    return new BystanderThread(new Worker(boot, { eval: true, workerData: { bystanderThread: opts } }));
  }

  private call<T>(req: Op): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...req, id });
    });
  }

  init(handle: string): Promise<void> {
    return this.call({ op: 'init', handle });
  }

  async phase(ms: number): Promise<PhaseFigures> {
    const w = await this.call<WirePhase>({ op: 'phase', ms });
    return { ...w, read: Samples.of(w.read), move: Samples.of(w.move), ai: Samples.of(w.ai), delivery: Samples.of(w.delivery) };
  }

  /** The bystander's 5xx answers and network errors. */
  failures(): Promise<Client['failures']> {
    return this.call({ op: 'failures' });
  }

  async close(): Promise<void> {
    await this.call({ op: 'close' });
    await this.worker.terminate();
  }
}
