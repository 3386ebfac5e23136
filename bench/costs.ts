/**
 * npm run bench:costs — what each costly operation costs the server, against what it is charged
 * (src/service/work-costs.ts: one work unit ≈ 1 ms of server CPU). The app runs in this process
 * on PGlite (in memory) with every budget off; each operation runs REPEAT times one after another
 * through app.inject, and the process's CPU time (user + system) over them is its cost. The size
 * of its work (events replayed or read, pixels, rows, cells, KiB) is counted from the answer, so
 * the table shows the measured milliseconds per unit of work beside the rate charged, and their
 * ratio (charged ÷ measured: at least 1 means the rate does not undercharge on this machine).
 * Prints figures; asserts nothing.
 *
 *   npm run bench:costs
 *   QUICK=1 npm run bench:costs      (seconds: fewer repeats, a shorter match)
 *   ONLY=myTurn npm run bench:costs  (the rows whose name holds ONLY)
 *
 * Environment: REPEAT (default 20; QUICK 3), MOVES (actions played in the long match, default
 * 400; QUICK 60), PLAYERS (tournament entrants, default 200; QUICK 24).
 */
import os from 'node:os';
import { buildApp } from '../src/app.js';
import { openStore } from '../src/persistence/index.js';
import { AI_DECISION_UNITS, WORK_RATES } from '../src/service/work-costs.js';
import { LARGE_DOCUMENT_CHARS } from '../src/graphql/limits.js';
import { exportMatch } from '../src/service/match/export.js';
import { fmtMs, table } from './lib/stats.js';
import { rawSocket, waitFor } from './lib/graphql-ws.js';
import { MY_TURN_WINDOW } from '../src/graphql/subscriptions.js';

const QUICK = process.env.QUICK === '1';
const num = (v: string | undefined, d: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? d : Number(v));
const REPEAT = Math.max(1, num(process.env.REPEAT, QUICK ? 3 : 20));
const MOVES = Math.max(10, num(process.env.MOVES, QUICK ? 60 : 400));
const PLAYERS = Math.max(4, num(process.env.PLAYERS, QUICK ? 24 : 200));

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const opened = await openStore({ kind: 'pglite', dataDir: 'memory://' });
// Every past read replays from event 1 (no checkpoints): the cost per event replayed, not a cache's.
const app = await buildApp({ store: opened.store, logger: false, timeTravelCheckpoints: 0 });
const auth = (t: string) => ({ authorization: `Bearer ${t}` });

async function json<T>(res: Promise<{ statusCode: number; body: string }>, what: string): Promise<T> {
  const r = await res;
  if (r.statusCode >= 300) throw new Error(`${what}: ${r.statusCode} ${r.body.slice(0, 200)}`);
  return JSON.parse(r.body) as T;
}

// A long hot-seat match: the first legal action of whoever is to move, MOVES times (or to its end).
const created = await json<{ id: string; tokens: Record<'p1' | 'p2', string> }>(
  app.inject({
    method: 'POST',
    url: '/v1/matches',
    payload: { handle: 'a', opponentHandle: 'b', decks: { p1: { starter: 'starter-ember-tide' }, p2: { starter: 'starter-storm-shade' } } },
  }),
  'create',
);
const { id, tokens } = created;
for (let i = 0; i < MOVES; i++) {
  const v = await json<{ status: string; game: { pending?: { seat: 'p1' | 'p2' } | null } }>(
    app.inject({ url: `/v1/matches/${id}` }),
    'view',
  );
  if (v.status !== 'active' || !v.game.pending) break;
  const seat = v.game.pending.seat;
  const legal = await json<{ actions: { action: { type: string } }[] }>(
    app.inject({ url: `/v1/matches/${id}/legal-actions`, headers: auth(tokens[seat]) }),
    'legal',
  );
  // Prefer anything but a pass, so the match grows the way played matches do.
  const pick = legal.actions.find((a) => a.action.type !== 'pass') ?? legal.actions[0]!;
  await json(
    app.inject({ method: 'POST', url: `/v1/matches/${id}/actions`, headers: auth(tokens[seat]), payload: { action: pick.action } }),
    'move',
  );
}
const version = (await json<{ version: number }>(app.inject({ url: `/v1/matches/${id}` }), 'view')).version;

// A tournament of PLAYERS entrants (standings before the start: every row a player).
const org = (await json<{ token: string }>(app.inject({ method: 'POST', url: '/v1/players', payload: { handle: 'bench-org' } }), 'org'))
  .token;
const tn = (
  await json<{ id: string }>(
    app.inject({
      method: 'POST',
      url: '/v1/tournaments',
      headers: auth(org),
      payload: { name: 'Costs', format: 'swiss', rounds: 5, timeControl: { kind: 'correspondence', daysPerMove: 3 }, maxPlayers: 1000 },
    }),
    'tournament',
  )
).id;
for (let i = 0; i < PLAYERS; i++) {
  const t = (
    await json<{ token: string }>(app.inject({ method: 'POST', url: '/v1/players', payload: { handle: `entrant-${i}` } }), 'player')
  ).token;
  await json(app.inject({ method: 'POST', url: `/v1/tournaments/${tn}/join`, headers: auth(t), payload: {} }), 'join');
}

// A player with matches waiting for its decision: what a new myTurn subscriber is sent first.
const heavy = (
  await json<{ token: string }>(app.inject({ method: 'POST', url: '/v1/players', payload: { handle: 'bench-heavy' } }), 'heavy')
).token;
let waiting = 0;
for (let i = 0; waiting < MY_TURN_WINDOW && i < 4 * MY_TURN_WINDOW; i++) {
  const m = await json<{ id: string; tokens: Record<'p1' | 'p2', string> }>(
    app.inject({
      method: 'POST',
      url: '/v1/matches',
      headers: auth(heavy),
      payload: {
        opponentHandle: `heavy-opp-${i}`,
        decks: { p1: { starter: 'starter-ember-tide' }, p2: { starter: 'starter-storm-shade' } },
      },
    }),
    'heavy match',
  );
  const v = await json<{ game: { pending?: { seat: 'p1' | 'p2' } | null } }>(app.inject({ url: `/v1/matches/${m.id}` }), 'view');
  if (v.game.pending?.seat === 'p1') waiting++;
}
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const MY_TURN = 'subscription { myTurn { id version status seat pending ... on EvonsMatch { hand { id } } } }';

interface Row {
  operation: string;
  unit: string;
  /** Units of work per run. */
  size: number;
  /** Runs the operation once (its i-th time). */
  run: (i: number) => Promise<unknown>;
  /** What the rate charges per unit of work (units ≈ ms). */
  rate: number;
}

const rows: Row[] = [
  {
    operation: 'time travel ?at= (cold, from event 1)',
    unit: 'event replayed',
    size: version,
    rate: WORK_RATES.replayEvent,
    run: () => json(app.inject({ url: `/v1/matches/${id}?at=${version}` }), 'at'),
  },
  {
    operation: 'match export, uncached (the file built, as JSON text)',
    unit: 'event',
    size: version,
    rate: WORK_RATES.exportEvent,
    // What the route runs for a file not in the node's cache (a finished one is built once per viewer).
    run: async () => JSON.stringify(await exportMatch(app.service.store, await app.service.load(id, undefined))),
  },
  {
    operation: 'event page (limit 500)',
    unit: 'event read',
    size: Math.min(500, version),
    rate: WORK_RATES.eventRead,
    run: () => json(app.inject({ url: `/v1/matches/${id}/events?limit=500` }), 'events'),
  },
  {
    operation: 'board.png, 1200 px (uncached: a new size each time)',
    unit: 'megapixel',
    size: 1.44,
    rate: WORK_RATES.pngMegapixel,
    run: async (i) => {
      const r = await app.inject({ url: `/v1/matches/${id}/board.png?size=${1200 + (i % 50)}` });
      if (r.statusCode !== 200) throw new Error(`png: ${r.statusCode}`);
    },
  },
  {
    operation: `standings page (${Math.min(100, PLAYERS)} rows)`,
    unit: 'row',
    size: Math.min(100, PLAYERS),
    rate: WORK_RATES.standingsRow,
    run: () => json(app.inject({ url: `/v1/tournaments/${tn}/standings` }), 'standings'),
  },
  {
    operation: `the whole tournament (JSON, ${PLAYERS} players, before its start)`,
    unit: 'player or board',
    size: PLAYERS,
    rate: WORK_RATES.tournamentViewRow,
    run: () => json(app.inject({ url: `/v1/tournaments/${tn}` }), 'tournament'),
  },
  {
    operation: `standings.csv (${PLAYERS} players × 5 rounds)`,
    unit: 'cell',
    size: PLAYERS * 5,
    rate: WORK_RATES.standingsCsvCell,
    run: async () => {
      const r = await app.inject({ url: `/v1/tournaments/${tn}/standings.csv` });
      if (r.statusCode !== 200) throw new Error(`csv: ${r.statusCode}`);
    },
  },
  {
    operation: `tournament page (HTML, ${Math.min(100, PLAYERS)} standings rows)`,
    unit: 'row',
    size: Math.min(100, PLAYERS),
    rate: WORK_RATES.standingsRow,
    run: async () => {
      const r = await app.inject({ url: `/tournament/${tn}` });
      if (r.statusCode !== 200) throw new Error(`page: ${r.statusCode}`);
    },
  },
  {
    operation: 'a match dealt and created (what bulk pairing does per match)',
    unit: 'match',
    size: 1,
    rate: WORK_RATES.bulkPairingMatch,
    run: () =>
      json(
        app.inject({
          method: 'POST',
          url: '/v1/matches',
          payload: { decks: { p1: { starter: 'starter-ember-tide' }, p2: { starter: 'starter-verdant-quake' } } },
        }),
        'create',
      ),
  },
  {
    operation: `a myTurn subscription's first window (WebSocket opened, ${waiting} matches sent, closed; the client's CPU included)`,
    unit: 'match sent',
    size: waiting,
    rate: WORK_RATES.turnWindowMatch,
    run: async () => {
      const s = rawSocket(base);
      await s.opened;
      s.send({ type: 'connection_init', payload: { authorization: `Bearer ${heavy}` } });
      await waitFor(() => s.messages.some((m) => m.type === 'connection_ack'), 'connection_ack');
      s.send({ type: 'subscribe', id: '1', payload: { query: MY_TURN } });
      await waitFor(() => s.messages.filter((m) => m.type === 'next').length >= waiting, 'the window');
      s.socket.close();
      await s.closed;
    },
  },
  {
    operation: 'GraphQL document of 16 KiB (parsed, validated)',
    unit: 'KiB',
    size: 16,
    rate: WORK_RATES.documentKiB,
    // A distinct comment each time: a new document, not one the parse cache holds.
    run: (i) =>
      json(
        app.inject({ method: 'POST', url: '/graphql', payload: { query: `{ __typename }\n# ${String(i).padEnd(16 * 1024 - 40, 'x')}` } }),
        'graphql',
      ),
  },
];

const out: string[][] = [
  ['operation', 'work per run', 'CPU per run (ms)', 'CPU per unit of work (ms)', 'charged per unit', 'charged ÷ measured'],
];
// ONLY: run the rows whose name holds it (a profile of one operation).
const only = process.env.ONLY;
for (const row of rows.filter((r) => !only || r.operation.includes(only))) {
  await row.run(-1); // warm: code paths compiled, caches of other things filled
  const t0 = cpuMs();
  for (let i = 0; i < REPEAT; i++) await row.run(i);
  const perRun = (cpuMs() - t0) / REPEAT;
  const perUnit = perRun / row.size;
  out.push([
    row.operation,
    `${row.size.toLocaleString('en-US')} × ${row.unit}`,
    fmtMs(perRun),
    perUnit.toPrecision(2),
    String(row.rate),
    (row.rate / perUnit).toFixed(2),
  ]);
}

console.log(
  `bench:costs — ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, REPEAT=${REPEAT}, match of ${version} events, ${PLAYERS} entrants, PGlite in memory`,
);
console.log(table(out));
console.log(
  `\nThe computer's decisions are charged by level (units): ${Object.entries(AI_DECISION_UNITS)
    .map(([l, u]) => `L${l} ${u}`)
    .join(', ')} — from npm run bench:ai's CPU per decision (Evons' median, its slower game) plus building the job.`,
);
console.log(`GraphQL documents are charged past ${LARGE_DOCUMENT_CHARS / 1024} KiB only.`);
await app.close();
await opened.close();
