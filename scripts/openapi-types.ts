/**
 * `npm run openapi:types [-- --check]`: the TypeScript types generated from the committed
 * openapi/openapi.json (openapi-typescript), in both places that compile against them: the
 * contract tests' client and the published client package. With --check nothing is written and
 * the command fails when either copy differs from what the document generates (CI runs this).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPE_OUTPUTS = ['test/contract/generated/api.d.ts', 'clients/typescript/src/generated/openapi.ts'];

const check = process.argv.includes('--check');
const bin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'openapi-typescript.cmd' : 'openapi-typescript');
let failed = false;
for (const out of TYPE_OUTPUTS) {
  const r = spawnSync(bin, ['openapi/openapi.json', '--output', out, ...(check ? ['--check'] : [])], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${out}: ${check ? 'differs from openapi/openapi.json; run npm run openapi:types' : 'generation failed'}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
