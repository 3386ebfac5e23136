/**
 * npm run bench:pictures — render time per board picture, for every hosted game: positions taken
 * from seeded random games (through the Ruleset contract, as bench:engine), each seen by p1, p2
 * and a spectator; the SVG drawn from the match view (src/pictures), then that SVG as a PNG at the
 * default width and at the largest. Then the two endpoints on a real app (PGlite in memory), each
 * PNG request a new size so that none comes from the PNG cache. One at a time; prints p50/p95;
 * asserts nothing.
 *   POSITIONS=200 npm run bench:pictures
 */
import { GAME_IDS, GAMES } from '../src/games/registry.js';
import { expandDeck, type AnyRuleset, type Seat, type Viewer } from '../src/core/ruleset.js';
import { renderBoardSvg } from '../src/http/board-picture.js';
import { PNG_SIZE, svgToPng } from '../src/pictures/png.js';
import type { MatchView } from '../src/service/match/types.js';
import { buildApp } from '../src/app.js';
import { openStore } from '../src/persistence/index.js';
import os from 'node:os';
import { Samples } from './lib/stats.js';

const POSITIONS = Number(process.env.POSITIONS ?? 120);
const VIEWERS: Viewer[] = ['p1', 'p2', 'spectator'];

/** The match view GET /v1/matches/{id} would wrap around a game view (src/service/match/reads.ts). */
function matchViewOf(r: AnyRuleset, state: unknown, viewer: Viewer): MatchView {
  const o = r.outcome(state);
  return {
    id: 'bench',
    gameId: r.id,
    version: 1,
    status: o ? 'finished' : 'active',
    winner: o?.winner ?? null,
    seat: viewer === 'spectator' ? null : viewer,
    seats: (['p1', 'p2'] as const).map((s) => ({
      seat: s,
      handle: s === 'p1' ? 'alice' : 'bob',
      joined: true,
      verified: false,
      bot: false,
    })),
    sandbox: false,
    engineVersion: r.engineVersion,
    rulesHash: '',
    cardSetId: r.cardSet.id,
    createdAt: new Date(0).toISOString(),
    timeControl: { kind: 'none' },
    clock: null,
    outcome: o ? { winner: o.winner, reason: o.reason } : null,
    seed: null,
    game: r.view(state, viewer),
  } as MatchView;
}

/** `count` positions: random games, each sampled every few decisions until it ends. */
function positions(r: AnyRuleset, count: number): unknown[] {
  const out: unknown[] = [];
  for (let g = 0; out.length < count; g++) {
    const decks: Record<Seat, string[]> = {
      p1: expandDeck(r.starterDecks[0]!.cards),
      p2: expandDeck(r.starterDecks[1 % r.starterDecks.length]!.cards),
    };
    const created = r.create({ config: r.configSchema.parse({}), decks, seed: `bench-pictures-${g}` });
    if (!created.ok) throw new Error(created.errors.join('; '));
    let state = created.state;
    const choose = r.randomPlayer(`bench-pictures-player-${g}`);
    for (let i = 0; out.length < count; i++) {
      if (i % 7 === 0) out.push(state);
      const d = r.pending(state);
      if (!d) {
        out.push(state);
        break;
      }
      const res = r.apply(state, d.seat, choose(state, r.legalActions(state, d.seat)));
      if (!res.ok) throw new Error(res.error.message);
      state = res.state;
    }
  }
  return out;
}

const ms = (n: number) => `${n.toFixed(2)} ms`;
/** Wall time and the process's CPU time (all threads: resvg renders on libuv's pool), which another load on the machine disturbs less. */
class Timed {
  readonly wall = new Samples();
  readonly cpu = new Samples();
  async time<T>(f: () => T | Promise<T>): Promise<T> {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await f();
    this.wall.add(performance.now() - t0);
    const c = process.cpuUsage(c0);
    this.cpu.add((c.user + c.system) / 1000);
    return out;
  }
}
const line = (label: string, t: Timed) =>
  console.log(
    `  ${label.padEnd(36)} wall p50 ${ms(t.wall.percentile(50)).padStart(9)}  p95 ${ms(t.wall.percentile(95)).padStart(9)}   ` +
      `cpu p50 ${ms(t.cpu.percentile(50)).padStart(9)}  p95 ${ms(t.cpu.percentile(95)).padStart(9)}   (${t.wall.count})`,
  );

// The machines are shared: the load average says how much else ran.
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(
  `pictures benchmark: ${POSITIONS} positions per game × ${VIEWERS.length} viewers, one at a time, Node ${process.version}, ${os.cpus().length} cores, load ${load()}`,
);
for (const id of GAME_IDS) {
  const r = GAMES[id] as AnyRuleset;
  const views = positions(r, POSITIONS).flatMap((s) => VIEWERS.map((v) => matchViewOf(r, s, v)));
  for (const v of views.slice(0, 10)) await svgToPng(renderBoardSvg(v), PNG_SIZE.default); // warm-up
  const svg = new Timed();
  const pngDefault = new Timed();
  const pngMax = new Timed();
  let bytes = 0;
  let pngBytes = 0;
  for (const v of views) {
    const picture = await svg.time(() => renderBoardSvg(v));
    bytes += picture.length;
    const png = await pngDefault.time(() => svgToPng(picture, PNG_SIZE.default));
    pngBytes += png.length;
    await pngMax.time(() => svgToPng(picture, PNG_SIZE.max));
  }
  console.log(
    `${r.name}: SVG ${Math.round(bytes / views.length / 1024)} KiB, PNG ${PNG_SIZE.default} px ${Math.round(pngBytes / views.length / 1024)} KiB on average`,
  );
  line('SVG from the view', svg);
  line(`PNG from the SVG, ${PNG_SIZE.default} px wide`, pngDefault);
  line(`PNG from the SVG, ${PNG_SIZE.max} px wide`, pngMax);
}

// The endpoints: load, redact, draw (and rasterise), over app.inject on PGlite in memory.
const opened = await openStore({ kind: 'pglite', dataDir: 'memory://' });
const app = await buildApp({ store: opened.store, logger: false });
try {
  await app.ready();
  for (const game of GAME_IDS) {
    const r = GAMES[game] as AnyRuleset;
    const decks = { p1: { starter: r.starterDecks[0]!.id }, p2: { starter: r.starterDecks[1 % r.starterDecks.length]!.id } };
    const created = await app.inject({
      method: 'POST',
      url: '/v1/matches',
      payload: { game, handle: 'alice', opponentHandle: 'bob', decks },
    });
    const { id, tokens } = created.json() as { id: string; tokens: Record<Seat, string> };
    for (let i = 0; i < 30; i++) {
      const view = (await app.inject({ url: `/v1/matches/${id}` })).json() as {
        game: { pending?: { seat: Seat } | null; status?: string };
      };
      const seat = (view.game.pending as { seat?: Seat } | null)?.seat;
      if (!seat) break;
      const legal = (
        await app.inject({ url: `/v1/matches/${id}/legal-actions`, headers: { authorization: `Bearer ${tokens[seat]}` } })
      ).json() as { actions: { action: unknown }[] };
      const action = legal.actions[(i * 7919) % legal.actions.length]!.action;
      await app.inject({
        method: 'POST',
        url: `/v1/matches/${id}/actions`,
        headers: { authorization: `Bearer ${tokens[seat]}` },
        payload: { action },
      });
    }
    const svgReq = new Timed();
    const pngReq = new Timed();
    for (let i = 0; i < 100; i++) {
      const headers = i % 2 === 0 ? {} : { authorization: `Bearer ${tokens.p1}` };
      const s = await svgReq.time(() => app.inject({ url: `/v1/matches/${id}/board.svg`, headers }));
      const p = await pngReq.time(() => app.inject({ url: `/v1/matches/${id}/board.png?size=${PNG_SIZE.default - i}`, headers }));
      if (s.statusCode !== 200 || p.statusCode !== 200) throw new Error(`${s.statusCode} ${p.statusCode}`);
    }
    console.log(`${r.name} over HTTP (app.inject, PGlite, match cached):`);
    line('GET board.svg', svgReq);
    line(`GET board.png (~${PNG_SIZE.default} px, not cached)`, pngReq);
  }
  console.log(`load average at the end: ${load()}`);
} finally {
  await app.close();
  await opened.close();
}
