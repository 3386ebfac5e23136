/**
 * A throw-away PostgreSQL cluster for the chaos suite: initdb + pg_ctl from the machine's
 * binaries (/usr/lib/postgresql/<v>/bin), run as the `postgres` user when we are root, in a
 * temp dir under CHAOS_DIR (or TMPDIR) on a free port, trust auth on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  for (const v of fs.readdirSync(root).sort().reverse()) {
    const bin = path.join(root, v, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

export interface Cluster {
  url: string;
  dir: string;
  start(): void;
  /** Fast shutdown (connections terminated, like a restart). */
  stop(): void;
  /** The postmaster's pid (SIGSTOP/SIGCONT it and its children to hang the database). */
  pids(): number[];
  destroy(): void;
}

/** Where the scenarios keep their clusters and data directories: CHAOS_DIR (created if missing), else TMPDIR. */
export function chaosBase(): string {
  const base = process.env.CHAOS_DIR || os.tmpdir();
  fs.mkdirSync(base, { recursive: true });
  return base;
}

export function createCluster(bin: string, port: number): Cluster {
  const base = chaosBase();
  const dir = fs.mkdtempSync(path.join(base, 'evons-chaos-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  const run = (cmd: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : path.join(bin, cmd), asRoot ? ['-u', 'postgres', '--', path.join(bin, cmd), ...args] : args, {
      stdio: 'pipe',
      cwd: dir,
    });
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const cluster: Cluster = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    dir,
    start: () => void run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']),
    stop: () => void run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    pids() {
      const main = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const kids = execFileSync('pgrep', ['-P', String(main)], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .filter(Boolean)
        .map(Number);
      return [main, ...kids];
    },
    destroy() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        /* not running */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
