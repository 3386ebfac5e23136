/**
 * The ladder harness (npm run bench:ai) cannot rot: a tiny ladder runs on its two worker threads,
 * every game ends with each computer decision timed, and its statistics say what they should.
 */
import { expect, it } from 'vitest';
import { ceiling, ladder, runLadder } from '../../bench/ai.js';
import { eloGap, gamesOf, playGame, wilson } from '../../bench/lib/ai-ladder.js';

it('plays a tiny ladder on two worker threads, both games, every pairing kind', async () => {
  const pairings = [
    ...ladder('universus', () => 1).filter((p) => p.b.kind === 'random' || (p.a.kind === 'ai' && p.a.level === 2)),
    ...ladder('evons', () => 1).filter((p) => p.b.kind === 'random' || p.b.kind === 'bot'),
    ...ceiling('evons', 1),
  ];
  expect(pairings.map((p) => `${p.game}:${p.a.kind}-${p.b.kind}`)).toEqual([
    'universus:ai-random',
    'universus:ai-ai',
    'evons:ai-random',
    'evons:ai-bot',
    'evons:ai-uniform',
    'evons:budget-random',
    'evons:oracle-random',
  ]);
  // The bot pairing at level 8 would take seconds: level 1 plays the bot here.
  const specs = pairings.flatMap((p) => gamesOf(p.b.kind === 'bot' ? { ...p, a: { kind: 'ai', level: 1 } } : p, 'tiny'));
  const results = await runLadder(specs, 2);
  expect(results).toHaveLength(specs.length);
  for (const [i, r] of results.entries()) {
    expect(r.decisions, specs[i]!.seed).toBeGreaterThan(0);
    const aiSeats = (['p1', 'p2'] as const).filter((s) => ['ai', 'budget', 'oracle'].includes(specs[i]!.players[s].kind));
    expect(aiSeats.some((s) => r.cpu[s].length > 0)).toBe(true);
  }
});

it('every pairing alternates seats and names its seeds', () => {
  const [p] = ladder('universus', () => 4);
  const games = gamesOf(p!, 'seed');
  expect(games.map((g) => g.players.p1.kind)).toEqual(['ai', 'random', 'ai', 'random']);
  expect(games[3]!.seed).toBe('seed:universus:L1-random:3');
});

it("a game is a function of its seed: played again, the same decisions and the same winner (so a pairing re-run alone plays the ladder's games)", () => {
  for (const game of ['evons', 'universus']) {
    const [spec] = gamesOf({ game, a: { kind: 'ai', level: 5 }, b: { kind: 'ai', level: 1 }, games: 1 }, 'again');
    const once = playGame(spec!);
    const twice = playGame(spec!);
    expect(twice.decisions).toBe(once.decisions);
    expect(twice.winner).toBe(once.winner);
    expect(twice.cpu.p1.length + twice.cpu.p2.length).toBe(once.cpu.p1.length + once.cpu.p2.length);
  }
});

it('Wilson intervals and Elo gaps', () => {
  const [lo, hi] = wilson(50, 100);
  expect(lo).toBeCloseTo(0.404, 2);
  expect(hi).toBeCloseTo(0.596, 2);
  expect(wilson(10, 10)[1]).toBeCloseTo(1, 6);
  expect(eloGap(0.5)).toBe(0);
  expect(eloGap(0.76)).toBeCloseTo(200, -1);
  expect(eloGap(1)).toBe(800);
});
