/**
 * The package as a consumer's project gets it (README "Install"): built, laid in the project's
 * node_modules with its package.json, imported by name from a script with top-level await. The
 * README says such a project needs `"type": "module"`; this checks both sides of that sentence,
 * with a TypeScript script run by tsx as the README's examples are: with it the script runs, and
 * with `npm init -y`'s default (CommonJS) it fails as the README quotes.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const PKG_DIR = join(ROOT, 'clients/typescript');
const run = promisify(execFile);
const tsx = (cwd: string) => run(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'main.ts'], { cwd });

describe('a consumer project', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evons-client-consumer-'));
  const installed = join(dir, 'node_modules/@evons/client');
  const script =
    "import { EvonsClient } from '@evons/client';\nconst evons = new EvonsClient({ baseUrl: 'http://127.0.0.1:9' });\nawait Promise.resolve();\nconsole.log(typeof evons.createMatch);\n";

  beforeAll(async () => {
    mkdirSync(installed, { recursive: true });
    // What `npm pack` ships (package.json's files: dist, README.md, LICENSE), dist built here.
    await run(process.execPath, [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(PKG_DIR, 'tsconfig.json'),
      '--outDir',
      join(installed, 'dist'),
    ]);
    cpSync(join(PKG_DIR, 'package.json'), join(installed, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules/openapi-fetch'), join(dir, 'node_modules/openapi-fetch'), 'dir');
    writeFileSync(join(dir, 'main.ts'), script);
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('with "type": "module" runs a script that imports the client with top-level await', async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-bot', version: '1.0.0', type: 'module' }));
    const { stdout } = await tsx(dir);
    expect(stdout.trim()).toBe('function');
  });

  it("with npm init -y's default package.json (CommonJS) the same script fails, as the README warns", async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-bot', version: '1.0.0', main: 'index.js', license: 'ISC' }));
    const failed = await tsx(dir).then(
      () => 'ran',
      (e: { stderr: string }) => e.stderr,
    );
    expect(failed).toMatch(/Top-level await is (currently )?not supported with the "?cjs"? output format/);
  });

  it('the README tells a consumer both requirements', () => {
    const readme = readFileSync(join(PKG_DIR, 'README.md'), 'utf8');
    expect(readme).toContain('"type": "module"');
    expect(readme).toMatch(/openapi-typescript[^.]*needs TypeScript 5/);
    expect(readme).toMatch(/npm pack \.\/clients\/typescript --pack-destination/);
  });
});
