/**
 * npm run bench:floor — the HTTP floor under bench:api: what a move's two requests (a legal-actions
 * GET and an action POST, with bench:api's headers and its real answers' bytes) cost on this
 * machine when the server does nothing else. No engine, no database, no validation. Prints the
 * moves/s and the CPU per move of the server and of the load generator; asserts nothing.
 *
 *   MATCHES=24 DURATION=20 WARMUP=3 npm run bench:floor
 *
 * 1. Records answers: starts the real server (PGlite, fresh temp directory), plays one hot-seat
 *    Evons match with bench:api's move policy and records every legal-actions GET and action POST
 *    answer (status, headers, body).
 * 2. Starts bench/floor-server.ts (Fastify with the app's request options) serving those answers
 *    in turn on the same routes, each a parsed object serialised per request as the real server's
 *    views are.
 * 3. MATCHES loops, as in bench:api: GET legal-actions → pick one of its actions → POST it with
 *    Authorization, If-Match and Idempotency-Key → … Both answers are read and parsed.
 *
 * With bench:api's figures this bounds what any server could reach in bench:api's protocol on
 * these cores: (server floor + load-generator floor + the database's CPU per move) is the least
 * machine CPU a move can take.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededPick } from '../src/games/evons/index.js';
import { cleanUpOnSignals, cleanups, interrupted, runCleanups } from './lib/cleanup.js';
import { httpClient } from './lib/http-call.js';
import { loadAverage, measureCpuWindow, type MeasuredCpu } from './lib/machine.js';
import { BenchPlayer } from './lib/move-policy.js';
import { ensureBuilt, startServer } from './lib/server-process.js';
import { Samples, fmtInt, fmtMs, table } from './lib/stats.js';
import type { RecordedAnswer, RecordedAnswers } from './floor-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const num = (v: string | undefined, d: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? d : Number(v));
const MATCHES = Math.max(1, Math.floor(num(process.env.MATCHES, 24)));
const DURATION_S = Math.max(1, num(process.env.DURATION, 20));
const WARMUP_S = Math.max(0, num(process.env.WARMUP, 3));
const REQUEST_TIMEOUT_MS = 15_000;

const stopAll = new AbortController();
cleanUpOnSignals(() => stopAll.abort());
const call = httpClient(stopAll.signal, REQUEST_TIMEOUT_MS);

type Seat = 'p1' | 'p2';
interface LegalAction {
  action: { type: string };
}
const recorded = (r: { status: number; headers: NodeJS.Dict<string | string[]>; body: unknown }): RecordedAnswer => ({
  status: r.status,
  headers: Object.fromEntries(Object.entries(r.headers).filter((e): e is [string, string] => typeof e[1] === 'string')),
  body: r.body,
});

/** One whole match against the real server, every GET legal-actions and POST answer recorded. */
async function recordAnswers(dir: string): Promise<RecordedAnswers> {
  ensureBuilt(ROOT);
  const server = await startServer({
    cwd: ROOT,
    env: { LOG_LEVEL: 'warn', NODE_ENV: 'production', GRAPHIQL: 'false', DATA_DIR: path.join(dir, 'data') },
  });
  cleanups.push(() => server.stop(5_000));
  const base = server.baseUrl;
  const out: RecordedAnswers = { legal: [], post: [] };
  const created = await call(
    base,
    'POST',
    '/v1/matches',
    {},
    {
      openSeat: false,
      handle: 'floor-a',
      opponentHandle: 'floor-b',
      decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-storm-shade' } },
    },
  );
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text.slice(0, 300)}`);
  const c = created.body as { id: string; tokens: Record<Seat, string> };
  const auth = (s: Seat) => ({ authorization: `Bearer ${c.tokens[s]}` });
  type View = { version: number; status: string; game: { pending: { seat: Seat } | null } | null };
  let view = (await call(base, 'GET', `/v1/matches/${c.id}`, auth('p1'))).body as View;
  const player = new BenchPlayer(seededPick('bench-floor'), { matchesResigned: 0, chainBreaks: 0 });
  while (view.status === 'active' && view.game?.pending) {
    const seat = view.game.pending.seat;
    const legal = await call(base, 'GET', `/v1/matches/${c.id}/legal-actions`, auth(seat));
    if (legal.status !== 200) throw new Error(`legal-actions: ${legal.status} ${legal.text.slice(0, 300)}`);
    out.legal.push(recorded(legal));
    const choice = player.choose((legal.body as { actions: LegalAction[] }).actions, (o) => o.action.type)?.action ?? { type: 'resign' };
    // bench:api's full protocol: the answer with the whole match view.
    const res = await call(
      base,
      'POST',
      `/v1/matches/${c.id}/actions`,
      { ...auth(seat), 'if-match': `"${view.version}"`, 'idempotency-key': `f-${view.version}`, prefer: 'return=representation' },
      { action: choice },
    );
    if (res.status !== 200) throw new Error(`action: ${res.status} ${res.text.slice(0, 300)}`);
    out.post.push(recorded(res));
    player.accepted(choice.type);
    view = (res.body as { match: View }).match;
  }
  await server.stop();
  return out;
}

interface FloorResult {
  moves: number;
  post: Samples;
  bytes: { legal: number; post: number };
  cpu: MeasuredCpu | null;
  loadBefore: string;
  errors: Map<string, number>;
}

async function runLoad(base: string, serverCpuMs: () => number): Promise<FloorResult> {
  const t0 = performance.now();
  const measureStart = t0 + WARMUP_S * 1000;
  const measureEnd = measureStart + DURATION_S * 1000;
  const r: FloorResult = {
    moves: 0,
    post: new Samples(),
    bytes: { legal: 0, post: 0 },
    cpu: null,
    loadBefore: loadAverage(),
    errors: new Map(),
  };
  const stopped = () => performance.now() >= measureEnd || stopAll.signal.aborted;
  const window = measureCpuWindow(serverCpuMs, WARMUP_S * 1000, WARMUP_S * 1000 + DURATION_S * 1000, { end: (cpu) => (r.cpu = cpu) });
  const auth = { authorization: `Bearer ${'x'.repeat(43)}` };
  async function loop(slot: number): Promise<void> {
    const pick = seededPick(`floor-${slot}`);
    let version = 1;
    while (!stopped()) {
      try {
        const legal = await call(base, 'GET', `/v1/matches/m${slot}/legal-actions`, auth);
        const actions = (legal.body as { actions: LegalAction[] }).actions;
        const choice = actions.length ? actions[pick(actions.length)]!.action : { type: 'resign' };
        const res = await call(
          base,
          'POST',
          `/v1/matches/m${slot}/actions`,
          { ...auth, 'if-match': `"${version}"`, 'idempotency-key': `f-m${slot}-${version}`, prefer: 'return=representation' },
          { action: choice },
        );
        version++;
        const end = performance.now();
        if (end - legal.ms - res.ms >= measureStart && end <= measureEnd) {
          r.moves++;
          r.post.add(res.ms);
          r.bytes.legal += legal.text.length;
          r.bytes.post += res.text.length;
        }
      } catch (e) {
        if (stopAll.signal.aborted) return;
        const k = (e as Error).message;
        r.errors.set(k, (r.errors.get(k) ?? 0) + 1);
        await new Promise((res) => setTimeout(res, 100));
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: MATCHES }, (_, i) => loop(i)));
  } finally {
    window.cancel();
  }
  return r;
}

function report(r: FloorResult): void {
  const perMove = (ms: number | undefined) => (ms !== undefined && Number.isFinite(ms) ? `${fmtMs(ms / Math.max(1, r.moves))} ms` : 'n/a');
  const cores = (share: number | undefined) =>
    share !== undefined && Number.isFinite(share) ? `${(share * 100).toFixed(0)}% of one core` : 'n/a';
  const wallMs = DURATION_S * 1000;
  const cpu = r.cpu;
  console.log(
    `\n=== HTTP floor — ${MATCHES} loops, ${DURATION_S} s measured after ${WARMUP_S} s warm-up (load average before: ${r.loadBefore}) ===`,
  );
  console.log(
    table([
      ['figure', 'value'],
      ['moves/s (a legal-actions GET and an action POST each)', fmtInt(r.moves / DURATION_S)],
      [
        'action POST p50 / p95 / p99 ms',
        `${fmtMs(r.post.percentile(50))} / ${fmtMs(r.post.percentile(95))} / ${fmtMs(r.post.percentile(99))}`,
      ],
      [
        'mean answer size: POST actions / GET legal-actions',
        `${fmtInt(r.bytes.post / Math.max(1, r.moves))} / ${fmtInt(r.bytes.legal / Math.max(1, r.moves))} chars`,
      ],
      ['server CPU per move (both requests)', perMove(cpu?.serverCpuMs)],
      ['load generator CPU per move (both requests)', perMove(cpu?.benchCpuMs)],
      ['server process CPU in window', cores(cpu ? cpu.serverCpuMs / wallMs : undefined)],
      ['load generator CPU in window', cores(cpu ? cpu.benchCpuMs / wallMs : undefined)],
      [`whole machine busy in window (${cpu?.machine?.cores ?? os.cpus().length} cores)`, cores(cpu?.machine?.machineBusy)],
      ['errors', r.errors.size ? [...r.errors].map(([k, n]) => `${n}× ${k}`).join('; ') : 'none'],
    ]),
  );
}

async function main(): Promise<void> {
  console.log(`bench:floor — recording one match's answers from the real server (PGlite) …`);
  // One temporary directory: the recording server's database (and its lock file), then the answers.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-floor-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const answers = await recordAnswers(dir);
  const mean = (list: RecordedAnswer[]) => list.reduce((n, a) => n + JSON.stringify(a.body).length, 0) / Math.max(1, list.length);
  console.log(
    `recorded ${answers.legal.length} legal-actions and ${answers.post.length} action answers (mean ${fmtInt(mean(answers.legal))} and ${fmtInt(mean(answers.post))} chars)`,
  );
  const file = path.join(dir, 'answers.json');
  fs.writeFileSync(file, JSON.stringify(answers));
  const floor = await startServer({
    cwd: ROOT,
    env: { FLOOR_ANSWERS: file, NODE_ENV: 'production' },
    entry: ['--import', 'tsx', path.join('bench', 'floor-server.ts')],
  });
  cleanups.push(() => floor.stop(5_000));
  console.log(
    `floor server ready at ${floor.baseUrl} (pid ${floor.pid}); ${MATCHES} loops, ${WARMUP_S} s warm-up + ${DURATION_S} s measured …`,
  );
  const result = await runLoad(floor.baseUrl, () => floor.cpuMs());
  if (interrupted()) return;
  if (floor.exited())
    throw new Error(`the floor server died: ${JSON.stringify(floor.exited())}\n    ${floor.log().slice(-20).join('\n    ')}`);
  report(result);
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    if (!interrupted()) await runCleanups();
  });
