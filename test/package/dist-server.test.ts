/**
 * Production runs compiled JavaScript (`node dist/server.js` in the Docker image's layout, as user
 * `node` with DATA_DIR=/data on a volume). These tests build that layout themselves
 * (production-image.ts), so `npm test` passes on a fresh clone with no build step first:
 * - the compiled server starts on an in-memory database, applies the migrations from dist/'s
 *   place, serves a match and drains on SIGTERM;
 * - as an unprivileged user on a fresh volume directory whose parent it cannot write (the image's
 *   /data under /), the embedded database starts, keeps its lock inside the data directory, and a
 *   second start on the same volume finds the match the first one created.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../bench/lib/server-process.js';
import { othersCanRead, productionImage } from './production-image.js';

/** Root runs the server as `nobody` (standing for the image's user `node`); anyone else already is unprivileged. */
const unprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
const ENV = { LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_URL: '' };
// A loaded machine starts a process slowly: a bound on a hang, not a speed check.
const START = { readyTimeoutMs: 240_000 };
const TEST_TIMEOUT_MS = 600_000;

const createMatch = (api: string) =>
  fetch(`${api}/v1/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-storm-shade' } } }),
  });

/** SIGTERM, and the exit code the drain ended with. */
async function stop(server: ServerProcess): Promise<number | null> {
  await server.stop(60_000);
  return server.exited()?.code ?? null;
}

describe('the compiled server (the image layout)', () => {
  let app: string;
  beforeAll(async () => {
    app = await productionImage();
  }, TEST_TIMEOUT_MS);

  it('is readable by a user with no rights on the checkout (a clone under a mode-700 directory too)', () => {
    // Node loads by real path: what the server imports must be reachable through directories anyone may pass.
    for (const f of [
      'package.json',
      'dist/server.js',
      'prisma/migrations',
      'node_modules/pino/package.json',
      'node_modules/@electric-sql/pglite/package.json',
    ]) {
      expect(othersCanRead(path.join(app, f)), f).toBe(true);
    }
  });

  it(
    'starts, serves a match and exits 0 on SIGTERM',
    async () => {
      const server = await startServer({ cwd: app, env: { ...ENV, DATA_DIR: 'memory://' }, ...START });
      const api = server.baseUrl;
      try {
        const created = await createMatch(api);
        expect(created.status).toBe(201);
        const { id } = (await created.json()) as { id: string };
        const view = (await (await fetch(`${api}/v1/matches/${id}`)).json()) as { status: string; gameId: string };
        expect(view).toMatchObject({ status: 'active', gameId: 'evons' });
        // The watch page's script and stylesheet, and each game's watch script, are plain files the build copies beside the compiled code.
        const page = await (await fetch(`${api}/watch/${id}`)).text();
        for (const asset of page.matchAll(/(?:src|href)="(\/watch\/assets\/[^"]+)"/g))
          expect((await fetch(api + asset[1])).status, asset[1]).toBe(200);
        expect((await fetch(`${api}/watch/assets/words.js`)).status).toBe(200);
        expect(page).toMatch(/data-game-script="\/watch\/games\/evons\.js\?v=/);
        for (const game of ['evons', 'universus']) expect((await fetch(`${api}/watch/games/${game}.js`)).status, game).toBe(200);
      } finally {
        expect(await stop(server), server.log().join('\n')).toBe(0);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'starts as an unprivileged user on a fresh volume directory it owns, inside a directory it cannot write',
    async () => {
      // The image: `RUN mkdir -p /data && chown node:node /data`, `USER node`, `DATA_DIR=/data`; / is not the user's.
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-volume-'));
      const volume = path.join(root, 'data');
      try {
        fs.mkdirSync(volume);
        if (unprivileged.uid !== undefined) fs.chownSync(volume, unprivileged.uid, unprivileged.gid!);
        fs.chmodSync(root, 0o555); // readable and passable, not writable: nothing may be created beside the volume
        const env = { ...ENV, DATA_DIR: volume };
        const first = await startServer({ cwd: app, env, ...START, ...unprivileged });
        let id: string;
        try {
          const created = await createMatch(first.baseUrl);
          expect(created.status, first.log().join('\n')).toBe(201);
          ({ id } = (await created.json()) as { id: string });
          expect(fs.readdirSync(volume)).toContain('evons.lock');
          expect(fs.readdirSync(root)).toEqual(['data']);
        } finally {
          expect(await stop(first), first.log().join('\n')).toBe(0);
        }
        expect(fs.readdirSync(volume)).not.toContain('evons.lock');
        // The volume outlives the container: the next start reopens it.
        const second = await startServer({ cwd: app, env, ...START, ...unprivileged });
        try {
          expect((await fetch(`${second.baseUrl}/v1/matches/${id}`)).status, second.log().join('\n')).toBe(200);
        } finally {
          expect(await stop(second), second.log().join('\n')).toBe(0);
        }
      } finally {
        fs.chmodSync(root, 0o755);
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );
});
