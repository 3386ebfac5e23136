/**
 * The package is publishable as it is: its manifest points at files the build writes, it ships
 * its README and licence, it imports nothing of the server, the root install (`npm ci`) brings
 * everything it needs, and what tsc emits loads in plain Node and talks to the real service.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from './server.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const PKG_DIR = join(ROOT, 'clients/typescript');
const pkg = JSON.parse(readFileSync(join(PKG_DIR, 'package.json'), 'utf8'));
const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe('@evons/client package', () => {
  it('has a manifest for publishing: ESM exports with types, files, licence, README', () => {
    expect(pkg.name).toBe('@evons/client');
    expect(pkg.private).toBeUndefined();
    expect(pkg.type).toBe('module');
    expect(pkg.license).toBe('MIT');
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(pkg.types).toBe('./dist/index.d.ts');
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'LICENSE']));
    expect(pkg.scripts.prepack).toBe('npm run build'); // npm pack / publish build first
    expect(pkg.engines.node).toBe(rootPkg.engines.node);
    for (const f of ['README.md', 'LICENSE']) expect(existsSync(join(PKG_DIR, f)), f).toBe(true);
  });

  it("needs nothing the root install does not bring: each dependency is the root's, same range", () => {
    const root = { ...rootPkg.dependencies, ...rootPkg.devDependencies };
    const own = { ...pkg.dependencies, ...pkg.devDependencies };
    expect(Object.keys(pkg.dependencies)).toEqual(['openapi-fetch']);
    for (const [name, range] of Object.entries(own)) expect(root[name], name).toBe(range);
  });

  it('imports only its own modules and its dependencies (no server code)', () => {
    const allowed = new Set(Object.keys(pkg.dependencies));
    const bad: string[] = [];
    const files = readdirSync(join(PKG_DIR, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      for (const m of readFileSync(join(PKG_DIR, 'src', f), 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)) {
        const spec = m[1]!;
        if (spec.startsWith('./') ? spec.includes('../') : !allowed.has(spec)) bad.push(`${f}: ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  describe('built with tsc', () => {
    // Under node_modules so the build resolves openapi-fetch as an installed package would.
    const out = join(ROOT, 'node_modules/.cache', `evons-client-build-${process.pid}`);
    let s: Served;
    beforeAll(async () => {
      execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(PKG_DIR, 'tsconfig.json'), '--outDir', out],
        { stdio: 'pipe' },
      );
      s = await serve();
    });
    afterAll(async () => {
      rmSync(out, { recursive: true, force: true });
      await s?.close();
    });

    it('emits the files the manifest names, with declarations', () => {
      for (const f of ['index.js', 'index.d.ts', 'client.js', 'generated/openapi.d.ts']) expect(existsSync(join(out, f)), f).toBe(true);
    });

    it('loads in plain Node (no TypeScript loader) and creates a match on the real service', async () => {
      const script = `
        const { EvonsClient, EvonsProblem } = await import(${JSON.stringify(join(out, 'index.js'))});
        const c = new EvonsClient({ baseUrl: process.argv[1] });
        const m = await c.createMatch({ handle: 'ann', openSeat: true, decks: { p1: { starter: 'starter-storm-shade' } } });
        const v = await c.getMatch(m.id);
        const e = await c.getMatch('nope').catch((err) => err);
        console.log(JSON.stringify({ status: v.status, seat: v.seat, problem: e instanceof EvonsProblem ? e.code : null }));`;
      // Asynchronously: the server answering it runs in this process.
      const { stdout: printed } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, s.baseUrl], {
        encoding: 'utf8',
      });
      expect(JSON.parse(printed)).toEqual({ status: 'waiting', seat: 'p1', problem: 'match-not-found' });
    });
  });
});
