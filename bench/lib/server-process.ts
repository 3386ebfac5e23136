/**
 * Runs the real server as a child process for a benchmark: free port, env, wait for /readyz,
 * graceful stop (SIGTERM, then SIGKILL), last log lines kept for reports. By default the compiled
 * server production runs (`node dist/server.js`, built first by `ensureBuilt`); `SERVER=tsx` runs
 * src/server.ts through tsx instead.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Which server a benchmark runs: the compiled one production runs, or the TypeScript through tsx. */
export type ServerKind = 'dist' | 'tsx';
export const SERVER_KIND: ServerKind = process.env.SERVER === 'tsx' ? 'tsx' : 'dist';

/** Builds dist/ (npm run build) so the benchmark measures the current source, never a stale build. */
export function ensureBuilt(root: string, kind: ServerKind = SERVER_KIND): void {
  if (kind !== 'dist') return;
  console.log('building the compiled server (npm run build) …');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  readonly baseUrl: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Last lines the server wrote (stdout + stderr). */
  log(): string[];
  /** Whether the process has exited, and how. */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | null;
  /** Process CPU time (user + system, ms) from /proc, or NaN where unavailable. */
  cpuMs(): number;
  /** SIGTERM (graceful: drains and closes the store), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  cwd: string;
  env: Record<string, string>;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
  /** dist: node dist/server.js (call ensureBuilt first); tsx: src/server.ts. Default SERVER_KIND. */
  kind?: ServerKind;
  /** Another server's entry, in place of the service's (node arguments after the flags). */
  entry?: string[];
  readyTimeoutMs?: number;
  /** Run as this user and group (the caller must be root); default the caller's. */
  uid?: number;
  gid?: number;
}

export async function startServer(opts: StartOptions): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Every client of a bench or test is on one loopback address: the per-address limits (which
  // would count them all as one caller) are off unless the caller sets them.
  const perAddressOff = {
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0',
    WORK_UNITS_PER_MINUTE: '0',
    WORK_UNITS_PER_ADDRESS_PER_MINUTE: '0',
    EXPENSIVE_READS_AT_ONCE: '0',
    COSTLY_AT_ONCE_PER_ADDRESS: '0',
    LIVE_STREAMS_PER_ADDRESS: '0',
    WEBSOCKETS_PER_ADDRESS: '0',
    REFUSAL_PAUSE_MS: '0',
    REQUESTS_AT_ONCE_PER_ADDRESS: '0',
  };
  const env: NodeJS.ProcessEnv = { ...process.env, ...perAddressOff, ...opts.env, PORT: String(port), HOST: '127.0.0.1' };
  delete env.NODE_OPTIONS; // the parent's tsx loader options must not leak in twice
  if (!opts.env.DATABASE_URL) delete env.DATABASE_URL;
  const entry =
    opts.entry ??
    ((opts.kind ?? SERVER_KIND) === 'dist'
      ? ['--enable-source-maps', path.join('dist', 'server.js')]
      : ['--import', 'tsx', path.join('src', 'server.ts')]);
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), ...entry], {
    cwd: opts.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.uid === undefined ? {} : { uid: opts.uid }),
    ...(opts.gid === undefined ? {} : { gid: opts.gid }),
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const l of chunk.toString('utf8').split('\n')) {
      if (!l.trim()) continue;
      lines.push(l.length > 600 ? `${l.slice(0, 600)}…` : l);
      if (lines.length > 200) lines.shift();
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  type Exit = { code: number | null; signal: NodeJS.Signals | null };
  let exit = null as Exit | null;
  const exitedP = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  const pid = child.pid ?? -1;

  const proc: ServerProcess = {
    baseUrl,
    pid,
    child,
    log: () => [...lines],
    exited: () => exit,
    cpuMs: () => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(f[11]) + Number(f[12]); // utime, stime (fields 14, 15)
        return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
      } catch {
        return Number.NaN;
      }
    },
    async stop(graceMs = 20_000) {
      if (exit) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (!exit) child.kill('SIGKILL');
      }, graceMs);
      await exitedP;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (exit) {
      throw new Error(`server exited during start-up (code ${exit.code}, signal ${exit.signal}):\n    ${lines.slice(-20).join('\n    ')}`);
    }
    try {
      const r = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await r.arrayBuffer();
      if (r.status === 200) return proc;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.stop(2_000);
      throw new Error(`server not ready after ${opts.readyTimeoutMs ?? 60_000} ms:\n    ${lines.slice(-20).join('\n    ')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
