/**
 * npm run bench:ai — the computer player's ladder (issue 24): for every game the computer plays,
 * level 1 against the game's random player, each level against the one below, level 8 against
 * level 1 and (Evons) against the reference bot's greedy strategy (examples/bot). Whole games
 * directly on the engines, each seat given only its view, legal actions and redacted events, on
 * WORKERS worker threads (default 2). Prints every pairing's score with its 95 % Wilson interval
 * and the Elo gap it implies, and the CPU time per computer decision per level (median, p95; only
 * decisions with a real choice). Asserts nothing: the figures are for reading.
 *
 *   AI_QUICK=1 npm run bench:ai     a quick ladder (a few games per pairing, about a minute)
 *   npm run bench:ai                the full ladder (AI_GAMES per pairing, default 200)
 *   AI_GAME=universus AI_GAMES=50 AI_SEED=mine WORKERS=2 npm run bench:ai
 *   AI_PAIRINGS=L4-L3,L5-L4 npm run bench:ai      only those pairings (the same games as in the ladder)
 *
 * Games are seeded `${AI_SEED}:${game}:${a}-${b}:${i}` (deck choice, deal, every decision), so
 * a run is reproducible; seats alternate within a pairing.
 */
import { Worker } from 'node:worker_threads';
import { BUDGETS, LEVELS, type Level, type LevelBudget } from '../src/ai/index.js';
import { playableGames } from '../src/service/ai/games.js';
import {
  eloGap,
  gamesOf,
  nameOf,
  percentile,
  wilson,
  type GameResult,
  type GameSpec,
  type Pairing,
  type PlayerSpec,
} from './lib/ai-ladder.js';

/** The ladder's pairings for one game: `games(a, b)` says how many games a pairing plays. */
export function ladder(game: string, games: (a: PlayerSpec, b: PlayerSpec) => number): Pairing[] {
  const ai = (level: Level): PlayerSpec => ({ kind: 'ai', level });
  const pairs: [PlayerSpec, PlayerSpec][] = [[ai(1), { kind: 'random' }]];
  for (const level of LEVELS.slice(1)) pairs.push([ai(level), ai((level - 1) as Level)]);
  pairs.push([ai(8), ai(1)]);
  if (game === 'evons') pairs.push([ai(8), { kind: 'bot' }]);
  return pairs.map(([a, b]) => ({ game, a, b, games: games(a, b) }));
}

/** The one-ply search of levels 1–4 with no slips, on 4 sampled worlds. */
const ONE_PLY: LevelBudget = { algorithm: 'greedy', worlds: 4, simulations: 0, maxNodes: 0, rollout: 0, candidates: 0, slips: 0 };

/**
 * How far luck caps an honest player: the one-ply search against the random player, given what
 * its seat knows (`one-ply`) and given the true state, deck order and the other hand included
 * (`oracle`, a measure only: no level of the service sees the state).
 */
export function ceiling(game: string, games: number): Pairing[] {
  return [
    // Level 1 against a uniformly random legal action: the game's own random player may lean (UniVersus's does).
    { game, a: { kind: 'ai', level: 1 }, b: { kind: 'uniform' }, games },
    { game, a: { kind: 'budget', name: 'one-ply', budget: ONE_PLY }, b: { kind: 'random' }, games },
    { game, a: { kind: 'oracle', name: 'oracle', budget: ONE_PLY }, b: { kind: 'random' }, games },
  ];
}

/** Quick mode: enough games to see each pairing play, few enough for about a minute on two cores. */
const quickGames = (a: PlayerSpec, b: PlayerSpec): number =>
  b.kind === 'random' ? 4 : a.kind === 'ai' && a.level >= 6 && b.kind === 'ai' && b.level >= 5 ? 1 : 2;

export async function runLadder(specs: GameSpec[], workers: number, onResult?: (i: number, r: GameResult) => void): Promise<GameResult[]> {
  const results: GameResult[] = new Array(specs.length);
  let next = 0;
  const run = () =>
    new Promise<void>((resolve, reject) => {
      const w = new Worker(new URL('./ai-worker.mjs', import.meta.url));
      const feed = () => {
        if (next >= specs.length) {
          w.postMessage(null);
          return;
        }
        const index = next++;
        w.postMessage({ index, spec: specs[index] });
      };
      w.on('message', (m: { index: number; result?: GameResult; error?: string }) => {
        if (m.error) {
          reject(new Error(`${specs[m.index]!.seed}: ${m.error}`));
          void w.terminate();
          return;
        }
        results[m.index] = m.result!;
        onResult?.(m.index, m.result!);
        feed();
      });
      w.on('error', reject);
      w.on('exit', () => resolve());
      feed();
    });
  await Promise.all(Array.from({ length: Math.max(1, workers) }, run));
  return results;
}

async function main(): Promise<void> {
  const quick = process.env.AI_QUICK === '1';
  const seed = process.env.AI_SEED ?? 'ladder-1';
  const workers = Number(process.env.WORKERS ?? 2);
  const perPairing = Number(process.env.AI_GAMES ?? 200);
  const only = process.env.AI_GAME;
  const games = playableGames().filter((g) => !only || g === only);
  // AI_PAIRINGS=L4-L3,L5-L4: only those pairings (names as printed, `a-b`); games are seeded per
  // pairing, so each plays exactly the games it plays in the whole ladder.
  const picked = process.env.AI_PAIRINGS?.split(',').map((x) => x.trim());
  const pairings = games
    .flatMap((g) => [...ladder(g, quick ? quickGames : () => perPairing), ...ceiling(g, quick ? 4 : perPairing)])
    .filter((p) => !picked || picked.includes(`${nameOf(p.a)}-${nameOf(p.b)}`));
  const specs: { pairing: number; spec: GameSpec }[] = pairings.flatMap((p, i) => gamesOf(p, seed).map((spec) => ({ pairing: i, spec })));
  console.log(`AI ladder (${quick ? 'quick' : 'full'}): ${specs.length} games on ${workers} worker threads, seed ${seed}`);
  console.log(
    'budgets:',
    Object.entries(BUDGETS)
      .map(
        ([l, b]) =>
          `L${l} ${b.algorithm} worlds=${b.worlds} sims=${b.simulations} nodes=${b.maxNodes} rollout=${b.rollout} cand=${b.candidates} slips=${b.slips}`,
      )
      .join('; '),
  );
  const t0 = process.hrtime.bigint();
  // Progress on stderr as each pairing finishes (the full ladder takes most of an hour).
  const left = pairings.map((p) => p.games);
  const results = await runLadder(
    specs.map((s) => s.spec),
    workers,
    (i) => {
      const k = specs[i]!.pairing;
      if (--left[k]! === 0)
        process.stderr.write(
          `done: ${pairings[k]!.game} ${nameOf(pairings[k]!.a)} v ${nameOf(pairings[k]!.b)} (${(Number(process.hrtime.bigint() - t0) / 1e9) | 0} s)\n`,
        );
    },
  );
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;

  const cpu = new Map<string, number[]>();
  console.log('\ngame       pairing        games  score   share  95% interval     Elo gap  (seeds)');
  pairings.forEach((p, i) => {
    let score = 0;
    let n = 0;
    specs.forEach((s, k) => {
      if (s.pairing !== i) return;
      const r = results[k]!;
      const aSeat = s.spec.players.p1 === p.a ? 'p1' : 'p2';
      n++;
      score += r.winner === null ? 0.5 : r.winner === aSeat ? 1 : 0;
      for (const seat of ['p1', 'p2'] as const) {
        const pl = s.spec.players[seat];
        if (pl.kind !== 'ai') continue;
        const key = `${p.game} L${pl.level}`;
        cpu.set(key, [...(cpu.get(key) ?? []), ...r.cpu[seat]]);
      }
    });
    const [lo, hi] = wilson(score, n);
    const share = n ? score / n : 0;
    const pct = (x: number) => `${(100 * x).toFixed(0)}%`.padStart(4);
    console.log(
      `${p.game.padEnd(10)} ${`${nameOf(p.a)} v ${nameOf(p.b)}`.padEnd(14)} ${String(n).padStart(5)}  ${score.toFixed(1).padStart(5)}  ${pct(share)}  [${pct(lo)}, ${pct(hi)}]  ${eloGap(share).toFixed(0).padStart(7)}  (${seed}:${p.game}:${nameOf(p.a)}-${nameOf(p.b)}:0..${n - 1})`,
    );
  });
  console.log('\nCPU per decision (decisions with two or more legal actions)');
  for (const [key, list] of [...cpu].sort()) {
    console.log(
      `${key.padEnd(16)} n=${String(list.length).padStart(6)}  median ${(percentile(list, 0.5) / 1000).toFixed(1).padStart(7)} ms  p95 ${(percentile(list, 0.95) / 1000).toFixed(1).padStart(7)} ms`,
    );
  }
  console.log(`\nwall ${wall.toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
