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
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // Readable by the unprivileged user the non-root start test runs as.
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(ready, '');
  return dir;
}

declare module 'vitest' {
  export interface ProvidedContext {
    productionImageDir: string;
  }
}
