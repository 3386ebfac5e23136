/**
 * Every example in README.md and docs/ is run (see doc-blocks.ts for the markers): the README's
 * first match, the curl | jq walkthrough of docs/tutorial.md and the others; positions are
 * loaded with the engine's position functions, shell walkthroughs run with curl and jq against a
 * real server (random port, embedded PGlite), GraphQL documents are posted to /graphql, the
 * TypeScript example is imported; documented outputs must match what the examples print.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFromPosition, defaultCardSet, pendingDecision, stateFromPosition, toPosition } from '../../src/games/evons/index.js';
import { blocks, docFiles, type Block } from './doc-blocks.js';
import { ROOT } from './rule-ids.js';
import { pglite, useHarness } from '../api/helpers.js';

const all: Block[] = docFiles().flatMap((f) => blocks(f));
const ofKind = (k: Block['kind']) => all.filter((b) => b.kind === k);
const where = (b: Block) => `${b.file}:${b.line}`;

describe('doc examples are marked', () => {
  it('every fenced block carries a marker (run=…, output or no-run)', () => {
    expect(all.filter((b) => b.kind === 'unmarked').map(where)).toEqual([]);
  });

  it('finds the examples (removing markers cannot pass silently)', () => {
    expect(ofKind('shell').length).toBeGreaterThanOrEqual(3);
    expect(ofKind('position').length).toBeGreaterThanOrEqual(1);
    expect(ofKind('graphql').length).toBeGreaterThanOrEqual(1);
    expect(ofKind('ts').length).toBeGreaterThanOrEqual(1);
    expect(ofKind('output').length).toBeGreaterThanOrEqual(3);
    expect(all.some((b) => b.file === 'README.md' && b.kind === 'shell' && b.code.includes('/v1/matches') && b.output)).toBe(true);
    // The walkthrough moved from the README to docs/tutorial.md (issue 35): its sections' blocks.
    const tutorial = all.filter((b) => b.file === 'docs/tutorial.md' && b.kind === 'shell');
    expect(tutorial.length).toBeGreaterThanOrEqual(9);
    expect(tutorial.filter((b) => b.output).length).toBeGreaterThanOrEqual(5);
  });

  // The run below shares one bash session across the blocks of one file and passes API in; a
  // reader pastes one block into a new shell, often sh. So each shell block that calls the API
  // sets API itself (in every doc: docs/api.md's blocks once used the README's), and no block
  // fenced as sh uses words only bash knows.
  it('each shell block pastes into a new POSIX shell: it sets API before using it, and uses no bash-only words', () => {
    const setsApi = 'API=${API:-http://127.0.0.1:3000}';
    const noApi = ofKind('shell').filter((b) => {
      const first = b.code.split('\n').find((l) => /\$\{?API\b/.test(l));
      return first !== undefined && first !== setsApi;
    });
    expect(noApi.map(where)).toEqual([]);
    const bashOnly = /\$\{?(RANDOM|SECONDS|BASH\w*)\b|\[\[|<\(|\bdeclare\b|\bsource\b|\bfunction\b/;
    expect(
      ofKind('shell')
        .filter((b) => b.lang === 'sh' && bashOnly.test(b.code))
        .map(where),
    ).toEqual([]);
  });
});

describe('position examples load', () => {
  const cardSet = defaultCardSet();
  for (const b of ofKind('position')) {
    it(`${where(b)} loads, round-trips and starts a sandbox game`, () => {
      const r = stateFromPosition(JSON.parse(b.code), cardSet, 'docs-example');
      if (!r.ok) throw new Error(`${where(b)}: position rejected:\n${r.errors.join('\n')}`);
      const again = stateFromPosition(toPosition(r.state), cardSet, 'docs-example');
      expect(again.ok, 'toPosition output loads again').toBe(true);
      expect(createFromPosition(cardSet, JSON.parse(b.code), 'docs-example').ok).toBe(true);
      if (b.output) expect(pendingDecision(r.state), `${where(b.output)}`).toEqual(JSON.parse(b.output.code));
    });
  }
});

/**
 * Examples are whole programs (a bot playing a match on its own in-memory server, tsc on a
 * snippet): on a CI machine busy with the other suites they take several times longer than alone
 * (measured: 6–11 s alone, over 60 s in a loaded CI run). Not a speed check, a bound on a hang.
 */
const EXAMPLE_TIMEOUT_MS = 240_000;

describe('TypeScript examples run', () => {
  const tsBlocks = ofKind('ts');
  // Written beside src/ so their relative imports resolve as the reader's would.
  const base = (b: Block) => `.doc-example-${process.pid}-${tsBlocks.indexOf(b)}-${b.line}`;
  const config = join(ROOT, `.doc-example-${process.pid}.tsconfig.json`);
  let tsc: { code: number | null; stdout: string; stderr: string };

  // One tsc program for every example (each is a module of its own): the compiler's start, the
  // libraries and the src/ files they import are checked once instead of once per example.
  beforeAll(async () => {
    for (const b of tsBlocks) writeFileSync(join(ROOT, `${base(b)}.ts`), b.code);
    writeFileSync(config, JSON.stringify({ extends: './tsconfig.json', include: [], files: tsBlocks.map((b) => `${base(b)}.ts`) }));
    tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', config], process.env);
  }, EXAMPLE_TIMEOUT_MS);
  afterAll(() => {
    for (const b of tsBlocks) rmSync(join(ROOT, `${base(b)}.ts`), { force: true });
    rmSync(config, { force: true });
  });

  for (const b of tsBlocks) {
    it(
      `${where(b)} type-checks and runs from the repository root`,
      async () => {
        const output = `${tsc.stdout}${tsc.stderr}`;
        // tsc names the file of each diagnostic; a failure without one (a bad config) fails every example.
        const own = output.split('\n').filter((l) => l.startsWith(`${base(b)}.ts`));
        const unowned = tsc.code !== 0 && !tsBlocks.some((o) => output.includes(`${base(o)}.ts(`));
        expect(own.length === 0 && !unowned, `${where(b)} does not type-check:\n${output}`).toBe(true);
        await import(pathToFileURL(join(ROOT, `${base(b)}.ts`)).href);
      },
      EXAMPLE_TIMEOUT_MS,
    );
  }
});

describe('HTTP examples run against a real server', () => {
  // As `WEBHOOK_ALLOW_PRIVATE=true npm start` (docs/tutorial.md), with its sweeper (tournaments advance by it), a little faster.
  const h = useHarness(pglite, { graphiql: true, webhooks: { allowPrivate: true }, sweepIntervalMs: 200 });
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'evons-doc-examples-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('curl, jq and bash are installed (.ci/run installs curl and jq when missing)', () => {
    for (const tool of ['bash', 'curl', 'jq']) {
      expect(() => execFileSync('bash', ['-c', `command -v ${tool}`]), `${tool} not found`).not.toThrow();
    }
  });

  // One shell session per file, in document order: variables set by one block (the match id, the
  // tokens) are there for the file's next blocks, and none from another file's (under `set -u` a
  // block that uses a variable its own file never set fails).
  for (const b of ofKind('shell')) {
    it(
      `${where(b)} succeeds${b.output ? ' and prints the documented output' : ''}`,
      async () => {
        const state = join(dir, `session-${b.file.replace(/[^A-Za-z0-9]+/g, '-')}.sh`);
        const script = join(dir, `block-${b.line}.sh`);
        writeFileSync(script, shellHarness(b.code, state));
        const { code, stdout, stderr } = await run('bash', [script], { ...process.env, API: h.baseUrl() }, EXAMPLE_TIMEOUT_MS - 30_000);
        expect(code, `${where(b)} failed:\n${stderr}\n--- stdout ---\n${stdout}`).toBe(0);
        if (b.output) expect(stdout.trim(), where(b.output)).toBe(b.output.code.trim());
      },
      EXAMPLE_TIMEOUT_MS,
    );
  }

  for (const b of ofKind('graphql')) {
    it(`${where(b)} is accepted by /graphql`, async () => {
      const created = await postJson(`${h.baseUrl()}/v1/matches`, {
        handle: 'alice',
        opponentHandle: 'bob',
        decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } },
      });
      const match = (await (await fetch(`${h.baseUrl()}/v1/matches/${created.id}`)).json()) as {
        version: number;
        game: { pending: { seat: 'p1' | 'p2' } };
      };
      const token = created.tokens[match.game.pending.seat];
      const res = await postJson(
        `${h.baseUrl()}/graphql`,
        { query: b.code, variables: { matchId: created.id, version: match.version } },
        { authorization: `Bearer ${token}` },
      );
      expect(res.errors, `${where(b)}: ${JSON.stringify(res.errors)}`).toBeUndefined();
      expect(res.data).toBeTruthy();
    });
  }
});

/**
 * The block under `set -euo pipefail`, with curl failing on HTTP errors (and on GraphQL answers
 * that carry `errors`; a background feed, --no-buffer, as it is), after the variables of the previous blocks; its new variables are saved.
 */
function shellHarness(code: string, state: string): string {
  return `set -euo pipefail
curl() {
  # A feed read in the background (curl --no-buffer … &) passes through as it is, replacing its
  # subshell so that killing $! stops curl itself (-N keeps the capture: its stream ends by itself).
  local __a; for __a in "$@"; do if [ "$__a" = --no-buffer ] && [ "$BASHPID" != "$$" ]; then exec curl "$@"; fi; done
  local out
  if ! out=$(command curl --fail-with-body --max-time 60 "$@"); then
    echo "curl failed: curl $*" >&2; printf '%s\\n' "$out" >&2; return 22
  fi
  case "$*" in *"/graphql"*)
    if printf '%s' "$out" | jq -e 'has("errors")' >/dev/null; then echo "GraphQL errors: $out" >&2; return 1; fi;;
  esac
  printf '%s\\n' "$out"
}
__before=$(compgen -v | sort)
if [ -f '${state}' ]; then source '${state}'; fi
${code}
for __v in $(comm -13 <(printf '%s\\n' "$__before") <(compgen -v | sort)); do
  case "$__v" in __*|BASH*|API) continue;; esac
  declare -p "$__v"
done > '${state}.new' && mv '${state}.new' '${state}'
`;
}

/**
 * Runs a block. Past `timeoutMs` its whole process group (background jobs too) is killed and it
 * resolves with what it printed so far and the processes still running then, so a block that
 * hangs fails with its own output instead of the test runner's bare timeout.
 */
function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 0,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: timeoutMs > 0 });
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        let running = '';
        try {
          running = execFileSync('ps', ['-o', 'pid,etime,args', '-g', String(child.pid)], { encoding: 'utf8' });
        } catch {
          running = '(ps failed)';
        }
        stderr += `\n[timed out after ${timeoutMs / 1000} s; still running:\n${running}]`;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, timeoutMs);
    }
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
