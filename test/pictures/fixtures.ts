/**
 * Positions for the picture tests, all deterministic: dealt matches from a fixed seed played on
 * by the engine's seeded random player, and stacked UniVersus positions (test/games/universus).
 * `matchView` wraps a game view the way GET /v1/matches/{id} does (src/service/match/reads.ts).
 */
import { expect } from 'vitest';
import type { Seat, Viewer } from '../../src/core/ruleset.js';
import { expandDeck } from '../../src/core/ruleset.js';
import { evons, randomPlayer, seededPick, type GameState } from '../../src/games/evons/index.js';
import type { GameView } from '../../src/games/evons/view.js';
import { universus, type UniversusState } from '../../src/games/universus/index.js';
import type { UniversusView } from '../../src/games/universus/view.js';
import type { MatchOutcome, MatchView } from '../../src/service/match/types.js';

const starters = (r: { starterDecks: readonly { cards: { card: string; count: number }[] }[] }, a: number, b: number) => ({
  p1: expandDeck(r.starterDecks[a]!.cards),
  p2: expandDeck(r.starterDecks[b]!.cards),
});

function dealt<S>(r: { ok: true; state: S } | { ok: false; errors: string[] }): S {
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.state;
}

/** An Evons match dealt from `seed` and played `moves` decisions on (fewer if it ends first). */
export function evonsAfter(seed: string, moves: number): GameState {
  let s = dealt(evons.create({ config: evons.configSchema.parse({}), decks: starters(evons, 0, 2), seed }));
  const pick = randomPlayer(`${seed}:moves`);
  for (let i = 0; i < moves; i++) {
    const p = evons.pending(s);
    if (!p) break;
    const r = evons.apply(s, p.seat, pick(s, evons.legalActions(s, p.seat)));
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
  }
  return s;
}

/** The same, played to the end. */
export function evonsFinished(seed: string): GameState {
  const s = evonsAfter(seed, 5000);
  if (!s.result) throw new Error('the random match did not end in 5000 decisions');
  return s;
}

/** A dealt UniVersus match played `moves` decisions on by a seeded uniform choice. */
export function universusAfter(seed: string, moves: number): UniversusState {
  let s = dealt(universus.create({ config: universus.configSchema.parse({}), decks: starters(universus, 0, 1), seed }));
  const pick = seededPick(`${seed}:moves`);
  for (let i = 0; i < moves; i++) {
    const p = universus.pending(s);
    if (!p) break;
    const actions = universus.legalActions(s, p.seat);
    const r = universus.apply(s, p.seat, actions[pick(actions.length)]);
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
  }
  return s;
}

const HANDLES: Record<Seat, string> = { p1: 'alice', p2: 'bob' };

function wrapView<G extends 'evons' | 'universus'>(
  gameId: G,
  game: G extends 'evons' ? GameView : UniversusView,
  viewer: Viewer,
  outcome: MatchOutcome | null,
): MatchView {
  return {
    id: `pictures-${gameId}`,
    gameId,
    version: 1,
    status: outcome ? 'finished' : 'active',
    winner: outcome?.winner ?? null,
    seat: viewer === 'spectator' ? null : viewer,
    seats: (['p1', 'p2'] as const).map((s) => ({ seat: s, handle: HANDLES[s], joined: true, verified: false, bot: false })),
    sandbox: false,
    engineVersion: 'test',
    rulesHash: 'test',
    cardSetId: 'test',
    createdAt: '2026-01-01T00:00:00.000Z',
    timeControl: { kind: 'none' },
    clock: null,
    outcome,
    seed: null,
    game,
  } as MatchView;
}

export function evonsMatchView(s: GameState, viewer: Viewer): MatchView {
  const o = evons.outcome(s);
  return wrapView('evons', evons.view(s, viewer), viewer, o && { winner: o.winner, reason: o.reason });
}

export function universusMatchView(s: UniversusState, viewer: Viewer): MatchView {
  const o = universus.outcome(s);
  return wrapView('universus', universus.view(s, viewer), viewer, o && { winner: o.winner, reason: o.reason });
}

export const VIEWERS: Viewer[] = ['p1', 'p2', 'spectator'];

/** Every card name of both card sets (to look for in pictures). */
export const ALL_CARD_NAMES: { game: 'evons' | 'universus'; name: string }[] = [
  ...(evons.cardSet.cards as { name: string }[]).map((c) => ({ game: 'evons' as const, name: c.name })),
  ...(universus.cardSet.cards as { name: string }[]).map((c) => ({ game: 'universus' as const, name: c.name })),
];

/** Width and height from the IHDR chunk, after checking the PNG signature. */
export function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
