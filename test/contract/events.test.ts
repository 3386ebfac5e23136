/**
 * Contract: event bodies and the pending decision are typed in the OpenAPI document (issue 20).
 * `MatchEvent.event` is an EvonsEvent, a UniVersusEvent or a MatchRecord, each a oneOf of strict
 * per-type components; the views' `pending` is EvonsPending / UniVersusPending. Real events of
 * matches played here (deals, sandboxes, moves, clocks, an abort, a resignation), read as each
 * seat and as a spectator (so redacted forms too), must each validate against the component of
 * their own game and type, and bodies the engine never sends must be refused.
 */
import { describe, expect, it } from 'vitest';
import { evons } from '../../src/games/evons/ruleset.js';
import { universus } from '../../src/games/universus/index.js';
import { backends, bearer, createHotSeat, prng, STARTERS, useHarness } from '../api/helpers.js';
import { doc, resolve, validatorFor } from './document.js';

type Seat = 'p1' | 'p2';
type Json = Record<string, unknown>;
interface Ev {
  seq: number;
  actingSeat: Seat | null;
  event: Json & { type: string };
}

const matchEvent = () => validatorFor('MatchEvent', { $ref: '#/components/schemas/MatchEvent' });

const schemas = (doc.components as Json).schemas as Json;

/** The named component of one event (EvonsCardDrawn, UniVersusCardsDrawn, MatchClockSet, MatchEnded), or a failure. */
function componentFor(game: 'evons' | 'universus', type: string): string {
  const names = [`${game === 'evons' ? 'Evons' : 'UniVersus'}${type}`, `Match${type}`, type];
  const found = names.find((n) => n in schemas);
  if (!found) throw new Error(`no component for ${game} event ${type}`);
  return found;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`typed event bodies [${backend.name}]`, () => {
    const h = useHarness(backend);

    /** Random legal moves by whoever is to move, `n` of them or until the match ends. */
    async function play(id: string, tokens: Record<Seat, string>, n: number, rand: () => number) {
      for (let i = 0; i < n; i++) {
        const v = await h.http.get(`/v1/matches/${id}`).expect(200);
        if (v.body.status !== 'active') return;
        const seat = v.body.game.pending.seat as Seat;
        const legal = await h.http.get(`/v1/matches/${id}/legal-actions`).set(bearer(tokens[seat])).expect(200);
        const options = legal.body.actions as { action: Json }[];
        const choice = options[Math.floor(rand() * options.length)]!;
        await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[seat])).send({ action: choice.action }).expect(200);
      }
    }

    /** Every event as p1, p2 and a spectator sees it, with the views' pending decisions. */
    async function readAll(id: string, tokens: Record<Seat, string>) {
      const out: Ev[] = [];
      for (const token of [tokens.p1, tokens.p2, undefined]) {
        for (let after = 0, more = true; more;) {
          const req = h.http.get(`/v1/matches/${id}/events?limit=500&after=${after}`);
          const res = await (token ? req.set(bearer(token)) : req).expect(200);
          out.push(...(res.body.events as Ev[]));
          after = res.body.next;
          more = res.body.hasMore;
        }
      }
      return out;
    }

    function expectTyped(game: 'evons' | 'universus', events: Ev[]) {
      const whole = matchEvent();
      for (const e of events) {
        expect(whole(e), `${e.event.type}: ${JSON.stringify(e)}`).toBe(true);
        const name = componentFor(game, e.event.type);
        const own = validatorFor(name, { $ref: `#/components/schemas/${name}` });
        expect(own(e.event), `${name}: ${JSON.stringify(e.event)}`).toBe(true);
      }
    }

    it('Evons: deals, moves, a resignation, clocks and a sandbox, as each seat and a spectator, each against its own component', async () => {
      const rand = prng(Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000));
      const dealt = await createHotSeat(h.http, { timeControl: { kind: 'live', initialSeconds: 600, incrementSeconds: 5 } });
      await play(dealt.id, dealt.tokens, 60, rand);
      await h.http
        .post(`/v1/matches/${dealt.id}/actions`)
        .set(bearer(dealt.tokens.p1))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const events = await readAll(dealt.id, dealt.tokens);
      const types = new Set(events.map((e) => e.event.type));
      for (const t of ['MatchCreated', 'CardDrawn', 'CardPlayed', 'ClockSet', 'Resigned', 'GameEnded', 'SeedRevealed'])
        expect(types, t).toContain(t);
      // Redacted forms: another seat's draw has no card.
      expect(events.some((e) => e.event.type === 'CardDrawn' && e.event.card === undefined)).toBe(true);
      expectTyped('evons', events);

      // An abort: the match's own MatchEnded record.
      const aborted = await createHotSeat(h.http, { timeControl: { kind: 'correspondence', daysPerMove: 3 } });
      await h.http
        .post(`/v1/matches/${aborted.id}/actions`)
        .set(bearer(aborted.tokens.p1))
        .send({ action: { type: 'abort' } })
        .expect(200);
      const abortEvents = await readAll(aborted.id, aborted.tokens);
      expect(abortEvents.map((e) => e.event.type)).toContain('MatchEnded');
      expectTyped('evons', abortEvents);

      // A sandbox starts with PositionLoaded.
      const state = dealtEvonsState();
      const sandbox = await h.http
        .post('/v1/matches')
        .send({ position: evons.positions.toPosition(state) })
        .expect(201);
      const sandboxEvents = await readAll(sandbox.body.id, sandbox.body.tokens);
      expect(sandboxEvents[0]!.event.type).toBe('PositionLoaded');
      expectTyped('evons', sandboxEvents);

      // The pending decision is typed too.
      const pending = validatorFor('EvonsPending', { $ref: '#/components/schemas/EvonsPending' });
      const view = await h.http.get(`/v1/matches/${sandbox.body.id}`).expect(200);
      expect(pending(view.body.game.pending), JSON.stringify(view.body.game.pending)).toBe(true);
    });

    it('UniVersus: deals, moves, a sandbox, as each seat and a spectator, each against its own component', async () => {
      const rand = prng(Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000));
      const m = await createHotSeat(h.http, { game: 'universus', decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } } });
      await play(m.id, m.tokens, 80, rand);
      const events = await readAll(m.id, m.tokens);
      const types = new Set(events.map((e) => e.event.type));
      for (const t of ['GameStarted', 'CardsDrawn', 'TurnStarted', 'PlayAttempted']) expect(types, t).toContain(t);
      expect(events.some((e) => e.event.type === 'CardsDrawn' && typeof e.event.count === 'number')).toBe(true);
      expect(events.some((e) => e.event.type === 'CardsDrawn' && Array.isArray(e.event.cards))).toBe(true);
      expectTyped('universus', events);

      const sandbox = await h.http
        .post('/v1/matches')
        .send({ game: 'universus', position: universus.positions.toPosition(dealtUniversusState()) })
        .expect(201);
      const sandboxEvents = await readAll(sandbox.body.id, sandbox.body.tokens);
      expect(sandboxEvents[0]!.event.type).toBe('PositionLoaded');
      expectTyped('universus', sandboxEvents);
    });
  });
}

describe('the document refuses event bodies and decisions the engine never sends', () => {
  // The envelope says whose the event is: the game's, or the match's own record.
  const envelope = (
    event: Json,
    source: 'game' | 'match' = event.type === 'MatchEnded' || event.type === 'ClockSet' ? 'match' : 'game',
  ) => ({ seq: 1, actingSeat: 'p1', source, event });

  it.each([
    ['an unknown type', { type: 'CardTeleported', seat: 'p1' }],
    [
      'a hidden field that is never shown (the deck order)',
      {
        type: 'MatchCreated',
        engineVersion: '1',
        rulesHash: 'h',
        cardSetId: 'c',
        cardSetHash: 'h',
        config: {},
        seedCommitment: 's',
        first: 'p1',
        seed: 'secret',
      },
    ],
    ['a field of the wrong type', { type: 'CardPlayed', seat: 'p1', card: 'c1', defId: 'd', cell: 3, covered: false, paid: 1, total: 2 }],
    ['a missing field', { type: 'TurnStarted', seat: 'p1' }],
    ['a field the event does not have', { type: 'Resigned', seat: 'p1', reason: 'bored' }],
    ['a reason the game does not have', { type: 'GameWon', winner: 'p1', reason: 'BORED', seed: 's' }],
    ['a match record of the wrong shape', { type: 'MatchEnded', end: { reason: 'timed-out' } }],
  ])('refuses %s', (_what, event) => {
    expect(matchEvent()(envelope(event))).toBe(false);
  });

  it("refuses a game's event in the match's envelope, and the match's record in a game's", () => {
    expect(matchEvent()(envelope({ type: 'TurnStarted', turn: 1, seat: 'p1' }, 'match'))).toBe(false);
    expect(matchEvent()(envelope({ type: 'MatchEnded', end: { reason: 'aborted', seat: null, winner: null, at: 1 } }, 'game'))).toBe(false);
    expect(matchEvent()({ seq: 1, actingSeat: 'p1', event: { type: 'TurnStarted', turn: 1, seat: 'p1' } })).toBe(false);
  });

  it('accepts the same events in their real shapes', () => {
    expect(matchEvent()(envelope({ type: 'TurnStarted', turn: 1, seat: 'p1' }))).toBe(true);
    expect(matchEvent()(envelope({ type: 'TurnStarted', turnNumber: 1, seat: 'p1' }))).toBe(true); // UniVersus's
    expect(matchEvent()(envelope({ type: 'CardDrawn', seat: 'p2' }))).toBe(true); // redacted
    expect(matchEvent()(envelope({ type: 'MatchEnded', end: { reason: 'aborted', seat: null, winner: null, at: 1 } }))).toBe(true);
  });

  it('types the pending decision of each game', () => {
    const evonsPending = validatorFor('EvonsPending', { $ref: '#/components/schemas/EvonsPending' });
    expect(evonsPending({ kind: 'ability', seat: 'p1', card: 'c1', cell: 'C3', phase: 1 })).toBe(true);
    expect(evonsPending({ kind: 'ability', seat: 'p1', card: 'c1', cell: 'C3', phase: 3 })).toBe(false);
    expect(evonsPending({ kind: 'play', seat: 'p1', hand: ['c1'] })).toBe(false);
    // GameView's own pending field: EvonsPending or null.
    const pendingOfView = (resolve<Json>({ $ref: '#/components/schemas/GameView' }).properties as Json).pending as Json;
    const v = validatorFor('GameView.pending schema', pendingOfView);
    expect(v({ kind: 'discard', seat: 'p2', count: 1 })).toBe(true);
    expect(v({ kind: 'discard', seat: 'p2' })).toBe(false);
  });
});

function dealtEvonsState() {
  const deck = (id: string) =>
    evons.starterDecks.find((d) => d.id === id)!.cards.flatMap(({ card, count }) => Array<string>(count).fill(card));
  const r = evons.create({
    config: evons.configSchema.parse({}),
    decks: { p1: deck(STARTERS[0]), p2: deck(STARTERS[1]) },
    seed: 'contract-events',
  });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.state;
}

function dealtUniversusState() {
  const deck = (id: string) =>
    universus.starterDecks.find((d) => d.id === id)!.cards.flatMap(({ card, count }) => Array<string>(count).fill(card));
  const r = universus.create({
    config: universus.configSchema.parse({}),
    decks: { p1: deck('garrison'), p2: deck('scouts') },
    seed: 'contract-events',
  });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.state;
}
