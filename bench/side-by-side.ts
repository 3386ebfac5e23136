/**
 * npm run bench:side-by-side — our service and boardgame.io in one sitting, alternating, so that
 * the shared machine's load drifts over all of them alike: per round, `bench:api` on PostgreSQL
 * (each PROTOCOL: REST with the whole view, REST lean, GraphQL over one WebSocket per seat), then `bench:peers` with boardgame.io's InMemory storage, then with
 * bgio-postgres. Each is the existing script run as a child process (its full output goes to a log
 * file); this script parses their figures and prints the medians over ROUNDS and the ratios.
 *
 *   ROUNDS=2 MATCHES=24 DURATION=20 npm run bench:side-by-side
 *
 * Environment:
 *   ROUNDS     rounds (each runs every configuration once)                    default 2
 *   MATCHES    concurrent matches, every run                                  default 24
 *   DURATION   measured seconds, every run                                    default 20
 *   WARMUP     warm-up seconds, every run                                     default 3
 *   PROTOCOLS  comma list of bench:api's PROTOCOL values to run (full, lean, ws) default full,lean,ws
 *   BENCH_DATABASE_URL  the PostgreSQL both sides create their throw-away databases on (see
 *              bench/lib/postgres.ts)
 *
 * boardgame.io 0.50.2 and bgio-postgres are installed once into a temporary directory (as
 * bench:peers does; removed at exit) and handed to each bench:peers run as BGIO_DIR.
 * bench:api's raw-INSERT baseline is shortened to BASELINE=0.5 s: it is not compared here.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtInt, fmtMs, table } from './lib/stats.js';
import { cleanUpOnSignals, cleanups, interrupted, runBench } from './lib/cleanup.js';
import { BGIO_POSTGRES_VERSION, BGIO_VERSION, describeInstall, installPeers } from './peers/install.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const num = (v: string | undefined, d: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? d : Number(v));
const ROUNDS = Math.max(1, Math.floor(num(process.env.ROUNDS, 2)));
const MATCHES = Math.max(1, Math.floor(num(process.env.MATCHES, 24)));
const DURATION_S = Math.max(1, num(process.env.DURATION, 20));
const WARMUP_S = Math.max(0, num(process.env.WARMUP, 3));
const PROTOCOLS = (process.env.PROTOCOLS ?? 'full,lean,ws')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s === 'full' || s === 'lean' || s === 'ws');

interface Config {
  label: string;
  /** For the ratio rows. */
  short: string;
  script: string;
  env: Record<string, string>;
  parse: (out: string) => Figures;
}
interface Figures {
  movesPerS: number;
  p99: number;
  serverMsPerMove: number;
  pgMsPerMove: number;
  /** Other processes on the machine in the window, in cores (the shared machine's noise). */
  others: number;
}

const othersOf = (s: string): number => {
  const m = /^\s*other processes \([^)]*\)\s+(\d+)% of one core/m.exec(s);
  return m ? Number(m[1]) / 100 : Number.NaN;
};

const numOf = (s: string | undefined): number => (s === undefined || s === '–' ? Number.NaN : Number(s.replace(/,/g, '')));
const must = (m: RegExpExecArray | null, what: string): RegExpExecArray => {
  if (!m) throw new Error(`could not find ${what} in the output`);
  return m;
};

/** bench:api's PostgreSQL section: moves/s, POST actions p99, server CPU per move, PostgreSQL share. */
function parseApi(out: string): Figures {
  const at = out.indexOf('=== PostgreSQL');
  if (at < 0) throw new Error('no PostgreSQL section in the output (was PostgreSQL unreachable?)');
  const s = out.slice(at);
  // The action row: the POST over REST, the submitAction mutation over the WebSocket (PROTOCOL=ws).
  const post = must(
    /^\s*(?:POST \/v1\/matches\/\{id\}\/actions|WS submitAction \(one mutation per move\))\s+([\d,]+)\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(s),
    'the action latency row',
  );
  const moves = numOf(
    must(/^\s*accepted moves\/s \((?:200 on POST actions|submitAction without errors)\)\s+([\d,]+)/m.exec(s), 'accepted moves/s')[1],
  );
  const cpu = numOf(must(/^\s*server CPU per accepted move[^\n]*?\s([\d.]+) ms\s*$/m.exec(s), 'server CPU per move')[1]);
  const pg = /^\s*PostgreSQL processes CPU in window\s+(\d+)% of one core/m.exec(s);
  return {
    movesPerS: moves,
    p99: numOf(post[4]),
    serverMsPerMove: cpu,
    pgMsPerMove: pg ? ((numOf(pg[1]) / 100) * 1000) / moves : Number.NaN,
    others: othersOf(s),
  };
}

/** bench:peers's summary line. */
function parsePeers(out: string): Figures {
  const line = must(/^boardgame\.io .*moves\/s.*$/m.exec(out.slice(out.lastIndexOf('=== summary ==='))), 'the summary line')[0];
  if (/STALLED/.test(line)) throw new Error(`the run stalled: ${line}`);
  const pick = (re: RegExp) => {
    const m = re.exec(line);
    return m ? numOf(m[1]) : Number.NaN;
  };
  return {
    movesPerS: pick(/: ([\d,]+) moves\/s/),
    p99: pick(/p99 ([\d.]+) ms/),
    serverMsPerMove: pick(/([\d.]+) ms server CPU per move/),
    pgMsPerMove: pick(/([\d.]+) ms PostgreSQL CPU per move/),
    others: othersOf(out),
  };
}

const common = { MATCHES: String(MATCHES), DURATION: String(DURATION_S), WARMUP: String(WARMUP_S) };
const configs: Config[] = [
  ...PROTOCOLS.map((p) => ({
    label: `ours, PostgreSQL, PROTOCOL=${p}`,
    short: `ours ${p}`,
    script: 'bench/api.ts',
    env: { ...common, BACKENDS: 'postgres', PROTOCOL: p, BASELINE: '0.5' },
    parse: parseApi,
  })),
  {
    label: `boardgame.io ${BGIO_VERSION}, InMemory`,
    short: 'bgio memory',
    script: 'bench/peers/boardgameio.ts',
    env: { ...common, STORAGE: 'memory' },
    parse: parsePeers,
  },
  {
    label: `boardgame.io ${BGIO_VERSION}, bgio-postgres ${BGIO_POSTGRES_VERSION}`,
    short: 'bgio postgres',
    script: 'bench/peers/boardgameio.ts',
    env: { ...common, STORAGE: 'postgres' },
    parse: parsePeers,
  },
];

// ------------------------------------------------------------------ children

let current: { child: ChildProcess; exited: Promise<void> } | null = null;
cleanUpOnSignals(() => current?.child.kill('SIGTERM')); // the child drops its database and exits
/** Waits (up to 30 s) for a run in progress to finish its own clean-up, before its install goes. */
async function waitForChild(): Promise<void> {
  if (!current) return;
  await Promise.race([current.exited, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
}

function runChild(cfg: Config, extraEnv: Record<string, string>, log: fs.WriteStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...cfg.env, ...extraEnv };
    delete env.NODE_OPTIONS; // this process's tsx loader options must not load it twice
    const child = spawn(process.execPath, ['--import', 'tsx', cfg.script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    current = { child, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
    let out = '';
    const keep = (b: Buffer) => {
      out += b.toString('utf8');
      log.write(b);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      current = null;
      if (code === 0) resolve(out);
      else
        reject(
          new Error(`${cfg.script} exited with ${code ?? signal}; last lines:\n    ${out.trim().split('\n').slice(-15).join('\n    ')}`),
        );
    });
  });
}

const uptime = (): string => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`;
  }
};

function median(xs: number[]): number {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const startLoad = uptime();
  console.log(
    `side by side: ${ROUNDS} round(s) of [${configs.map((c) => c.label).join(' → ')}], ` +
      `${MATCHES} matches, ${WARMUP_S} s warm-up + ${DURATION_S} s measured each; Node ${process.version}, ${os.cpus().length} cores`,
  );
  console.log(`start: ${startLoad}`);
  const logPath = path.join(os.tmpdir(), `evons-side-by-side-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  const log = fs.createWriteStream(logPath);
  cleanups.push(() => new Promise<void>((resolve) => log.end(resolve)));
  console.log(`the runs' full output: ${logPath} (kept)`);
  const dir = await installPeers(['memory', 'postgres']);
  cleanups.push(waitForChild); // runs before the install is removed
  if (interrupted()) return;
  log.write(`boardgame.io install: ${describeInstall(dir)}\n`);

  const results = configs.map(() => [] as Figures[]);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, cfg] of configs.entries()) {
      if (interrupted()) return;
      const t0 = performance.now();
      log.write(`\n\n######## round ${round}: ${cfg.label} (${uptime()})\n`);
      let f: Figures;
      try {
        f = cfg.parse(await runChild(cfg, { BGIO_DIR: dir }, log));
      } catch (e) {
        if (interrupted()) return;
        console.log(`round ${round}/${ROUNDS}  ${cfg.label}: FAILED, left out of the medians — ${(e as Error).message}`);
        continue;
      }
      results[i]!.push(f);
      console.log(
        `round ${round}/${ROUNDS}  ${cfg.label.padEnd(44)} ${fmtInt(f.movesPerS).padStart(6)} moves/s  p99 ${fmtMs(f.p99).padStart(5)} ms  ` +
          `server ${fmtMs(f.serverMsPerMove)} ms/move  PostgreSQL ${fmtMs(f.pgMsPerMove)} ms/move  other processes ${f.others.toFixed(2)} cores  (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
    }
  }
  const endLoad = uptime();

  const med = results.map((rs) => ({
    movesPerS: median(rs.map((r) => r.movesPerS)),
    p99: median(rs.map((r) => r.p99)),
    serverMsPerMove: median(rs.map((r) => r.serverMsPerMove)),
    pgMsPerMove: median(rs.map((r) => r.pgMsPerMove)),
    others: median(rs.map((r) => r.others)),
  }));
  const each = (i: number, k: keyof Figures, fmt: (n: number) => string) => results[i]!.map((r) => fmt(r[k])).join(' / ');
  console.log(`\n=== side by side: medians of ${ROUNDS} round(s), ${MATCHES} matches, ${DURATION_S} s measured each ===`);
  console.log(
    table([
      [
        'configuration',
        'moves/s',
        'p99 ms',
        'server CPU ms/move',
        'PostgreSQL CPU ms/move',
        'other processes, cores',
        'per round: moves/s; p99',
      ],
      ...configs.map((c, i) => [
        c.label,
        fmtInt(med[i]!.movesPerS),
        fmtMs(med[i]!.p99),
        fmtMs(med[i]!.serverMsPerMove),
        fmtMs(med[i]!.pgMsPerMove),
        med[i]!.others.toFixed(2),
        `${each(i, 'movesPerS', fmtInt)}; ${each(i, 'p99', fmtMs)}`,
      ]),
    ]),
  );
  const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '–');
  const ours = configs.map((c, i) => ({ c, i })).filter(({ c }) => c.script === 'bench/api.ts');
  const peers = configs.map((c, i) => ({ c, i })).filter(({ c }) => c.script !== 'bench/api.ts');
  const rows = [['ratio of medians', 'moves/s', 'p99', 'server CPU per move', 'server + PostgreSQL CPU per move']];
  for (const o of ours) {
    for (const p of peers) {
      const a = med[o.i]!;
      const b = med[p.i]!;
      const both = (f: typeof a) => f.serverMsPerMove + (Number.isFinite(f.pgMsPerMove) ? f.pgMsPerMove : 0);
      rows.push([
        `${o.c.short} ÷ ${p.c.short}`,
        ratio(a.movesPerS, b.movesPerS),
        ratio(a.p99, b.p99),
        ratio(a.serverMsPerMove, b.serverMsPerMove),
        ratio(both(a), both(b)),
      ]);
    }
  }
  console.log(table(rows));
  console.log(
    '  p99: ours = POST /v1/matches/{id}/actions (full protocol: plus a legal-actions GET per move), or the submitAction mutation over the WebSocket (ws); boardgame.io = moves.act → the update with it.',
  );
  console.log('  PostgreSQL CPU counts every postgres process of the cluster (other databases too); InMemory has none.');
  console.log(`start: ${startLoad}\nend:   ${endLoad}`);
}

await runBench('bench:side-by-side', main);
