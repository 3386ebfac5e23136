/**
 * Production runs compiled JavaScript (`npm run build` → dist/, `node dist/server.js`): the
 * compiled server starts on an in-memory database, applies the migrations from dist/'s place,
 * serves a match and drains on SIGTERM. .ci/run builds before the tests; locally the test is
 * skipped (with the reason) until `npm run build` has run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const built = fs.existsSync(path.join(root, 'dist/server.js'));
if (!built && process.env.CI) throw new Error('dist/server.js is missing: .ci/run must run `npm run build` before the tests');
if (!built) console.warn('[dist-server test] skipped: run `npm run build` first');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe.skipIf(!built)('the compiled server (dist/)', () => {
  it('starts, serves a match and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server.js'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'memory://', DATABASE_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const api = `http://127.0.0.1:${port}`;
      let ready = false;
      // Polled by count, not by elapsed time: up to 600 tries 100 ms apart.
      for (let i = 0; i < 600 && !ready && child.exitCode === null; i++) {
        ready = await fetch(`${api}/readyz`).then((r) => r.ok, () => false);
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready, stderr).toBe(true);
      const created = await fetch(`${api}/v1/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-storm-shade' } } }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const view = (await (await fetch(`${api}/v1/matches/${id}`)).json()) as { status: string; gameId: string };
      expect(view).toMatchObject({ status: 'active', gameId: 'evons' });
      // The watch page's script and stylesheet are plain files the build copies beside the compiled code.
      const page = await (await fetch(`${api}/watch/${id}`)).text();
      for (const asset of page.matchAll(/(?:src|href)="(\/watch\/assets\/[^"]+)"/g)) expect((await fetch(api + asset[1])).status, asset[1]).toBe(200);
      expect((await fetch(`${api}/watch/assets/words.js`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr).toBe(0);
  });
});
