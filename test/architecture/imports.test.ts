/**
 * The module graph stays a tree of layers: the order of the layers of src/ is written once, in
 * .dependency-cruiser.mjs (docs/architecture.md, The layers), and `npm run lint` checks it with
 * dependency-cruiser. This suite runs the same cruise, so that `npm test` fails on an import
 * against the order or an import cycle too, and checks that the cruise finds the modules and
 * fails on a violation (it guards the check itself). ESLint checks the purity rules.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.mjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** `depcruise src --config .dependency-cruiser.mjs` (npm run lint's) in `cwd`: its exit code and what it printed. */
function depcruise(cwd: string, outputType: 'json' | 'err'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', outputType],
      { cwd, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') fail(err);
        else done({ code: err ? (err.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** The cruise's modules and violations, each violation as "rule: from → to". */
async function cruise(cwd: string): Promise<{ modules: number; violations: string[] }> {
  const r = await depcruise(cwd, 'json');
  let out: { modules: unknown[]; summary: { violations: Violation[] } };
  try {
    out = JSON.parse(r.stdout) as typeof out;
  } catch {
    throw new Error(`depcruise printed no report (exit ${r.code}): ${r.stderr}`);
  }
  return { modules: out.modules.length, violations: out.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`) };
}

describe('module graph (dependency-cruiser, .dependency-cruiser.mjs)', () => {
  it('src/ has no import cycle and no import against the layers', async () => {
    const r = await cruise(ROOT);
    expect(r.modules).toBeGreaterThan(250); // the cruise found the modules: not an empty pass
    expect(r.violations).toEqual([]);
  });

  it('fails on a violation (guards the check itself): a layer import, an import of the composition root, a cycle (reported once)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evons-layers-'));
    try {
      const files: Record<string, string> = {
        'src/config/env.ts': "import { open } from '../persistence/database.js';\nexport const env = open;\n",
        'src/persistence/database.ts': 'export const open = 1;\n',
        'src/http/drain.ts': "import { app } from '../app.js';\nexport const drain = app;\n",
        'src/app.ts': 'export const app = 1;\n',
        'src/core/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
        'src/core/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' }, include: ['src'] }),
      };
      for (const [f, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, f)), { recursive: true });
        writeFileSync(join(dir, f), text);
      }
      expect(new Set((await cruise(dir)).violations)).toEqual(
        new Set([
          'layer-config: src/config/env.ts → src/persistence/database.ts',
          'layer-http: src/http/drain.ts → src/app.ts',
          'no-circular: src/core/a.ts → src/core/b.ts',
        ]),
      );
      // npm run lint's form (the default output) exits non-zero on them.
      const lint = await depcruise(dir, 'err');
      expect(lint.code).not.toBe(0);
      expect(lint.stdout).toContain('3 dependency violations (3 errors');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what the store keeps', () => {
  it("no HTTP status: an idempotency record is an accepted action's answer (the status_code column was dropped)", () => {
    const schema = readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8');
    const model = /model IdempotencyKey \{([^}]*)\}/.exec(schema)?.[1];
    expect(model).toBeDefined();
    expect(model).toContain('requestHash');
    expect(model).not.toMatch(/status/i);
  });
});
