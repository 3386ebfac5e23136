/**
 * The Ruleset contract's checks for one ruleset (src/core/ruleset.ts): a deal is a function of the
 * seed, apply accepts what legalActions lists and rejects the rest without touching its input,
 * replaying the events rebuilds the live state, the seed stays out of every view and redacted
 * event until the game ends, and either seat can resign at any decision. The conformance suite
 * runs them for every registered game; a fixture game calls them for itself.
 */
import { describe, expect, it } from 'vitest';
import { expandDeck, otherSeat, type AnyRuleset, type Seat } from '../../src/core/ruleset.js';
import { resignation, resignsByOwnRules } from '../../src/service/match/decide.js';
import { outcomeOf } from '../../src/service/match/reads.js';

function starterDecks(r: AnyRuleset): Record<Seat, string[]> {
  const [a, b] = [r.starterDecks[0], r.starterDecks[1] ?? r.starterDecks[0]];
  if (!a || !b) throw new Error(`${r.id} ships no starter deck`);
  return { p1: expandDeck(a.cards), p2: expandDeck(b.cards) };
}

function playout(r: AnyRuleset, seed: string, maxActions = 400) {
  const created = r.create({ config: r.configSchema.parse({}), decks: starterDecks(r), seed });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const events = [...created.events];
  const choose = r.randomPlayer(`${seed}:player`);
  for (let i = 0; i < maxActions && !r.outcome(state); i++) {
    const pending = r.pending(state);
    if (!pending) break;
    const actions = r.legalActions(state, pending.seat);
    expect(actions.length, `${r.id}: a pending decision has legal actions`).toBeGreaterThan(0);
    const before = JSON.stringify(state);
    const res = r.apply(state, pending.seat, choose(state, actions));
    expect(JSON.stringify(state), 'apply does not mutate its input').toBe(before);
    expect(res.ok, res.ok ? '' : JSON.stringify(res.error)).toBe(true);
    if (!res.ok) break;
    state = res.state;
    events.push(...res.events);
  }
  return { state, events };
}

export function conformance(r: AnyRuleset): void {
  const id = r.id;
  describe(`${id} honours the Ruleset contract`, () => {
    it('ships a card set and legal starter decks', () => {
      expect(r.cardSet.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.starterDecks.length).toBeGreaterThan(0);
      for (const d of r.starterDecks) {
        expect(r.validateDeck(expandDeck(d.cards), r.configSchema.parse({})), d.id).toEqual([]);
      }
    });

    it('deals from the seed alone', () => {
      const config = r.configSchema.parse({});
      const a = r.create({ config, decks: starterDecks(r), seed: 'same-seed' });
      const b = r.create({ config, decks: starterDecks(r), seed: 'same-seed' });
      const c = r.create({ config, decks: starterDecks(r), seed: 'other-seed' });
      expect(a).toEqual(b);
      expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
    });

    it('rejects what legalActions does not list, leaving the state untouched', () => {
      const created = r.create({ config: r.configSchema.parse({}), decks: starterDecks(r), seed: 'reject' });
      if (!created.ok) throw new Error(created.errors.join('; '));
      const pending = r.pending(created.state);
      expect(pending).not.toBeNull();
      const other: Seat = pending!.seat === 'p1' ? 'p2' : 'p1';
      const before = JSON.stringify(created.state);
      for (const bad of [{ type: 'no-such-action' }, null, 'pass', {}]) {
        const res = r.apply(created.state, pending!.seat, bad);
        expect(res.ok).toBe(false);
        if (!res.ok) expect(res.error.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      }
      const legal = r.legalActions(created.state, pending!.seat);
      const res = r.apply(created.state, other, legal[0]);
      expect(res.ok, 'the other seat may not take the pending decision').toBe(false);
      expect(JSON.stringify(created.state)).toBe(before);
    });

    it.each(['g1', 'g2', 'g3'])('a random game (%s) replays to the live state and hides the seed until the end', (seed) => {
      const { state, events } = playout(r, `${id}-${seed}`);
      const log = JSON.stringify(events);
      expect(r.replay(events)).toEqual(state);
      expect(JSON.stringify(events), 'replay leaves the events as they were').toBe(log);
      // A cache catching up: the state at any earlier version, evolved by the later events.
      for (const cut of [1, Math.floor(events.length / 3), events.length - 1]) {
        const earlier = r.replay(events.slice(0, cut));
        const frozen = JSON.stringify(earlier);
        expect(r.evolve(earlier, events.slice(cut)), `evolve from version ${cut}`).toEqual(state);
        expect(JSON.stringify(earlier), 'evolve leaves its input state as it was').toBe(frozen);
      }
      const secret = `${id}-${seed}`;
      const finished = r.outcome(state) !== null;
      for (const viewer of ['p1', 'p2', 'spectator'] as const) {
        const redacted = events.map((e) => r.redactEvent(e, viewer));
        // Before the last event (the reveal at the end, if any), the seed appears nowhere.
        const early = JSON.stringify(redacted.slice(0, -3));
        expect(early.includes(secret), `${viewer} sees the seed in early events`).toBe(false);
        if (!finished) expect(JSON.stringify(r.view(state, viewer)).includes(secret)).toBe(false);
        const pending = r.pending(state);
        if (pending) {
          const describe = r.actionDescriber(state, viewer);
          for (const a of r.legalActions(state, pending.seat).slice(0, 20)) expect(typeof describe(a)).toBe('string');
        }
      }
      expect(typeof r.positions.format).toBe('string');
    });

    it("issue 20: either seat can resign at every decision (by the game's own resign, or else by the match's); the other seat wins", () => {
      const own = resignsByOwnRules(r);
      let checked = 0;
      // A short game (a fixture's) checks fewer decisions: more games until enough are checked. The first game is the same for every ruleset.
      for (let game = 0; checked <= 10 && game < 20; game++) {
        const seed = game === 0 ? `${id}-resign` : `${id}-resign-${game}`;
        const created = r.create({ config: r.configSchema.parse({}), decks: starterDecks(r), seed });
        if (!created.ok) throw new Error(created.errors.join('; '));
        const choose = r.randomPlayer(`${seed}:player`);
        let state = created.state;
        for (let i = 0; i < 200 && !r.outcome(state); i++) {
          const pending = r.pending(state);
          if (!pending) break;
          // The seat deciding and the one waiting, at every few decisions of a random game.
          if (i % 5 === 0) {
            for (const seat of ['p1', 'p2'] as const) {
              const res = r.apply(state, seat, { type: 'resign' });
              if (own) {
                // The game's own rules end it (Evons: Resigned, GameEnded).
                expect(res.ok, JSON.stringify(!res.ok && res.error)).toBe(true);
                if (res.ok) expect(r.outcome(res.state)).toMatchObject({ winner: otherSeat(seat) });
              } else {
                // The game does not know resign, so it never takes the match's resign for a move of its own.
                expect(res.ok).toBe(false);
                expect(outcomeOf({ ruleset: r, state, end: resignation(seat, 0) })).toEqual({
                  winner: otherSeat(seat),
                  reason: 'resigned',
                  seat,
                });
              }
              checked++;
            }
          }
          const res = r.apply(state, pending.seat, choose(state));
          if (!res.ok) throw new Error(JSON.stringify(res.error));
          state = res.state;
        }
      }
      expect(checked).toBeGreaterThan(10);
    });

    it('pendingView is the pending decision exactly as every view shows it, at every step of a game', () => {
      const { events } = playout(r, `${id}-pending-view`);
      for (let cut = 1; cut <= events.length; cut += Math.max(1, Math.floor(events.length / 40))) {
        const s = r.replay(events.slice(0, cut));
        for (const viewer of ['p1', 'p2', 'spectator'] as const) {
          const shown = (r.view(s, viewer) as { pending?: unknown }).pending ?? null;
          expect(JSON.stringify(r.pendingView(s) ?? null), `${viewer} after event ${cut}`).toBe(JSON.stringify(shown));
        }
      }
    });
  });
}
