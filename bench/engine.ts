/**
 * npm run bench:engine — complete random games on one core (the engine's randomPlayer: uniform
 * over legalActions, ending the phase inside chains deeper than 8) and
 * replay throughput. Prints figures; asserts nothing (timing belongs in benchmarks, not tests).
 *   GAMES=1000 npm run bench:engine
 */
import { apply, createGame, DEFAULT_CONFIG, defaultCardSet, expandDeckList, legalActions, pendingDecision, randomPlayer, replay, type GameEvent } from '../src/games/evons/index.js';

const GAMES = Number(process.env.GAMES ?? 500);
const WARMUP = Math.min(50, Math.ceil(GAMES / 10));
const cardSet = defaultCardSet();
const [d1, d2] = cardSet.file.starterDecks;
const decks = { p1: expandDeckList(d1!.cards), p2: expandDeckList(d2!.cards) };

function playOne(i: number): { decisions: number; events: GameEvent[] } {
  const created = createGame({ cardSet, config: DEFAULT_CONFIG, decks, seed: `bench-${i}` });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const events = [...created.events];
  const choose = randomPlayer(`bench-player-${i}`);
  let decisions = 0;
  while (!state.result) {
    const d = pendingDecision(state)!;
    const actions = legalActions(state, d.seat);
    const r = apply(state, d.seat, choose(state, actions));
    if (!r.ok) throw new Error(`illegal legal action: ${r.error.code} ${r.error.message}`);
    state = r.state;
    for (const e of r.events) events.push(e);
    decisions++;
  }
  return { decisions, events };
}

for (let i = 0; i < WARMUP; i++) playOne(1_000_000 + i);

const logs: GameEvent[][] = [];
let decisions = 0;
const t0 = performance.now();
for (let i = 0; i < GAMES; i++) {
  const g = playOne(i);
  decisions += g.decisions;
  logs.push(g.events);
}
const playMs = performance.now() - t0;

const totalEvents = logs.reduce((n, l) => n + l.length, 0);
const t1 = performance.now();
for (const l of logs) replay(l, cardSet);
const replayMs = performance.now() - t1;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`engine benchmark: ${GAMES} random games (after ${WARMUP} warm-up), one core, Node ${process.version}`);
console.log(`  games/s                 ${fmt((GAMES / playMs) * 1000)}`);
console.log(`  decisions/s             ${fmt((decisions / playMs) * 1000)}`);
console.log(`  mean decisions/game     ${(decisions / GAMES).toFixed(1)}`);
console.log(`  mean events/game        ${(totalEvents / GAMES).toFixed(1)}`);
console.log(`  replay: events/s        ${fmt((totalEvents / replayMs) * 1000)}`);
console.log(`  replay: ms/finished match ${(replayMs / GAMES).toFixed(3)}`);
