/**
 * The default decider module the computer's workers load (src/service/ai/worker.ts): the levelled
 * search of src/ai, given what the seat may know. The job's events are the API's objects (the
 * match's own records among them); the search reads the game's events, as the seat saw them.
 */
import { decide as search, isLevel, type AiInput } from '../../ai/index.js';
import { playableGame } from './games.js';
import type { AiJob } from './runner.js';

export function decide(job: AiJob): unknown {
  const game = playableGame(job.game);
  if (!game) throw new Error(`the computer cannot play ${job.game}`);
  if (!isLevel(job.level)) throw new Error(`no computer level ${job.level}`);
  const input: AiInput<unknown, { type: string }> = {
    view: job.view,
    seat: job.seat,
    legal: job.legal as { type: string }[],
    events: job.events.filter((e) => e.source === 'game').map((e) => e.event) as AiInput<unknown, { type: string }>['events'],
  };
  return search(game, input, job.level, job.seed);
}
