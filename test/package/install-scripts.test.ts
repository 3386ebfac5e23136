/**
 * npm 11 runs a dependency's install scripts only when package.json's `allowScripts` approves
 * them, and an install ends with a warning for each package it does not cover. Every package of
 * the lockfile that has install scripts is covered, each one denied: prisma, @prisma/engines and
 * @prisma/client try to download engines (the root's own postinstall, `prisma generate`, is what
 * the project needs); esbuild's postinstall only checks the binary its optional platform package
 * already ships; @scarf/scarf's is install-time telemetry (also off by `scarfSettings`). So a clean
 * `npm ci` prints no install-scripts warning, and nothing runs at install but the root's own script.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './production-image.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
  scarfSettings?: { enabled?: boolean };
};
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { name?: string; hasInstallScript?: boolean }>;
};

/** The lockfile's packages with install scripts, by name (`node_modules/a/node_modules/@b/c` → `@b/c`). */
const withScripts = [
  ...new Set(
    Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript)
      .map(([path, p]) => p.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  ),
].sort();

describe('install scripts of dependencies', () => {
  it('the lockfile has packages with install scripts (reading it cannot pass silently)', () => {
    expect(withScripts).toEqual(expect.arrayContaining(['prisma', '@prisma/engines', '@prisma/client']));
  });

  it("package.json's allowScripts covers every one of them, and names no other package", () => {
    const policy = pkg.allowScripts ?? {};
    const name = (key: string) => key.replace(/(?<=.)@.*$/, ''); // `pkg@1.2.3` → `pkg`
    expect(withScripts.filter((n) => !Object.keys(policy).some((k) => name(k) === n))).toEqual([]);
    expect(Object.keys(policy).filter((k) => !withScripts.includes(name(k)))).toEqual([]);
  });

  it('denies the ones that download (Prisma) or report home (scarf), and turns scarf off', () => {
    for (const name of ['prisma', '@prisma/engines', '@prisma/client', '@scarf/scarf']) expect(pkg.allowScripts?.[name], name).toBe(false);
    expect(pkg.scarfSettings?.enabled).toBe(false);
  });

  it('npm itself finds no install script its policy does not cover', async () => {
    // `npm install-scripts ls` reads the installed tree against package.json's policy: what an
    // install would list in its warnings. (A fresh `npm ci` in a temporary copy would say the same
    // at the cost of a whole install, about a minute of both cores here: not worth it per run.)
    const { stdout, stderr } = await promisify(execFile)('npm', ['install-scripts', 'ls'], { cwd: repoRoot, encoding: 'utf8' });
    expect(`${stdout}${stderr}`.trim()).toBe('No packages with unreviewed install scripts.');
  });
});
