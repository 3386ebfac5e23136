/**
 * A game names its actions and events freely (docs/architecture.md, Namespaces). For one game
 * module, checked on seeded playouts of its own:
 * - actions: each legal action is its module's action schema's, and the API's action body (the
 *   union over every registered game and the match's own actions) accepts it whatever other games
 *   call theirs;
 * - events: each event is stored in the game's envelope (source game) whatever its name, the
 *   match's fold of its own records (clock, ending) never reads one, and each event as any viewer
 *   sees it is its module's event schema's.
 * The conformance suite runs it for every registered game; the fixture-games project for Noughts too.
 */
import { describe, expect, it } from 'vitest';
import { expandDeck, type Seat, type Viewer } from '../../src/core/ruleset.js';
import type { AnyGameModule } from '../../src/games/game-module.js';
import { ActionBodySchema } from '../../src/contract/requests.js';
import { NO_RECORDS, foldRecords, gameRecord, isMatchRecord } from '../../src/service/match/match-log.js';

const VIEWERS: Viewer[] = ['p1', 'p2', 'spectator'];

function playouts(m: AnyGameModule, games: number) {
  const r = m.ruleset;
  const [a, b] = [r.starterDecks[0]!, r.starterDecks[1] ?? r.starterDecks[0]!];
  const out: { actions: { seat: Seat; action: { type: string } }[]; events: { type: string }[] }[] = [];
  for (let g = 0; g < games; g++) {
    const seed = `namespaces-${r.id}-${g}`;
    const created = r.create({ config: r.configSchema.parse({}), decks: { p1: expandDeck(a.cards), p2: expandDeck(b.cards) }, seed });
    if (!created.ok) throw new Error(created.errors.join('; '));
    let state = created.state;
    const actions: { seat: Seat; action: { type: string } }[] = [];
    const events: { type: string }[] = [...created.events];
    const choose = r.randomPlayer(`${seed}:player`);
    for (let i = 0; i < 300 && !r.outcome(state); i++) {
      const pending = r.pending(state);
      if (!pending) break;
      const legal = r.legalActions(state, pending.seat);
      for (const action of legal) actions.push({ seat: pending.seat, action });
      const res = r.apply(state, pending.seat, choose(state, legal));
      if (!res.ok) throw new Error(res.error.code);
      state = res.state;
      events.push(...res.events);
    }
    out.push({ actions, events });
  }
  return out;
}

export function namespaceConformance(m: AnyGameModule): void {
  describe(`${m.ruleset.id}: its own namespaces`, () => {
    const runs = playouts(m, 2);

    it("its actions are its own schema's, and the API's action body takes every one of them", () => {
      let n = 0;
      for (const { actions } of runs) {
        for (const { action } of actions) {
          expect(m.schemas.action.safeParse(action).success, JSON.stringify(action)).toBe(true);
          expect(ActionBodySchema.safeParse(action).success, JSON.stringify(action)).toBe(true);
          n++;
        }
      }
      expect(n).toBeGreaterThan(0);
    });

    it("its events live in the game's envelope whatever their names, and the match's fold of its own records never reads one", () => {
      for (const { events } of runs) {
        const stored = events.map((e) => ({ ...gameRecord(m.ruleset, e, null), seq: 0 }));
        for (const s of stored) {
          expect(s.source).toBe('game');
          expect(isMatchRecord(s)).toBe(false);
        }
        // The same events renamed as the match's records are named: still the game's.
        const renamed = stored.map((s, i) => ({ ...s, type: ['MatchOpened', 'ClockSet', 'MatchEnded'][i % 3]! }));
        const folded = foldRecords(NO_RECORDS, renamed);
        expect(folded.clock).toBeNull();
        expect(folded.end).toBeNull();
        expect(folded.timeControl).toEqual({ kind: 'none' });
      }
    });

    it("its events as each viewer sees them are its own event schema's", () => {
      for (const { events } of runs) {
        for (const e of events) {
          for (const v of VIEWERS) {
            const seen = m.ruleset.redactEvent(e, v);
            if (seen === null) continue;
            const parsed = m.schemas.event.safeParse(JSON.parse(JSON.stringify(seen)));
            expect(parsed.success, `${e.type} for ${v}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
          }
        }
      }
    });
  });
}
