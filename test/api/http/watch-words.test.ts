/**
 * The watch page's move list in words (src/http/watch/words.js and each game's watch script,
 * src/games/<game>/watch.js, browser modules run here in Node, each game's loaded through its
 * module's `watch.script` as the page loads it): each game's events as the API sends them become
 * short sentences; bookkeeping events are left out; a card is named only after an event named it
 * to this reader, else by its cell; and a real match's events, for a seat and for a spectator,
 * all narrate without an unknown type.
 */
import { describe, expect, it } from 'vitest';
import type { WatchScript } from '../../../src/games/game-module.js';
import { GAME_IDS, GAME_MODULES, type GameId } from '../../../src/games/registry.js';
import { createNarrator, type ApiEvent } from '../../../src/http/watch/words.js';
import { bearer, createHotSeat, nextMove, useHarness, pglite } from '../helpers.js';

/** Each game's watch script, loaded from the file its module names. */
const scripts = Object.fromEntries(
  await Promise.all(
    GAME_IDS.map(async (id) => [id, ((await import(GAME_MODULES[id].watch.script.href)) as { default: WatchScript }).default] as const),
  ),
) as Record<GameId, WatchScript>;

const names: Record<string, string> = {
  'gravel-mole': 'Gravel Mole',
  F05: 'Horse Relay',
  A07: 'Quick Jab',
  C01: 'Scout Captain',
  C02: 'Iron Duke',
};
const labels: Record<string, string> = { p1: 'alice', p2: 'bob' };
const narrator = (game: GameId) =>
  createNarrator({ words: scripts[game].words, cardName: (id) => names[id], seatLabel: (s) => labels[s] ?? s });
let seq = 0;
const ev = (event: ApiEvent['event'], source: 'game' | 'match' = 'game'): ApiEvent => ({ seq: ++seq, actingSeat: null, source, event });

describe('the move list in words', () => {
  it('Evons: names a covered card only once an event named it, and leaves bookkeeping out', () => {
    const say = narrator('evons');
    expect(say(ev({ type: 'CardPlayed', seat: 'p1', card: 'c1', cell: 'C3', covered: true, paid: 0, total: 50 }))).toBe(
      'alice plays a card covered on C3',
    );
    expect(say(ev({ type: 'ActivationStarted', card: 'c1', cell: 'C3', kind: 'activation' }))).toBe('the card at C3 activates at C3');
    expect(say(ev({ type: 'CardRevealed', seat: 'p1', card: 'c1', defId: 'gravel-mole', cell: 'C3', paid: 1, total: 49 }))).toBe(
      'alice reveals Gravel Mole at C3 (pays 1)',
    );
    expect(say(ev({ type: 'ActivationStarted', card: 'c1', cell: 'C3', kind: 'reactivation' }))).toBe('Gravel Mole reactivates at C3');
    expect(say(ev({ type: 'StepStarted', step: 'play' }))).toBeNull();
    expect(say(ev({ type: 'PhaseStarted', card: 'c1', phase: 'flip' }))).toBeNull();
    expect(say(ev({ type: 'CardDrawn', seat: 'p2' }))).toBeNull();
    expect(say(ev({ type: 'CardDrawn', seat: 'p1', card: 'c9', defId: 'gravel-mole' }))).toBe('alice draws Gravel Mole');
    expect(say(ev({ type: 'GameEnded', reason: 'main-zone-full', winner: 'p2', scores: { p1: 3, p2: 7 } }))).toBe(
      'Game over: bob wins (main-zone-full), 3–7',
    );
    expect(say(ev({ type: 'SomethingNew', x: 1 }))).toBe('Something new');
  });

  it('UniVersus: learns instances from attempts, and names characters and cards by the public card list', () => {
    const say = narrator('universus');
    expect(say(ev({ type: 'GameStarted', firstPlayer: 'p2', characters: { p1: 'C01', p2: 'C02' } }))).toBe(
      'Game on: alice plays Scout Captain, bob plays Iron Duke; bob goes first',
    );
    expect(say(ev({ type: 'CardsDrawn', seat: 'p1', count: 3 }))).toBe('alice draws 3 cards');
    expect(say(ev({ type: 'PlayAttempted', seat: 'p1', id: 'i1', card: 'A07', difficulty: 2 }))).toBe(
      'alice tries to play Quick Jab (difficulty 2)',
    );
    expect(say(ev({ type: 'AttackStarted', seat: 'p1', id: 'i1', zone: 'HIGH', speed: 5, damage: 2 }))).toBe(
      'alice attacks with Quick Jab: HIGH, speed 5, damage 2',
    );
    expect(say(ev({ type: 'CardDiscarded', seat: 'p2', id: 'unknown' }))).toBe('bob discards a card');
    expect(say(ev({ type: 'BlockResolved', seat: 'p2', outcome: 'HALF' }))).toBe('bob blocks half the damage');
    expect(say(ev({ type: 'CombatResumed', seat: 'p1' }))).toBeNull();
  });

  it("the match's own records, in every game", () => {
    for (const game of GAME_IDS) {
      const say = narrator(game);
      expect(say(ev({ type: 'ClockSet' }, 'match'))).toBeNull();
      const ended = (end: Record<string, unknown>) => ev({ type: 'MatchEnded', end: { at: 1, ...end } }, 'match');
      expect(say(ended({ reason: 'timed-out', seat: 'p1', winner: 'p2' }))).toBe('alice ran out of time: bob wins');
      expect(say(ended({ reason: 'resigned', seat: 'p2', winner: 'p1' }))).toBe('bob resigned: alice wins');
      expect(say(ended({ reason: 'aborted', seat: null, winner: null }))).toBe('The match was called off (nobody moved in time)');
      expect(say(ev({ type: 'RematchOffered', by: 'p2', at: 1, expiresAt: 2 }, 'match'))).toBe('bob offered a rematch');
      expect(say(ev({ type: 'RematchDeclined', by: 'p1', at: 1 }, 'match'))).toBe('alice declined the rematch');
      expect(say(ev({ type: 'RematchAccepted', by: 'p1', at: 1, matchId: 'x' }, 'match'))).toBe('alice accepted the rematch');
      expect(say(ev({ type: 'RematchOf', matchId: 'x' }, 'match'))).toBeNull();
      // A game's own event of the same name is the game's to word.
      expect(say(ev({ type: 'MatchEnded', reason: 'whatever' }))).not.toMatch(/ran out of time|called off/);
    }
  });

  describe('on the events of real matches', () => {
    const h = useHarness(pglite);

    it('every event type either game sends narrates as a known sentence or is left out, for a seat and a spectator', async () => {
      const cards = new Map<string, string>();
      for (const game of ['evons', 'universus']) {
        for (const c of (await h.http.get(`/v1/games/${game}/cards`).expect(200)).body.cards) cards.set(c.id, c.name);
      }
      for (const game of ['evons', 'universus'] as const) {
        const decks = (await h.http.get(`/v1/games/${game}/decks`).expect(200)).body.decks as { id: string }[];
        const m = await createHotSeat(h.http, {
          game,
          decks: { p1: { starter: decks[0]!.id }, p2: { starter: (decks[1] ?? decks[0])!.id } },
        });
        for (let i = 0; i < 30; i++) {
          const v = await h.http.get(`/v1/matches/${m.id}`).expect(200);
          if (!v.body.game?.pending) break;
          const { seat, action } = await nextMove(h, m.id, m.tokens);
          await h.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[seat])).send({ action }).expect(200);
        }
        for (const token of [undefined, m.tokens.p1]) {
          const req = h.http.get(`/v1/matches/${m.id}/events?limit=500`);
          const events = (await (token ? req.set(bearer(token)) : req).expect(200)).body.events as ApiEvent[];
          const say = createNarrator({ words: scripts[game].words, cardName: (id) => cards.get(id), seatLabel: (s) => labels[s] ?? s });
          const lines = events.map(say).filter((l): l is string => l !== null);
          expect(lines.length, game).toBeGreaterThan(5);
          // The fallback (an event type the game's script does not know) would read "Card played", "Turn started" ….
          const fallbacks = events.filter(
            (e) => say(e) === e.event.type.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ (\w)/g, (_, c: string) => ` ${c.toLowerCase()}`),
          );
          expect(
            fallbacks.map((e) => e.event.type),
            game,
          ).toEqual([]);
          expect(lines.join('\n'), game).not.toMatch(/undefined|null|NaN|\[object/);
        }
      }
    });
  });
});
