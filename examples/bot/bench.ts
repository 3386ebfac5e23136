/**
 * npm run bench:bot — greedy against random: MATCHES (default 200) matches played directly
 * against the engine (the same observations the API gives each seat), then API_MATCHES
 * (default 10) through the real service (in process, in-memory PGlite) and the typed client.
 * The bot alternates seats (the first player has an edge) and deck pairings. Prints the win
 * rate with its 95 % Wilson interval; asserts nothing (examples/bot/test holds the tests).
 *   MATCHES=500 API_MATCHES=0 npm run bench:bot
 */
import { EvonsClient, type Seat, type StarterDeckId } from '../../clients/typescript/src/index.js';
import { playInEngine, STARTER_IDS } from './arena.js';
import { localServer } from './local-server.js';
import { playMatch } from './play.js';
import { greedy, random } from './strategies.js';

const MATCHES = Number(process.env.MATCHES ?? 200);
const API_MATCHES = Number(process.env.API_MATCHES ?? 10);
const SEED = process.env.SEED ?? 'bench';

interface Tally {
  won: number;
  drawn: number;
  lost: number;
  asP1: number;
  asP2: number;
}

/** Match i: the bot's seat and both decks (every ordered pair of starters, both seats). */
function setup(i: number): { seat: Seat; decks: Record<Seat, string> } {
  const seat: Seat = i % 2 === 0 ? 'p1' : 'p2';
  const pair = Math.floor(i / 2) % (STARTER_IDS.length * STARTER_IDS.length);
  return { seat, decks: { p1: STARTER_IDS[pair % STARTER_IDS.length]!, p2: STARTER_IDS[Math.floor(pair / STARTER_IDS.length)]! } };
}

function count(t: Tally, seat: Seat, winner: Seat | null): void {
  if (winner === seat) {
    t.won++;
    if (seat === 'p1') t.asP1++;
    else t.asP2++;
  } else if (winner === null) t.drawn++;
  else t.lost++;
}

/** 95 % Wilson score interval of a proportion. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.96;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [centre - half, centre + half];
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function report(label: string, t: Tally, n: number, ms: number): void {
  const [lo, hi] = wilson(t.won, n);
  console.log(`${label}: greedy won ${t.won} of ${n} (${pct(t.won / n)}, 95 % CI ${pct(lo)}–${pct(hi)}), drew ${t.drawn}, lost ${t.lost}`);
  console.log(`  won as p1 ${t.asP1} of ${Math.ceil(n / 2)}, as p2 ${t.asP2} of ${Math.floor(n / 2)}; ${(ms / n).toFixed(0)} ms per match`);
}

console.log(`greedy vs random, Node ${process.version}`);

const engine: Tally = { won: 0, drawn: 0, lost: 0, asP1: 0, asP2: 0 };
let t0 = performance.now();
let decisions = 0;
for (let i = 0; i < MATCHES; i++) {
  const { seat, decks } = setup(i);
  const other: Seat = seat === 'p1' ? 'p2' : 'p1';
  const r = playInEngine(
    { [seat]: greedy(`${SEED}:g:${i}`), [other]: random(`${SEED}:r:${i}`) } as Record<Seat, ReturnType<typeof greedy>>,
    { seed: `${SEED}:match:${i}`, decks },
  );
  decisions += r.decisions;
  count(engine, seat, r.winner);
}
if (MATCHES > 0) {
  report(`engine, ${MATCHES} matches`, engine, MATCHES, performance.now() - t0);
  console.log(`  ${(decisions / MATCHES).toFixed(0)} decisions per match`);
}

if (API_MATCHES > 0) {
  const server = await localServer();
  const api: Tally = { won: 0, drawn: 0, lost: 0, asP1: 0, asP2: 0 };
  t0 = performance.now();
  try {
    for (let i = 0; i < API_MATCHES; i++) {
      const { seat, decks } = setup(i);
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const bot = new EvonsClient({ baseUrl: server.baseUrl });
      const opponent = new EvonsClient({ baseUrl: server.baseUrl });
      const created = await bot.createMatch({
        handle: 'greedy',
        seat,
        openSeat: true,
        decks: { [seat]: { starter: decks[seat] as StarterDeckId } },
      });
      await opponent.joinMatch(created.id, { handle: 'random', deck: { starter: decks[other] as StarterDeckId } });
      const [final] = await Promise.all([
        playMatch(bot, created.id, greedy(`${SEED}:api:g:${i}`)),
        playMatch(opponent, created.id, random(`${SEED}:api:r:${i}`)),
      ]);
      count(api, seat, final.winner);
    }
  } finally {
    await server.close();
  }
  report(`through the API (typed client, in-process server, PGlite), ${API_MATCHES} matches`, api, API_MATCHES, performance.now() - t0);
}
