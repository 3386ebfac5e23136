/**
 * The peer benchmark's temporary install of boardgame.io (and, per storage, node-persist or
 * bgio-postgres): npm into a directory under os.tmpdir(), never the project's node_modules (see
 * bench/peers/README.md). Used by bench/peers/boardgameio.ts and bench/side-by-side.ts (which
 * installs once for all its runs and hands the directory to each run as BGIO_DIR).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanups } from '../lib/cleanup.js';

export const BGIO_VERSION = '0.50.2';
export const BGIO_POSTGRES_VERSION = '1.0.16';
export type Storage = 'memory' | 'flatfile' | 'postgres';

export function parseStorage(v: string | undefined): Storage {
  return v === 'flatfile' || v === 'postgres' ? v : 'memory';
}

function run(cmd: string, args: string[], cwd: string, onLine: (l: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    const feed = (b: Buffer) =>
      b
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim())
        .forEach(onLine);
    child.stdout.on('data', feed);
    child.stderr.on('data', feed);
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`)),
    );
  });
}

const packagesFor = (s: Storage): string[] =>
  s === 'flatfile' ? ['node-persist@3'] : s === 'postgres' ? [`bgio-postgres@${BGIO_POSTGRES_VERSION}`] : [];

/** Installs boardgame.io and what `storages` need into a new temp dir (removed by the cleanups). */
export async function installPeers(storages: Storage[]): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-peers-bgio-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'evons-peers-boardgameio',
        private: true,
        // koa-compose 4.2 copies koa's middleware list when koa-socket-2 builds the http server, before
        // boardgame.io adds its lobby routes (every lobby call would be a 404): pin the 4.1 it was
        // released against.
        overrides: { 'koa-compose': '4.1.0' },
      },
      null,
      2,
    ),
  );
  const pkgs = [`boardgame.io@${BGIO_VERSION}`, ...new Set(storages.flatMap(packagesFor))];
  console.log(`installing ${pkgs.join(' ')} with npm into ${dir} (removed at exit; this may take a minute) …`);
  const t0 = performance.now();
  const ticker = setInterval(() => console.log(`  … still installing (${((performance.now() - t0) / 1000).toFixed(0)} s)`), 10_000);
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...pkgs], dir, (l) => {
      if (!/Unknown user config/.test(l)) console.log(`  npm: ${l}`);
    });
  } finally {
    clearInterval(ticker);
  }
  console.log(`installed ${describeInstall(dir)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return dir;
}

/** Checks that `dir` (BGIO_DIR, prepared by installPeers) holds what `storage` needs. */
export function checkInstall(dir: string, storage: Storage): void {
  const need = ['boardgame.io', ...packagesFor(storage).map((p) => p.slice(0, p.lastIndexOf('@')))];
  for (const name of need) {
    if (!fs.existsSync(path.join(dir, 'node_modules', name, 'package.json')))
      throw new Error(`BGIO_DIR=${dir} has no ${name} (needed for STORAGE=${storage})`);
  }
}

function versionOf(dir: string, name: string): string | null {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

export function describeInstall(dir: string): string {
  return ['boardgame.io', 'node-persist', 'bgio-postgres', 'sequelize', 'pg']
    .map((n) => [n, versionOf(dir, n)] as const)
    .filter(([, v]) => v)
    .map(([n, v]) => `${n} ${v}`)
    .join(', ');
}
