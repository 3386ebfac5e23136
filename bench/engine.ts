/**
 * npm run bench:engine — for every hosted game (src/games/registry.ts), through the Ruleset
 * contract the service uses: complete random games on one core (each game's seeded random
 * player over its legal actions) and replay throughput of the finished matches. Prints figures;
 * asserts nothing (timing belongs in benchmarks, not tests).
 *   GAMES=1000 npm run bench:engine        GAME=universus npm run bench:engine
 */
import { GAME_IDS, GAMES as RULESETS } from '../src/games/registry.js';
import { expandDeck, type AnyRuleset, type Seat } from '../src/core/ruleset.js';

const GAMES = Number(process.env.GAMES ?? 500);
const ONLY = process.env.GAME;
const WARMUP = Math.min(50, Math.ceil(GAMES / 10));

const expand = (r: AnyRuleset, i: number): string[] => expandDeck(r.starterDecks[i % r.starterDecks.length]!.cards);

function playOne(r: AnyRuleset, i: number): { decisions: number; events: unknown[] } {
  const decks: Record<Seat, string[]> = { p1: expand(r, 0), p2: expand(r, 1) };
  const created = r.create({ config: r.configSchema.parse({}), decks, seed: `bench-${i}` });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const events: unknown[] = [...created.events];
  const choose = r.randomPlayer(`bench-player-${i}`);
  let decisions = 0;
  while (!r.outcome(state)) {
    const d = r.pending(state);
    if (!d) throw new Error(`${r.id}: no decision pending in a running game`);
    const res = r.apply(state, d.seat, choose(state, r.legalActions(state, d.seat)));
    if (!res.ok) throw new Error(`${r.id}: illegal legal action: ${res.error.code} ${res.error.message}`);
    state = res.state;
    for (const e of res.events) events.push(e);
    decisions++;
  }
  return { decisions, events };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`engine benchmark: ${GAMES} random games per game (after ${WARMUP} warm-up), one core, Node ${process.version}`);

for (const id of GAME_IDS.filter((g) => !ONLY || g === ONLY)) {
  const r = RULESETS[id] as AnyRuleset;
  for (let i = 0; i < WARMUP; i++) playOne(r, 1_000_000 + i);

  const logs: unknown[][] = [];
  let decisions = 0;
  const t0 = performance.now();
  for (let i = 0; i < GAMES; i++) {
    const g = playOne(r, i);
    decisions += g.decisions;
    logs.push(g.events);
  }
  const playMs = performance.now() - t0;

  const totalEvents = logs.reduce((n, l) => n + l.length, 0);
  const t1 = performance.now();
  for (const l of logs) r.replay(l);
  const replayMs = performance.now() - t1;

  console.log(`${r.name}`);
  console.log(`  games/s                   ${fmt((GAMES / playMs) * 1000)}`);
  console.log(`  decisions/s               ${fmt((decisions / playMs) * 1000)}`);
  console.log(`  mean decisions/game       ${(decisions / GAMES).toFixed(1)}`);
  console.log(`  mean events/game          ${(totalEvents / GAMES).toFixed(1)}`);
  console.log(`  replay: events/s          ${fmt((totalEvents / replayMs) * 1000)}`);
  console.log(`  replay: ms/finished match ${(replayMs / GAMES).toFixed(3)}`);
}
