/**
 * The bot through the real service: playMatch with the typed client (each seat waiting for its
 * turn on the live stream) and the CLI's commands, host and join as two separate processes.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvonsClient } from '../../../clients/typescript/src/index.js';
import { serve, type Served } from '../../../clients/typescript/test/server.js';
import { playMatch } from '../play.js';
import { greedy, random } from '../strategies.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** `npm run bot -- …` without npm: tsx on the CLI, from the repository root. */
function bot(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/bot/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const firstLine = new Promise<string>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { firstLine, done };
}

describe('the bot on the real service', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('plays a match to the end, each seat driven by the live stream', async () => {
    const a = new EvonsClient({ baseUrl: s.baseUrl });
    const b = new EvonsClient({ baseUrl: s.baseUrl });
    const created = await a.createMatch({ handle: 'greedy', openSeat: true, decks: { p1: { starter: 'starter-storm-shade' } } });
    await b.joinMatch(created.id, { handle: 'random', deck: { starter: 'starter-ember-tide' } });
    const moves = { a: 0, b: 0 };
    const [fa, fb] = await Promise.all([
      playMatch(a, created.id, greedy('api:g'), { onDecision: () => moves.a++ }),
      playMatch(b, created.id, random('api:r'), { onDecision: () => moves.b++ }),
    ]);
    expect(fa.status).toBe('finished');
    expect(fb.status).toBe('finished');
    expect(fa.winner).toBe(fb.winner);
    expect(moves.a).toBeGreaterThan(0);
    expect(moves.b).toBeGreaterThan(0);
    // Every decision in the log is one of the two bots' actions.
    const log = await a.eventPage(created.id, { limit: 500 });
    expect(log.events.length).toBeGreaterThan(moves.a + moves.b);
  });

  it('CLI: host prints the match, join (another process) takes the seat, both play it out', async () => {
    const host = bot(['host', '--server', s.baseUrl, '--strategy', 'greedy', '--seed', 'cli']);
    const line = await host.firstLine;
    const id = /^match (\S+) waiting for an opponent/.exec(line)?.[1];
    expect(id, line).toBeTruthy();
    const join = await bot(['join', '--server', s.baseUrl, '--match', id!, '--strategy', 'random', '--seed', 'cli']).done;
    const hosted = await host.done;
    expect(join.code, join.stderr).toBe(0);
    expect(hosted.code, hosted.stderr).toBe(0);
    expect(join.stdout).toContain(`joined match ${id} as p2`);
    // Both print the same ending, naming their own strategy.
    const ending = new RegExp(`^match ${id}: .* (beat|drew) `, 'm');
    expect(hosted.stdout).toMatch(ending);
    expect(join.stdout).toMatch(ending);
    const final = await new EvonsClient({ baseUrl: s.baseUrl }).getMatch(id!);
    expect(final.status).toBe('finished');
  });

  it('CLI: versus plays the matches and prints the tally', async () => {
    const { code, stdout, stderr } = await bot(['versus', '--server', s.baseUrl, '--matches', '2', '--seed', 'cli']).done;
    expect(code, stderr).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(3);
    expect(stdout).toMatch(/^greedy won [0-2] of 2 against random \(\d+%\), [0-2] drawn$/m);
  });

  it('CLI: versus --game universus --level 2 plays UniVersus with the search', async () => {
    const { code, stdout, stderr } = await bot([
      'versus',
      '--server',
      s.baseUrl,
      '--game',
      'universus',
      '--level',
      '2',
      '--matches',
      '1',
      '--seed',
      'cli',
    ]).done;
    expect(code, stderr).toBe(0);
    const id = /^match (\S+): /m.exec(stdout)?.[1];
    expect(id, stdout).toBeTruthy();
    expect(stdout).toMatch(/^match \S+: .*level:2 \(p1\)/m);
    expect(stdout).toMatch(/^level:2 won [01] of 1 against random \(\d+%\), [01] drawn$/m);
    const final = await new EvonsClient({ baseUrl: s.baseUrl }).getMatch(id!);
    expect(final).toMatchObject({ gameId: 'universus', status: 'finished' });
    expect(final.seats.map((x) => x.handle)).toEqual(['bot-level-2', 'bot-random']);
  });
});
