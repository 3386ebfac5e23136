/**
 * Exclusive lock on a PGlite data directory. PGlite allows one opener per directory and a
 * second opener hangs instead of failing, so we fail fast before opening: a lock file next to
 * the directory (`<dataDir>.lock`), created with O_EXCL, holding the owner's pid and host.
 * A lock whose pid is dead (same host) is stale and taken over. Released on close and, as a
 * last resort, when the process exits.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number | null,
    readonly host: string | null,
  ) {
    const who = pid === null ? 'another process' : `another process (pid ${pid}${host && host !== os.hostname() ? ` on ${host}` : ''})`;
    super(`data directory ${dataDir} is in use by ${who}; stop it or choose another DATA_DIR`);
    this.name = 'DataDirLockedError';
  }
}

export interface DirLock {
  readonly path: string;
  release(): void;
}

interface LockInfo {
  pid: number;
  host: string;
  token: string;
}

function readLock(file: string): LockInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockInfo>;
    if (typeof info.pid !== 'number') return null;
    return { pid: info.pid, host: String(info.host ?? ''), token: String(info.token ?? '') };
  } catch {
    return null; // missing, or half-written by an owner that is creating it right now
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock file used for a data directory. */
export function lockPathFor(dataDir: string): string {
  return `${path.resolve(dataDir).replace(/[\\/]+$/, '')}.lock`;
}

/** Takes the lock or throws DataDirLockedError at once (never waits). */
export function lockDataDir(dataDir: string): DirLock {
  const file = lockPathFor(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const me: LockInfo = { pid: process.pid, host: os.hostname(), token: `${process.pid}-${Date.now()}-${Math.random()}` };

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx'); // O_CREAT | O_EXCL
      try {
        fs.writeSync(fd, JSON.stringify({ ...me, dataDir: path.resolve(dataDir), since: new Date().toISOString() }));
      } finally {
        fs.closeSync(fd);
      }
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        process.off('exit', release);
        // Only remove the file if it is still ours.
        if (readLock(file)?.token === me.token) fs.rmSync(file, { force: true });
      };
      process.on('exit', release);
      return { path: file, release };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = readLock(file);
    if (owner === null) {
      // Unreadable: either being written this instant or garbage. Treat a file older than a few
      // seconds as garbage; otherwise it is someone starting up.
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 5_000) throw new DataDirLockedError(dataDir, null, null);
    } else if (owner.host !== os.hostname() || isAlive(owner.pid)) {
      throw new DataDirLockedError(dataDir, owner.pid, owner.host);
    }
    // Stale: the owner died without releasing. Remove it (if unchanged) and try again.
    const again = readLock(file);
    if (again?.token === owner?.token) fs.rmSync(file, { force: true });
  }
  const owner = readLock(file);
  throw new DataDirLockedError(dataDir, owner?.pid ?? null, owner?.host ?? null);
}
