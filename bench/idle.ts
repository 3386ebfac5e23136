/**
 * npm run bench:idle — many open correspondence matches with moves trickling in: does the server's
 * memory or move latency grow with the number of matches it has seen? Starts the compiled server
 * (`npm run build` first when dist/ is missing) on a throw-away PostgreSQL database, opens MATCHES
 * correspondence matches (both seats, 3 days per decision), then for TRICKLE_S seconds makes moves
 * on random ones (RATE per second, each a legal-actions GET and an action POST). RSS is read
 * before, after opening the matches, and after the trickle; move latency is reported for the
 * trickle. Caches are bounded (match states, credentials, PNGs: LRU), so RSS should stay flat.
 * Prints figures; asserts nothing; drops the database and stops the server on every exit path.
 *
 *   MATCHES=10000 TRICKLE_S=30 RATE=50 npm run bench:idle
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Samples, fmtInt, fmtMs, table } from './lib/stats.js';
import { MAINTENANCE_URL, admin, withDatabase } from './lib/postgres.js';
import { freePort } from './lib/server-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MATCHES = Number(process.env.MATCHES ?? 10_000);
const TRICKLE_S = Number(process.env.TRICKLE_S ?? 30);
const RATE = Number(process.env.RATE ?? 50);
const CONCURRENCY = 8;
const DECKS = { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-storm-shade' } };

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** The few fields of the answers this bench reads. */
interface Body {
  id: string;
  tokens: Record<'p1' | 'p2', string>;
  status: string;
  version: number;
  game?: { pending?: { seat?: 'p1' | 'p2' } | null } | null;
  actions?: { action: unknown }[];
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: Body }> {
  const r = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  return { status: r.status, body: (await r.json()) as Body };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist/server.js'))) execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  const name = `evons_idle_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(MAINTENANCE_URL, name);
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['dist/server.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (
      let i = 0;
      i < 600 &&
      !(await fetch(`${api}/readyz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 100));
    const rss: string[][] = [['moment', 'server RSS MiB']];
    const gc = () => new Promise((r) => setTimeout(r, 2_000)); // let the server settle before reading RSS
    await gc();
    rss.push(['ready, no matches', rssMiB(server.pid!).toFixed(0)]);

    // Open the matches, CONCURRENCY at a time.
    const matches: { id: string; tokens: Record<'p1' | 'p2', string> }[] = [];
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MATCHES) {
          next++;
          const c = await json(`${api}/v1/matches`, {
            method: 'POST',
            body: JSON.stringify({ decks: DECKS, timeControl: { kind: 'correspondence', daysPerMove: 3 } }),
          });
          if (c.status !== 201) throw new Error(`create: ${c.status} ${JSON.stringify(c.body)}`);
          matches.push({ id: c.body.id, tokens: c.body.tokens });
        }
      }),
    );
    const openS = (performance.now() - t0) / 1000;
    await gc();
    rss.push([`${fmtInt(MATCHES)} open matches`, rssMiB(server.pid!).toFixed(0)]);

    // Trickle: RATE moves per second on random matches, each a GET legal-actions and a POST.
    const latency = new Samples();
    let moves = 0;
    let failures = 0;
    const end = performance.now() + TRICKLE_S * 1000;
    let rng = 1;
    const pick = () => {
      rng = (rng * 48271) % 2147483647;
      return matches[rng % matches.length]!;
    };
    const inflight: Promise<void>[] = [];
    while (performance.now() < end) {
      const m = pick();
      inflight.push(
        (async () => {
          const view = await json(`${api}/v1/matches/${m.id}`);
          const seat = view.body.game?.pending?.seat;
          if (view.body.status !== 'active' || !seat) return;
          const auth = { authorization: `Bearer ${m.tokens[seat]}` };
          const legal = await json(`${api}/v1/matches/${m.id}/legal-actions`, { headers: auth });
          const action = legal.body.actions?.[0]?.action;
          if (!action) return;
          const s = performance.now();
          const r = await json(`${api}/v1/matches/${m.id}/actions`, {
            method: 'POST',
            headers: { ...auth, 'if-match': `"${view.body.version}"` },
            body: JSON.stringify({ action }),
          });
          if (r.status === 200) {
            latency.add(performance.now() - s);
            moves++;
          } else failures++;
        })(),
      );
      await new Promise((r) => setTimeout(r, 1000 / RATE));
    }
    await Promise.all(inflight);
    await gc();
    rss.push([`after ${TRICKLE_S} s of moves (${fmtInt(moves)} moves)`, rssMiB(server.pid!).toFixed(0)]);

    console.log(
      `idle-matches benchmark: compiled server, PostgreSQL, ${fmtInt(MATCHES)} correspondence matches opened in ${openS.toFixed(1)} s (${fmtInt(MATCHES / openS)}/s)\n`,
    );
    console.log(table(rss));
    console.log('');
    console.log(
      table([
        ['trickled moves', 'count', 'failed', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
        [
          'POST actions on random open matches',
          fmtInt(latency.count),
          fmtInt(failures),
          fmtMs(latency.percentile(50)),
          fmtMs(latency.percentile(95)),
          fmtMs(latency.percentile(99)),
          fmtMs(latency.max()),
        ],
      ]),
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}

await main();
