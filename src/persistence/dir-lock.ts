/**
 * Exclusive lock on a PGlite data directory. PGlite allows one opener per directory and a
 * second opener hangs instead of failing, so we fail fast before opening: a lock file inside the
 * directory (`<dataDir>/evons.lock`: PostgreSQL ignores files it does not know there), hard-linked
 * into place (exclusive, never half-written), holding the owner's pid and host. Inside, not beside:
 * the process may own only the directory (the image's /data volume, as user `node`), not its parent.
 * A lock whose pid is dead (same host) is stale and taken over. Released on close and, as a
 * last resort, when the process exits.
 */
import { randomUUID } from 'node:crypto';
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
  return path.join(path.resolve(dataDir), 'evons.lock');
}

const TAKEOVER_STALE_MS = 10_000;

/**
 * Removes the stale lock `staleToken` under an exclusive `<lock>.takeover` mutex. False when
 * another starter holds the mutex (it is taking over right now: let it win).
 */
function takeOverStale(file: string, staleToken: string | null): boolean {
  const mutex = `${file}.takeover`;
  let fd: number;
  try {
    fd = fs.openSync(mutex, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // A takeover takes milliseconds; a mutex this old belongs to a starter that died mid-way.
    const age = Date.now() - (fs.statSync(mutex, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > TAKEOVER_STALE_MS) fs.rmSync(mutex, { force: true });
    return false;
  }
  try {
    fs.closeSync(fd);
    const now = readLock(file);
    // Still the same stale lock (or gone): remove it. Otherwise someone already took over.
    const garbage =
      now === null && staleToken === null && Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) >= 5_000;
    if (garbage || (now !== null && now.token === staleToken)) fs.rmSync(file, { force: true });
    return true;
  } finally {
    fs.rmSync(mutex, { force: true });
  }
}

/** Takes the lock or throws DataDirLockedError at once (never waits). */
export function lockDataDir(dataDir: string): DirLock {
  const file = lockPathFor(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const me: LockInfo = { pid: process.pid, host: os.hostname(), token: `${process.pid}-${Date.now()}-${randomUUID()}` };

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // Written in full to a private file, then hard-linked into place: link() fails if the lock
      // exists, and nobody ever sees a half-written lock.
      const tmp = `${file}.${me.token}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ ...me, dataDir: path.resolve(dataDir), since: new Date().toISOString() }));
      try {
        fs.linkSync(tmp, file);
      } finally {
        fs.rmSync(tmp, { force: true });
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
    // Stale: the owner died without releasing. Removing it is a read-then-delete, so two starters
    // could each delete the other's fresh lock; only the holder of the takeover mutex (itself an
    // exclusive create) may remove a stale lock, and it re-reads the lock while holding it.
    if (!takeOverStale(file, owner?.token ?? null)) throw new DataDirLockedError(dataDir, owner?.pid ?? null, owner?.host ?? null);
  }
  const owner = readLock(file);
  throw new DataDirLockedError(dataDir, owner?.pid ?? null, owner?.host ?? null);
}
