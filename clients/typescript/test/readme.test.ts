/**
 * The README's TypeScript examples type-check against the client as a user would import it
 * (`from '@evons/client'`, mapped to this package's source). They are not run here: they talk to a
 * server at a fixed address; the behaviour they show is what client.test.ts and events.test.ts test.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const PKG_DIR = join(ROOT, 'clients/typescript');
const blocks = [...readFileSync(join(PKG_DIR, 'README.md'), 'utf8').matchAll(/^```ts[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

describe('clients/typescript/README.md', () => {
  const dir = join(ROOT, 'node_modules/.cache', `evons-client-readme-${process.pid}`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has TypeScript examples, each importing the package by name', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const b of blocks) expect(b).toContain("from '@evons/client'");
  });

  it('every TypeScript example type-checks against the client', async () => {
    mkdirSync(dir, { recursive: true });
    const files = blocks.map((code, i) => {
      const f = join(dir, `example-${i}.ts`);
      writeFileSync(f, code);
      return f;
    });
    const base = JSON.parse(readFileSync(join(PKG_DIR, 'tsconfig.json'), 'utf8'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...base.compilerOptions,
          noEmit: true,
          rootDir: undefined,
          outDir: undefined,
          declaration: false,
          paths: { '@evons/client': [join(PKG_DIR, 'src/index.ts')] },
        },
        files,
      }),
    );
    const tsc = await promisify(execFile)(process.execPath, [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(dir, 'tsconfig.json'),
    ]).catch((e: { stdout: string; stderr: string; code: number }) => e);
    expect('code' in tsc ? `${tsc.stdout}${tsc.stderr}` : '').toBe('');
  });
});
