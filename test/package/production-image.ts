/**
 * The production layout the Docker image runs (`/app`: dist/, prisma/migrations, package.json,
 * node_modules), built once per `npm test` run into a throw-away directory, so the suites that
 * start the compiled server never depend on an `npm run build` having run first, nor on a stale
 * dist/. The first suite to ask builds it (under an exclusive mkdir lock, since the two workers may
 * ask at once); the others wait for its `ready` marker. test/global-setup.ts names the directory and
 * removes it after the run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { build } from '../../scripts/build.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds (or waits for) the image layout; returns its directory (the image's /app). */
export async function productionImage(): Promise<string> {
  const dir = inject('productionImageDir');
  const ready = path.join(dir, 'ready');
  if (fs.existsSync(ready)) return dir;
  let builder = false;
  try {
    fs.mkdirSync(dir, { recursive: false });
    builder = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (!builder) {
    // Another worker is building: wait for its marker, counted in tries (the hook timeout bounds it).
    for (let i = 0; i < 3000 && !fs.existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
    if (!fs.existsSync(ready)) throw new Error(`the production build in ${dir} never finished`);
    return dir;
  }
  build(path.join(dir, 'dist'));
  fs.mkdirSync(path.join(dir, 'prisma'));
  fs.cpSync(path.join(repoRoot, 'prisma/migrations'), path.join(dir, 'prisma/migrations'), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(dir, 'package.json'));
  // Readable by the unprivileged user the non-root start test runs as, whatever the umask.
  openToAll(dir);
  // node_modules: a link to the checkout's when that user can reach it; else (a checkout under a
  // directory only its owner may pass, such as root's home) a tree of this layout's own.
  const modules = path.join(repoRoot, 'node_modules');
  if (othersCanRead(modules)) fs.symlinkSync(modules, path.join(dir, 'node_modules'), 'dir');
  else readableTree(modules, path.join(dir, 'node_modules'));
  fs.writeFileSync(ready, '');
  return dir;
}

/** Whether a user who is neither the owner nor in the group can pass every directory down to `p` and read it. */
export function othersCanRead(p: string): boolean {
  const target = fs.statSync(p);
  if ((target.mode & 0o004) === 0 || (target.isDirectory() && (target.mode & 0o001) === 0)) return false;
  // Node loads modules by their real path, so the directories that count are the real path's.
  for (let d = path.dirname(fs.realpathSync(p)); ; d = path.dirname(d)) {
    if ((fs.statSync(d).mode & 0o001) === 0) return false;
    if (path.dirname(d) === d) return true;
  }
}

/** Directories 755, files readable by all (and executable by all where the owner may execute). */
function openToAll(p: string): void {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    fs.chmodSync(p, 0o755);
    for (const e of fs.readdirSync(p)) openToAll(path.join(p, e));
  } else {
    fs.chmodSync(p, st.mode | 0o444 | (st.mode & 0o100 ? 0o111 : 0));
  }
}

/**
 * `src` re-made at `dst` for any user to read: directories new (755), symbolic links as they are
 * (node_modules' are relative), files hard-linked when they are readable by all already (no copy of
 * half a gigabyte on the same file system), else copied and opened up.
 */
function readableTree(src: string, dst: string): void {
  fs.mkdirSync(dst);
  fs.chmodSync(dst, 0o755);
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, e.name);
    const to = path.join(dst, e.name);
    if (e.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
    else if (e.isDirectory()) readableTree(from, to);
    else {
      const mode = fs.statSync(from).mode;
      const open = (mode & 0o004) !== 0 && ((mode & 0o100) === 0 || (mode & 0o001) !== 0);
      try {
        if (!open) throw new Error('copy');
        fs.linkSync(from, to);
      } catch {
        fs.copyFileSync(from, to);
        openToAll(to);
      }
    }
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    productionImageDir: string;
  }
}
