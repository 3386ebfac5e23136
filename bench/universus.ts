/** Throughput of the UniVersus engine: random games per second and replay events per second. */
import { performance } from 'node:perf_hooks';
import { defaultConfig } from '../src/games/universus/config.js';
import { universus, type UniversusEvent } from '../src/games/universus/index.js';

const deck = (i: number): string[] => (universus.starterDecks[i]?.cards ?? []).flatMap((e) => Array<string>(e.count).fill(e.card));
const logs: UniversusEvent[][] = [];
const games = Number(process.argv[2] ?? 200);
let t = performance.now();
for (let g = 0; g < games; g++) {
  const r = universus.create({ config: defaultConfig, decks: { p1: deck(g % 3), p2: deck((g + 1) % 3) }, seed: `bench-${g}` });
  if (!r.ok) throw new Error(r.errors.join('; '));
  let state = r.state;
  const events = [...r.events];
  const pick = universus.randomPlayer(`bench-${g}`);
  while (!universus.outcome(state)) {
    const p = universus.pending(state);
    if (!p) throw new Error('stuck');
    const res = universus.apply(state, p.seat, pick(state, universus.legalActions(state, p.seat)));
    if (!res.ok) throw new Error(res.error.code);
    state = res.state;
    events.push(...res.events);
  }
  logs.push(events);
}
const playMs = performance.now() - t;
t = performance.now();
let n = 0;
for (const events of logs) {
  universus.replay(events);
  n += events.length;
}
const replayMs = performance.now() - t;
console.log(`universus: ${games} random games in ${playMs.toFixed(0)} ms = ${((games * 1000) / playMs).toFixed(0)} games/s`);
console.log(`universus: replayed ${n} events in ${replayMs.toFixed(0)} ms = ${((n * 1000) / replayMs).toFixed(0)} events/s`);
