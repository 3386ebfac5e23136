/** A worker of bench/ai.ts: plays the games it is sent, one at a time, and posts each result. */
import { parentPort } from 'node:worker_threads';
import { playGame, type GameSpec } from './lib/ai-ladder.js';

parentPort!.on('message', (msg: { index: number; spec: GameSpec } | null) => {
  if (msg === null) {
    parentPort!.close();
    return;
  }
  try {
    parentPort!.postMessage({ index: msg.index, result: playGame(msg.spec) });
  } catch (e) {
    parentPort!.postMessage({ index: msg.index, error: e instanceof Error ? e.message : String(e) });
  }
});
