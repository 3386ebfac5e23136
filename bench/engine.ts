/**
 * npm run bench:engine — for every hosted game (src/games/registry.ts), through the Ruleset
 * contract the service uses: complete random games on one core (each game's seeded random
 * player over its legal actions) and replay throughput of the finished matches. Prints figures;
 * asserts nothing (timing belongs in benchmarks, not tests).
 *   GAMES=1000 npm run bench:engine        GAME=universus npm run bench:engine
 *
 * What is timed, per game (after WARMUP untimed games of other seeds):
 * - play: GAMES complete games, seeds bench-0 … bench-(GAMES-1): create, then pending → random
 *   player → apply until the game has an outcome. Only the events' count is kept; the logs are
 *   not retained (keeping a million event objects alive made the collector, not the engine, a
 *   fifth of the figure, and a service does not keep its matches' logs in memory either).
 * - replay: `ruleset.replay(log)` of each of those GAMES matches, from its first event, with
 *   code as warm as a running service's. Untimed before it: the same seeds played again, each
 *   log kept as JSON text, and one warm-up pass (every log parsed and replayed). Then
 *   REPLAY_PASSES (default 5) timed passes, each over every log parsed afresh before the pass
 *   (untimed), as the service loads a match: events from JSON/jsonb rows, sharing nothing with a
 *   live state or with an earlier pass's copies (whose strings V8 may have hashed or interned).
 *   The median pass is reported: one pass is a fraction of a second, and a shared machine's
 *   bursts of load move single passes by a third.
 * Each timed section starts after two scavenges (untimed): the parsed logs a pass holds would
 * otherwise be copied by the scavenges replay triggers, which doubled some UniVersus passes;
 * the engine's own garbage is collected inside the timed sections as usual.
 * Figures are per second of this process's CPU time (process.cpuUsage, user + system; the
 * collector's helper threads count too), which a loaded, shared machine disturbs less than wall
 * time; wall-time figures are printed beside them.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { GAME_IDS, GAMES as RULESETS } from '../src/games/registry.js';
import { expandDeck, type AnyRuleset, type Seat } from '../src/core/ruleset.js';

const GAMES = Number(process.env.GAMES ?? 500);
const ONLY = process.env.GAME;
const WARMUP = Math.min(50, Math.ceil(GAMES / 10));
const REPLAY_PASSES = Number(process.env.REPLAY_PASSES ?? 5);

const expand = (r: AnyRuleset, i: number): string[] => expandDeck(r.starterDecks[i % r.starterDecks.length]!.cards);

/**
 * One complete random game. `log`, when given, receives the events; either way the events'
 * count is returned (the timed play phase passes no log: nothing outlives the game).
 */
function playOne(r: AnyRuleset, i: number, log?: unknown[]): { decisions: number; events: number } {
  const decks: Record<Seat, string[]> = { p1: expand(r, 0), p2: expand(r, 1) };
  const created = r.create({ config: r.configSchema.parse({}), decks, seed: `bench-${i}` });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  let events = created.events.length;
  if (log) for (const e of created.events) log.push(e);
  const choose = r.randomPlayer(`bench-player-${i}`);
  let decisions = 0;
  while (!r.outcome(state)) {
    const d = r.pending(state);
    if (!d) throw new Error(`${r.id}: no decision pending in a running game`);
    // The player chooses among the pending seat's legal actions (same choice as from legalActions).
    const res = r.apply(state, d.seat, choose(state));
    if (!res.ok) throw new Error(`${r.id}: illegal legal action: ${res.error.code} ${res.error.message}`);
    state = res.state;
    events += res.events.length;
    if (log) for (const e of res.events) log.push(e);
    decisions++;
  }
  return { decisions, events };
}

// The collector, callable (as under --expose-gc): timed sections start with young objects promoted.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
/**
 * Two scavenges: what the harness just allocated and still holds (a pass's freshly parsed logs,
 * a hundred megabytes) leaves the young generation, instead of being copied by the scavenges
 * the timed code triggers. A service loads one log at a time; a scavenge during its replay
 * copies that one log at most.
 */
const promoteYoung = (): void => {
  gc({ type: 'minor' });
  gc({ type: 'minor' });
};

/** CPU time of this process in ms (user + system). */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(
  `engine benchmark: ${GAMES} random games per game (after ${WARMUP} warm-up), one core, Node ${process.version}; rates per CPU second (wall in brackets)`,
);

for (const id of GAME_IDS.filter((g) => !ONLY || g === ONLY)) {
  const r = RULESETS[id] as AnyRuleset;
  for (let i = 0; i < WARMUP; i++) playOne(r, 1_000_000 + i);

  // Timed: play, counting events only.
  let decisions = 0;
  let totalEvents = 0;
  promoteYoung();
  const c0 = cpuMs();
  const t0 = performance.now();
  for (let i = 0; i < GAMES; i++) {
    const g = playOne(r, i);
    decisions += g.decisions;
    totalEvents += g.events;
  }
  const playWall = performance.now() - t0;
  const playCpu = cpuMs() - c0;

  // Untimed: the same games' logs, as stored (JSON text), then a warm-up pass (each log parsed
  // and replayed).
  const texts: string[] = [];
  let check = 0;
  for (let i = 0; i < GAMES; i++) {
    const log: unknown[] = [];
    check += playOne(r, i, log).events;
    texts.push(JSON.stringify(log));
  }
  if (check !== totalEvents) throw new Error(`${r.id}: the same seeds gave ${check} events, not ${totalEvents}`);
  for (const t of texts) r.replay(JSON.parse(t) as unknown[]);

  // Timed: replay, REPLAY_PASSES times over every log parsed afresh (untimed); the median pass.
  const passes: { cpu: number; wall: number }[] = [];
  for (let p = 0; p < REPLAY_PASSES; p++) {
    let logs: unknown[][] | null = texts.map((t) => JSON.parse(t) as unknown[]);
    promoteYoung();
    const c1 = cpuMs();
    const t1 = performance.now();
    for (const l of logs) r.replay(l);
    passes.push({ wall: performance.now() - t1, cpu: cpuMs() - c1 });
    logs = null;
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  const replayCpu = median(passes.map((x) => x.cpu));
  const replayWall = median(passes.map((x) => x.wall));

  const rate = (n: number, ms: number) => fmt((n / ms) * 1000);
  console.log(`${r.name}`);
  console.log(`  games/s                   ${rate(GAMES, playCpu)} (${rate(GAMES, playWall)})`);
  console.log(`  decisions/s               ${rate(decisions, playCpu)} (${rate(decisions, playWall)})`);
  console.log(`  mean decisions/game       ${(decisions / GAMES).toFixed(1)}`);
  console.log(`  mean events/game          ${(totalEvents / GAMES).toFixed(1)}`);
  console.log(`  replay: events/s          ${rate(totalEvents, replayCpu)} (${rate(totalEvents, replayWall)})`);
  console.log(`  replay: ms/finished match ${(replayCpu / GAMES).toFixed(3)} (${(replayWall / GAMES).toFixed(3)})`);
}
