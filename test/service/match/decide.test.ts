/**
 * The move path's decision, given/when/then: given a match's stored log (dealt and played by the
 * real engines), when a seat's command, then the records, row change and answer, or the error.
 * No database: `decide` is pure, and these are the branches its handler (moves.ts) relies on.
 */
import { describe, expect, it } from 'vitest';
import { expandDeck, otherSeat, type AnyRuleset, type Seat } from '../../../src/core/ruleset.js';
import { afterDecision, deadlineOf, type Clock, type TimeControl } from '../../../src/core/clock.js';
import { rulesetOf, type GameId } from '../../../src/games/registry.js';
import type { MatchRow, NewEvent } from '../../../src/persistence/types.js';
import { decide, evolve, type Decision, type MoveCommand, type StoredAnswer } from '../../../src/service/match/decide.js';
import { dealRecords, newMatchRow, toMoveOf } from '../../../src/service/lobby/lobby.js';
import type { MatchEntry } from '../../../src/service/match/match-loader.js';
import {
  NO_RECORDS,
  clockRecord,
  endRecord,
  foldRecords,
  gameRecord,
  gameRecords,
  openingRecord,
} from '../../../src/service/match/match-log.js';
import { aiPlayerId } from '../../../src/service/ai/players.js';
import { workCost } from '../../../src/service/work-costs.js';

const T0 = Date.UTC(2026, 11, 7, 12);
const LIVE: TimeControl = { kind: 'live', initialSeconds: 60, incrementSeconds: 0 };

/** A match's log and what it was dealt from: the "given" of every case. */
interface Given {
  game: GameId;
  ruleset: AnyRuleset;
  playerIds: Record<Seat, string | null>;
  log: NewEvent[];
  /** Null while an open seat waits. */
  state: unknown;
  clock: Clock | null;
}

function rs(game: GameId): AnyRuleset {
  const r = rulesetOf(game);
  if (!r) throw new Error(`no game ${game}`);
  return r;
}

const decksOf = (ruleset: AnyRuleset) => ({
  p1: expandDeck(ruleset.starterDecks[0]!.cards),
  p2: expandDeck(ruleset.starterDecks[1]!.cards),
});

/** Given a match dealt at T0 by the game's own engine (its deal and, with a clock, the clock started). */
function dealt(game: GameId, opts: { control?: TimeControl; playerIds?: Partial<Record<Seat, string>> } = {}): Given {
  const ruleset = rs(game);
  const created = ruleset.create({ config: ruleset.configSchema.parse({}), decks: decksOf(ruleset), seed: 'decide-test' });
  if (!created.ok) throw new Error(created.errors.join('; '));
  const { records } = dealRecords(ruleset, created, opts.control ?? { kind: 'none' }, T0);
  const log = records;
  return {
    game,
    ruleset,
    playerIds: { p1: opts.playerIds?.p1 ?? null, p2: opts.playerIds?.p2 ?? null },
    log,
    state: created.state,
    clock: foldRecords(NO_RECORDS, log).clock,
  };
}

/** Given an open-seat match: only its opening is stored (p1 sat down, nothing dealt). */
function opened(game: GameId): Given {
  const ruleset = rs(game);
  const log = [
    openingRecord({
      creatorSeat: 'p1',
      deck: decksOf(ruleset).p1,
      position: null,
      config: ruleset.configSchema.parse({}),
      timeControl: { kind: 'none' },
    }),
  ];
  return { game, ruleset, playerIds: { p1: null, p2: null }, log, state: null, clock: null };
}

/** `g` after the seat to decide takes `pick` of its legal actions at `at`: the engine's events, and the clock after the decision. */
function played(g: Given, at: number, pick: (legal: unknown[]) => unknown = (l) => l.at(-1)): Given {
  const { ruleset } = g;
  const seat = ruleset.pending(g.state)!.seat;
  const r = ruleset.apply(g.state, seat, pick(ruleset.legalActions(g.state, seat)));
  if (!r.ok) throw new Error(r.error.message);
  const log = [...g.log, ...(r.events as { type: string }[]).map((e) => gameRecord(ruleset, e, seat))];
  let { clock } = g;
  if (clock) {
    clock = afterDecision(clock, seat, at, ruleset.outcome(r.state) ? null : toMoveOf(ruleset, r.state));
    log.push(clockRecord(clock, at, seat));
  }
  return { ...g, log, state: r.state, clock };
}

/** The entry the loader would hold for `g`: its row, the match's records folded and the game's state replayed from the log. */
function entryOf(g: Given): MatchEntry {
  const { ruleset, log } = g;
  const records = foldRecords(NO_RECORDS, log);
  const events = gameRecords(log).map((e) => e.payload as { type: string });
  const state = events.length > 0 ? ruleset.replay(events) : null;
  const outcome = state === null ? null : ruleset.outcome(state);
  const end = records.end ?? (outcome ? { winner: outcome.winner } : null);
  const deadline = records.clock ? deadlineOf(records.clock) : null;
  const base = newMatchRow(ruleset, {
    id: 'm_decide',
    config: ruleset.configSchema.parse({}),
    seed: 'decide-test',
    status: state === null ? 'waiting' : end ? 'finished' : 'active',
    seats: (['p1', 'p2'] as const).map((seat) => ({
      seat,
      tokenHash: state === null && seat === 'p2' ? null : `hash-${seat}`,
      handle: state === null && seat === 'p2' ? null : seat,
      playerId: g.playerIds[seat],
      deck: null,
    })),
    state,
    control: records.timeControl,
    deadline: deadline === null ? null : new Date(deadline),
    decks: state === null ? null : decksOf(ruleset),
    rated: false,
  });
  const row: MatchRow = {
    ...base,
    seats: base.seats.map((s) => ({ ...s, bot: false })),
    decks: base.decks ?? null,
    rated: false,
    ending: records.end ? records.end.reason : outcome ? 'game' : null,
    toMove: base.toMove ?? null,
    deadline: base.deadline ?? null,
    timeControl: records.timeControl.kind,
    version: log.length,
    seatEpoch: 0,
    createdAt: new Date(T0),
    updatedAt: new Date(T0),
    winner: end?.winner ?? null,
  };
  return { ...records, row, ruleset, version: log.length, state, sandbox: false };
}

/** When `command` on the match `g`: the decision. */
const when = (g: Given, command: Partial<MoveCommand> & Pick<MoveCommand, 'action'>): Decision =>
  decide({ seat: g.state === null ? 'p1' : g.ruleset.pending(g.state)!.seat, now: T0 + 5_000, ...command }, entryOf(g));

function refused(d: Decision): { code: string; version: number | undefined } {
  if (d.ok) throw new Error(`expected a refusal, got ${d.kind}`);
  return { code: d.error.code, version: d.error.version };
}

function accepted(d: Decision): Extract<Decision, { kind: 'accepted' }> {
  if (!d.ok || d.kind !== 'accepted') throw new Error(`expected an accepted decision, got ${d.ok ? d.kind : d.error.code}`);
  return d;
}

const kinds = (records: readonly NewEvent[]) => records.map((r) => `${r.source}:${r.type}`);

describe('decide: preconditions', () => {
  it('refuses a weak If-Match whatever the version, with the version to send', () => {
    const g = dealt('universus');
    const version = g.log.length;
    expect(refused(when(g, { action: { type: 'PassCombat' }, expectedVersion: version, weakPrecondition: true }))).toEqual({
      code: 'version-conflict',
      version,
    });
  });

  it('refuses an expected version the match is not at, and accepts the one it is at', () => {
    const g = dealt('universus');
    const version = g.log.length;
    expect(refused(when(g, { action: { type: 'PassCombat' }, expectedVersion: version - 1 }))).toEqual({
      code: 'version-conflict',
      version,
    });
    expect(accepted(when(g, { action: { type: 'PassCombat' }, expectedVersion: version })).change.version).toBeGreaterThan(version);
  });

  it('refuses every action on a finished match (its MatchEnded record), abort included', () => {
    const g = dealt('universus');
    const ended = { ...g, log: [...g.log, endRecord({ reason: 'resigned', seat: 'p2', winner: 'p1', at: T0 + 1 }, 'p2')] };
    expect(refused(when(ended, { action: { type: 'PassCombat' } }))).toEqual({ code: 'match-finished', version: ended.log.length });
    expect(refused(when(ended, { action: { type: 'abort' } }))).toEqual({ code: 'match-finished', version: ended.log.length });
  });

  it("refuses a move on a match that the game's own rules ended", () => {
    let g = dealt('evons');
    // Evons' last legal action each time ends the match by its rules (p1 wins, main zone full).
    while (!g.ruleset.outcome(g.state)) g = played(g, T0, (l) => l.at(-1));
    expect(refused(decide({ seat: 'p1', action: { type: 'pass' }, now: T0 }, entryOf(g)))).toEqual({
      code: 'match-finished',
      version: g.log.length,
    });
  });
});

describe('decide: an open seat', () => {
  it('refuses moves while the seat is open', () => {
    const g = opened('universus');
    expect(refused(when(g, { action: { type: 'PassCombat' } }))).toEqual({ code: 'match-not-started', version: 1 });
    expect(refused(when(g, { action: { type: 'resign' } }))).toEqual({ code: 'match-not-started', version: 1 });
  });

  it("accepts the creator's abort: the match ends aborted, nothing to stop on the clock", () => {
    const g = opened('evons');
    const d = accepted(when(g, { seat: 'p1', action: { type: 'abort' }, now: T0 + 7 }));
    expect(kinds(d.records)).toEqual(['match:MatchEnded']);
    expect(d.records[0]!.payload).toEqual({ type: 'MatchEnded', end: { reason: 'aborted', seat: 'p1', winner: null, at: T0 + 7 } });
    expect(d.change).toEqual({ status: 'finished', winner: null, ending: 'aborted', toMove: null, deadline: null, version: 2 });
    expect(d.answer.summary).toMatchObject({
      version: 2,
      status: 'finished',
      winner: null,
      outcome: { reason: 'aborted', winner: null, seat: 'p1' },
      pending: null,
    });
    expect(d.work).toBeNull();
  });
});

describe('decide: the clock ran out before the action', () => {
  it('ends the match first: an abort when the flagged seat never decided, answered as finished at the new version', () => {
    const g = dealt('universus', { control: LIVE });
    const deadline = T0 + 60_000;
    const d = when(g, { seat: 'p1', action: { type: 'PassCombat' }, now: deadline + 5_000 });
    if (!d.ok || d.kind !== 'expired') throw new Error('expected the clock to end the match');
    expect(kinds(d.records)).toEqual(['match:MatchEnded', 'match:ClockSet']);
    expect(d.records.map((r) => r.actingSeat)).toEqual([null, null]);
    expect(d.records[0]!.payload).toEqual({ type: 'MatchEnded', end: { reason: 'aborted', seat: null, winner: null, at: deadline } });
    // The clock stops where the time ran out, not when the action came.
    expect(d.records[1]!.payload).toMatchObject({ at: deadline, clock: { remainingMs: { p1: 0, p2: 60_000 }, running: null } });
    expect(d.change).toEqual({
      status: 'finished',
      winner: null,
      ending: 'aborted',
      toMove: null,
      deadline: null,
      version: g.log.length + 2,
    });
    expect({ code: d.error.code, version: d.error.version }).toEqual({ code: 'match-finished', version: g.log.length + 2 });
    expect(d.next.end?.reason).toBe('aborted');
  });

  it('is a timeout for a seat that had decided: the other seat wins', () => {
    const g = played(played(dealt('universus', { control: LIVE }), T0 + 1_000), T0 + 2_000);
    // p1 used 1 s of its 60: its time runs out 59 s after p2's decision.
    const d = when(g, { action: { type: 'PassCombat' }, now: T0 + 100_000 });
    if (!d.ok || d.kind !== 'expired') throw new Error('expected the clock to end the match');
    expect(d.records[0]!.payload).toEqual({ type: 'MatchEnded', end: { reason: 'timed-out', seat: 'p1', winner: 'p2', at: T0 + 61_000 } });
    expect(d.change).toMatchObject({ status: 'finished', winner: 'p2', ending: 'timed-out' });
  });

  it('decides the action as it stands once the ending lost its race', () => {
    const g = dealt('universus', { control: LIVE });
    const d = accepted(when(g, { seat: 'p1', action: { type: 'PassCombat' }, now: T0 + 65_000, expiryLost: true }));
    expect(kinds(d.records).at(-1)).toBe('match:ClockSet');
  });

  it('does not end a match whose clock still runs', () => {
    const g = dealt('universus', { control: LIVE });
    expect(accepted(when(g, { action: { type: 'PassCombat' }, now: T0 + 59_999 })).kind).toBe('accepted');
  });
});

describe("decide: the match's own actions", () => {
  it('aborts until both seats have decided, stopping the clock at now', () => {
    const g = played(dealt('universus', { control: LIVE }), T0 + 1_000);
    const d = accepted(when(g, { seat: 'p1', action: { type: 'abort' }, now: T0 + 3_000 }));
    expect(kinds(d.records)).toEqual(['match:MatchEnded', 'match:ClockSet']);
    expect(d.records.map((r) => r.actingSeat)).toEqual(['p1', 'p1']);
    expect(d.records[1]!.payload).toMatchObject({ at: T0 + 3_000, clock: { running: null, remainingMs: { p1: 59_000, p2: 58_000 } } });
    expect(d.change).toEqual({
      status: 'finished',
      winner: null,
      ending: 'aborted',
      toMove: null,
      deadline: null,
      version: g.log.length + 2,
    });
  });

  it('refuses an abort once both seats have decided (ABORT_TOO_LATE)', () => {
    const g = played(played(dealt('universus'), T0), T0);
    expect(refused(when(g, { seat: 'p2', action: { type: 'abort' } }))).toEqual({ code: 'ABORT_TOO_LATE', version: g.log.length });
  });

  it('resigns for a game without its own resign, by either seat at any time: the other seat wins', () => {
    const g = dealt('universus');
    for (const seat of ['p1', 'p2'] as const) {
      const d = accepted(when(g, { seat, action: { type: 'resign' }, now: T0 + 9 }));
      expect(kinds(d.records)).toEqual(['match:MatchEnded']);
      expect(d.records[0]!.payload).toEqual({ type: 'MatchEnded', end: { reason: 'resigned', seat, winner: otherSeat(seat), at: T0 + 9 } });
      expect(d.change).toMatchObject({ status: 'finished', winner: otherSeat(seat), ending: 'resigned' });
    }
  });

  it("leaves a game's own resign to its rules (Evons logs its own events)", () => {
    const g = dealt('evons');
    const d = accepted(when(g, { seat: 'p2', action: { type: 'resign' } }));
    expect(d.records.every((r) => r.source === 'game')).toBe(true);
    expect(d.change).toMatchObject({ status: 'finished', winner: 'p1', ending: 'game' });
  });
});

describe("decide: the game's rules", () => {
  it("refuses what the game's apply refuses, with the engine's code", () => {
    const g = dealt('universus');
    expect(refused(when(g, { action: { type: 'nonsense' } }))).toEqual({ code: 'INVALID_ACTION', version: g.log.length });
    expect(refused(when(g, { seat: 'p2', action: { type: 'PassCombat' } }))).toEqual({ code: 'NOT_YOUR_DECISION', version: g.log.length });
  });

  it("records the game's events as the acting seat's, with the row change of who decides next", () => {
    const g = dealt('universus');
    const d = accepted(when(g, { seat: 'p1', action: { type: 'PassCombat' } }));
    expect(kinds(d.records)).toEqual(['game:TurnEnded', 'game:CardPoolCleared', 'game:CardPoolCleared', 'game:TurnStarted']);
    expect(d.records.every((r) => r.actingSeat === 'p1')).toBe(true);
    expect(d.change).toEqual({ status: 'active', winner: null, ending: null, toMove: 'p2', deadline: null, version: g.log.length + 4 });
    // The entry after the records: what the handler remembers.
    expect(d.next).toMatchObject({
      version: g.log.length + 4,
      decided: { p1: true, p2: false },
      row: { toMove: 'p2', version: g.log.length + 4 },
    });
    expect(d.next.state).toEqual(entryOf(played(g, T0)).state);
  });

  it("ends the match by the game's rules: status finished, the game's winner, ending 'game', the clock stopped", () => {
    let g = dealt('evons', { control: LIVE });
    const last = (l: unknown[]) => l.at(-1);
    for (;;) {
      const seat = g.ruleset.pending(g.state)!.seat;
      const r = g.ruleset.apply(g.state, seat, last(g.ruleset.legalActions(g.state, seat)));
      if (r.ok && g.ruleset.outcome(r.state)) break;
      g = played(g, T0 + 10, last);
    }
    const seat = g.ruleset.pending(g.state)!.seat;
    const d = accepted(when(g, { seat, action: last(g.ruleset.legalActions(g.state, seat)), now: T0 + 20 }));
    expect(d.change).toMatchObject({ status: 'finished', winner: 'p1', ending: 'game', toMove: null, deadline: null });
    expect(d.records.at(-1)!.payload).toMatchObject({ type: 'ClockSet', clock: { running: null } });
    expect(d.answer.summary).toMatchObject({ status: 'finished', winner: 'p1', pending: null });
  });

  it("writes the clock after the decision: the next seat's time runs, its deadline on the row", () => {
    const g = dealt('universus', { control: LIVE });
    const d = accepted(when(g, { seat: 'p1', action: { type: 'PassCombat' }, now: T0 + 4_000 }));
    const clock = d.records.at(-1)!;
    expect(clock).toMatchObject({ source: 'match', type: 'ClockSet', actingSeat: 'p1' });
    expect(clock.payload).toMatchObject({
      at: T0 + 4_000,
      clock: { remainingMs: { p1: 56_000, p2: 60_000 }, running: { seat: 'p2', since: T0 + 4_000 } },
    });
    expect(d.change.deadline).toEqual(new Date(T0 + 64_000));
    expect(d.next.decisions).toEqual({ p1: 1, p2: 0 });
  });
});

describe("decide: the computer's work", () => {
  it("names the units of the computer's decision that the action hands it, and none otherwise", () => {
    const g = dealt('universus', { playerIds: { p2: aiPlayerId(5) } });
    expect(accepted(when(g, { seat: 'p1', action: { type: 'PassCombat' } })).work).toBe(workCost.aiDecision(5));
    // The computer's own decision hands the next one to a person: nothing to charge.
    const mine = played(g, T0);
    expect(accepted(when(mine, { seat: 'p2', action: { type: 'PassCombat' } })).work).toBeNull();
    // Ending the match hands the computer nothing.
    expect(accepted(when(g, { seat: 'p1', action: { type: 'resign' } })).work).toBeNull();
    expect(accepted(when(dealt('universus'), { seat: 'p1', action: { type: 'PassCombat' } })).work).toBeNull();
  });

  it("charges nothing for a computer's action that leaves the decision with it (its own next step)", () => {
    // Evons: a turn is several decisions; find one of p1's that keeps the decision with p1.
    let g = dealt('evons', { playerIds: { p1: aiPlayerId(3) } });
    const keeps = (x: Given) =>
      x.ruleset.legalActions(x.state, 'p1').find((a) => {
        const r = x.ruleset.apply(x.state, 'p1', a);
        return r.ok && !x.ruleset.outcome(r.state) && toMoveOf(x.ruleset, r.state) === 'p1';
      });
    for (let i = 0; i < 20 && !(g.ruleset.pending(g.state)!.seat === 'p1' && keeps(g) !== undefined); i++) g = played(g, T0);
    const action = keeps(g);
    expect(action).toBeDefined();
    const d = accepted(when(g, { seat: 'p1', action }));
    expect(d.change.toMove).toBe('p1');
    expect(d.work).toBeNull();
  });
});

describe('decide: the answer and the idempotency record', () => {
  it('answers the whole result by default and the summary only when minimal, redacted for the acting seat', () => {
    const g = dealt('evons');
    const action = g.ruleset.legalActions(g.state, 'p1')[0];
    const full = accepted(when(g, { seat: 'p1', action }));
    expect(full.answer.summary.version).toBe(full.change.version);
    expect(full.answer.result).toMatchObject({
      version: full.change.version,
      events: full.answer.summary.events,
      match: { version: full.change.version, seat: 'p1', status: 'active' },
    });
    const minimal = accepted(when(g, { seat: 'p1', action, representation: 'minimal' }));
    expect(minimal.answer.result).toBeUndefined();
    expect(minimal.answer.summary).toEqual(full.answer.summary);
  });

  it("numbers the answer's events from the entry's version and leaves out what the seat may not see", () => {
    // Evons' p2 draws a card at its turn's start: p1's answer shows no card id of it.
    const g = dealt('evons');
    const action = g.ruleset.legalActions(g.state, 'p1')[0];
    const d = accepted(when(g, { seat: 'p1', action }));
    const seqs = d.answer.summary.events.map((e) => e.seq);
    expect(seqs[0]).toBe(g.log.length + 1);
    expect(seqs.every((s) => s > g.log.length && s <= d.change.version)).toBe(true);
    const drawn = d.records.filter((r) => r.type === 'CardDrawn');
    expect(drawn.length).toBeGreaterThan(0);
    const seen = d.answer.summary.events.map((e) => JSON.stringify(e.event));
    for (const r of drawn) expect(seen).not.toContain(JSON.stringify(r.payload));
  });

  it('stores the summary under the key with the time it was applied, only when the request has a key', () => {
    const g = dealt('universus');
    const d = accepted(
      when(g, { seat: 'p1', action: { type: 'PassCombat' }, now: T0 + 42, idempotency: { key: 'k-1', requestHash: 'h-1' } }),
    );
    expect(d.idempotency).toMatchObject({ key: 'k-1', seat: 'p1', requestHash: 'h-1' });
    expect(JSON.parse(d.idempotency!.response)).toEqual({
      stored: 2,
      ...JSON.parse(JSON.stringify(d.answer.summary)),
      at: T0 + 42,
    } satisfies StoredAnswer);
    expect(accepted(when(g, { seat: 'p1', action: { type: 'PassCombat' } })).idempotency).toBeUndefined();
  });
});

describe('evolve', () => {
  it('folds records into the next entry: the records, the row change and the state', () => {
    const g = dealt('universus');
    const entry = entryOf(g);
    const after = played(g, T0);
    const records = after.log.slice(g.log.length);
    const next = evolve(
      entry,
      records,
      { status: 'active', winner: null, ending: null, toMove: 'p2', deadline: null, version: after.log.length },
      after.state,
    );
    const loaded = entryOf(after);
    expect(next.version).toBe(loaded.version);
    expect(next.decided).toEqual(loaded.decided);
    expect(next.state).toEqual(loaded.state);
    expect(next.row).toMatchObject({ status: 'active', toMove: 'p2', version: after.log.length });
  });
});
