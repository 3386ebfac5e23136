import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/persistence/database.js';
import { DataDirLockedError, lockDataDir, lockPathFor } from '../../src/persistence/dir-lock.js';
import { openStore } from '../../src/persistence/match-store.js';

const tmpDirs: string[] = [];
function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-lock-'));
  tmpDirs.push(d);
  return path.join(d, 'data');
}
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('PGlite data directory lock', () => {
  it('a second lock on the same directory fails fast with a clear message', () => {
    const dir = tmpDir();
    const lock = lockDataDir(dir);
    const started = Date.now();
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`data directory ${dir} is in use by another process (pid ${process.pid})`);
    expect(Date.now() - started).toBeLessThan(1000);
    lock.release();
    lockDataDir(dir).release(); // free again
    expect(fs.existsSync(lockPathFor(dir))).toBe(false);
  });

  it('a lock left by a dead process is taken over', () => {
    const dir = tmpDir();
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout.trim());
    fs.mkdirSync(path.dirname(lockPathFor(dir)), { recursive: true });
    fs.writeFileSync(lockPathFor(dir), JSON.stringify({ pid: deadPid, host: os.hostname(), token: 'old' }));
    const lock = lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(lockPathFor(dir), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('another process is refused while the store is open, and admitted after close', async () => {
    const dir = tmpDir();
    const opened = await openStore({ kind: 'pglite', dataDir: dir });
    // Opening the same directory again in-process fails before PGlite is touched (it would hang).
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(/is in use by another process/);
    // A relative DATA_DIR (as the configuration passes it on) is the same directory, resolved.
    await expect(openDatabase({ kind: 'pglite', dataDir: path.relative(process.cwd(), dir) })).rejects.toThrow(
      `data directory ${dir} is in use`,
    );

    const child = `
      import { lockDataDir } from ${JSON.stringify(path.resolve('src/persistence/dir-lock.ts'))};
      try { lockDataDir(${JSON.stringify(dir)}).release(); console.log('LOCKED'); }
      catch (e) { console.log(e.message); process.exitCode = 3; }
    `;
    const run = () =>
      spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
        encoding: 'utf8',
        timeout: 30_000,
      });
    const refused = run();
    expect(refused.status, refused.stderr).toBe(3);
    expect(refused.stdout).toContain(`data directory ${dir} is in use by another process (pid ${process.pid})`);

    await opened.close();
    expect(fs.existsSync(lockPathFor(dir))).toBe(false);
    const admitted = run();
    expect(admitted.stdout.trim(), admitted.stderr).toBe('LOCKED');

    // and the data survived a reopen
    const again = await openStore({ kind: 'pglite', dataDir: dir });
    expect(await again.store.getMatch('none')).toBeNull();
    await again.close();
  });
});

describe('PGlite data directory lock under simultaneous starters', () => {
  it('with a stale lock, exactly one of many simultaneous starters owns the directory (issue 7 defect 6)', async () => {
    const { spawn } = await import('node:child_process');
    const dir = tmpDir();
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    fs.mkdirSync(path.dirname(lockPathFor(dir)), { recursive: true });
    fs.writeFileSync(lockPathFor(dir), JSON.stringify({ pid: Number(dead.stdout.trim()), host: os.hostname(), token: 'old' }));
    const N = 16;
    // A barrier, not a clock: each child loads its modules and says READY; once all are ready the
    // parent says GO to every one at once; each then tries the lock, says what it got, and holds
    // it until the parent says EXIT after all have answered. So every attempt overlaps every
    // holder, however slowly a loaded machine starts the children.
    const child = `
      import { createInterface } from 'node:readline';
      import { lockDataDir } from ${JSON.stringify(path.resolve('src/persistence/dir-lock.ts'))};
      console.log('READY');
      for await (const line of createInterface({ input: process.stdin })) {
        if (line === 'GO') {
          try { lockDataDir(${JSON.stringify(dir)}); console.log('LOCKED'); }
          catch (e) { console.log('REFUSED ' + e.message); }
        } else if (line === 'EXIT') process.exit(0);
      }
    `;
    const children = Array.from({ length: N }, () => {
      const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines: string[] = [];
      const waiters: Array<() => void> = [];
      let buffered = '';
      p.stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        lines.push(...parts.filter(Boolean));
        for (const w of waiters.splice(0)) w();
      });
      const closed = new Promise<void>((r) => p.on('close', () => r()));
      const nthLine = (n: number) =>
        new Promise<string>((resolve, reject) => {
          const check = () =>
            lines.length > n
              ? resolve(lines[n]!)
              : p.exitCode !== null
                ? reject(new Error(`child exited: ${lines.join(' | ')}`))
                : waiters.push(check);
          check();
        });
      return { p, nthLine, closed };
    });
    expect(await Promise.all(children.map((c) => c.nthLine(0)))).toEqual(Array(N).fill('READY'));
    for (const c of children) c.p.stdin.write('GO\n');
    const outputs = await Promise.all(children.map((c) => c.nthLine(1)));
    for (const c of children) c.p.stdin.write('EXIT\n');
    await Promise.all(children.map((c) => c.closed));
    const owners = outputs.filter((o) => o === 'LOCKED').length;
    expect(
      outputs.filter((o) => !o.startsWith('REFUSED') && o !== 'LOCKED'),
      outputs.join('\n'),
    ).toEqual([]);
    expect(owners, outputs.join('\n')).toBe(1);
  });
});
