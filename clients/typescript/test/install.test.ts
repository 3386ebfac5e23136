/**
 * The README's "Install" runs as pasted, in order, as a new user runs it: its `run=install` blocks
 * in one shell, from the root of a checkout whose dependencies are installed, with `../my-bot`
 * not there yet. The checkout is a copy in a temporary folder (the package's sources and the
 * root's package.json, node_modules linked), so `../my-bot` is a folder of the test's own; the
 * project it makes then imports the installed client by name with top-level await.
 * `npm install` of the tarball fetches openapi-fetch from the registry (npm's cache first).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { blocks } from '../../../test/docs/doc-blocks.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const PKG_DIR = join(ROOT, 'clients/typescript');
const run = promisify(execFile);
// npm's own start, tsc on the package (pack's prepack) and an install.
const TIMEOUT_MS = 300_000;

describe('clients/typescript/README.md "Install"', () => {
  const install = blocks('clients/typescript/README.md').filter((b) => b.kind === 'install');
  const dir = mkdtempSync(join(tmpdir(), 'evons-client-install-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has the install blocks, and no other shell block in the section', () => {
    expect(install.length).toBeGreaterThanOrEqual(2);
    const readme = readFileSync(join(PKG_DIR, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Install'), readme.indexOf('\n## ', readme.indexOf('## Install') + 1));
    expect(section.match(/^```sh.*$/gm)).toEqual(install.map(() => '```sh run=install'));
  });

  it(
    'runs as pasted, in order, in a fresh checkout, and the new project imports the client',
    async () => {
      const checkout = join(dir, 'evons');
      mkdirSync(join(checkout, 'clients'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
      cpSync(PKG_DIR, join(checkout, 'clients/typescript'), {
        recursive: true,
        filter: (src) => !/\/clients\/typescript\/(dist|node_modules)(\/|$)/.test(src),
      });
      symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');

      const script = ['set -e', ...install.map((b) => b.code)].join('\n');
      const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
      const shell = await run('bash', ['-c', script], { cwd: checkout, env, timeout: TIMEOUT_MS }).catch(
        (e: { stdout: string; stderr: string; code: number }) => e,
      );
      expect('code' in shell ? `exit ${shell.code}\n${shell.stdout}\n${shell.stderr}` : '').toBe('');

      const project = join(dir, 'my-bot');
      expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).toMatchObject({
        type: 'module',
        dependencies: { '@evons/client': 'file:evons-client-0.1.0.tgz' },
      });
      expect(existsSync(join(checkout, 'clients/typescript/evons-client-0.1.0.tgz')), 'no tarball left in the repository').toBe(false);
      writeFileSync(
        join(project, 'main.js'),
        "import { EvonsClient } from '@evons/client';\nawait Promise.resolve();\nconsole.log(typeof new EvonsClient({ baseUrl: 'http://127.0.0.1:9' }).createMatch);\n",
      );
      const { stdout } = await run(process.execPath, ['main.js'], { cwd: project });
      expect(stdout.trim()).toBe('function');
    },
    TIMEOUT_MS,
  );
});
