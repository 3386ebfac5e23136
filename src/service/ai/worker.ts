/**
 * A computer player's worker thread (src/service/ai/pool.ts): imports the decider module and
 * answers each job with its action, or with the kind of error it threw (never the message). It is handed an AiJob only: the
 * seat's view, legal actions and events, never a match's full state.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AiJob } from './runner.js';

const { deciderUrl } = workerData as { deciderUrl: string };
const decider = (await import(deciderUrl)) as { decide(job: AiJob): unknown };

parentPort!.on('message', (m: { id: number; job: AiJob }) => {
  try {
    parentPort!.postMessage({ id: m.id, action: decider.decide(m.job) });
  } catch (err) {
    // The error's kind only: a decider's message may quote its input, the seat's hidden cards.
    parentPort!.postMessage({ id: m.id, error: err instanceof Error ? err.name : typeof err });
  }
});
