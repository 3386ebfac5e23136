/**
 * The pure match clock (issue 9, src/core/clock.ts): correspondence gives every decision the full
 * period; live is Fischer with the increment once per handover; the deadline is where the
 * running seat's time reaches zero, and a seat is flagged at exactly that instant.
 */
import { describe, expect, it } from 'vitest';
import {
  DAYS_PER_MOVE,
  TimeControlSchema,
  afterDecision,
  deadlineOf,
  flagged,
  remainingAt,
  startClock,
  stopClock,
  type Clock,
} from '../../src/core/clock.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const live = (initialSeconds: number, incrementSeconds: number) => ({ kind: 'live' as const, initialSeconds, incrementSeconds });
const corr = (daysPerMove: (typeof DAYS_PER_MOVE)[number]) => ({ kind: 'correspondence' as const, daysPerMove });

describe('startClock (issue 9: clock at the deal)', () => {
  it('none has no clock', () => {
    expect(startClock({ kind: 'none' }, 'p1', T0)).toBeNull();
  });

  it('correspondence: both seats get the full period, the seat to move runs from the deal', () => {
    const c = startClock(corr(3), 'p2', T0)!;
    expect(c.remainingMs).toEqual({ p1: 3 * DAY, p2: 3 * DAY });
    expect(c.running).toEqual({ seat: 'p2', since: T0 });
    expect(deadlineOf(c)).toBe(T0 + 3 * DAY);
  });

  it('live: both seats get initialSeconds; nobody runs when nobody is to move', () => {
    const c = startClock(live(60, 5), null, T0)!;
    expect(c.remainingMs).toEqual({ p1: 60_000, p2: 60_000 });
    expect(c.running).toBeNull();
    expect(deadlineOf(c)).toBeNull();
    expect(flagged(c, T0 + 10 * DAY)).toBeNull();
  });
});

describe('afterDecision: correspondence (issue 9: every decision gets the full period)', () => {
  it('the full period again at each decision, however long the last one took, for whoever is next', () => {
    let c = startClock(corr(2), 'p1', T0)!;
    c = afterDecision(c, 'p1', T0 + 2 * DAY - 1, 'p2');
    expect(c.remainingMs).toEqual({ p1: 2 * DAY, p2: 2 * DAY });
    expect(c.running).toEqual({ seat: 'p2', since: T0 + 2 * DAY - 1 });
    expect(deadlineOf(c)).toBe(T0 + 4 * DAY - 1);
    // A second decision of the same seat (a turn of several decisions) restarts its period too.
    c = afterDecision(c, 'p2', T0 + 3 * DAY, 'p2');
    expect(c.running).toEqual({ seat: 'p2', since: T0 + 3 * DAY });
    expect(deadlineOf(c)).toBe(T0 + 5 * DAY);
  });

  it('the game over: nobody runs', () => {
    const c = afterDecision(startClock(corr(1), 'p1', T0)!, 'p1', T0 + 1000, null);
    expect(c.running).toBeNull();
    expect(deadlineOf(c)).toBeNull();
  });
});

describe('afterDecision: live (issue 9: Fischer, increment once per handover)', () => {
  it('the time spent is subtracted from the deciding seat; the increment comes when the decision passes over', () => {
    let c = startClock(live(60, 5), 'p1', T0)!;
    c = afterDecision(c, 'p1', T0 + 10_000, 'p2');
    expect(c.remainingMs).toEqual({ p1: 60_000 - 10_000 + 5_000, p2: 60_000 });
    expect(c.running).toEqual({ seat: 'p2', since: T0 + 10_000 });
    expect(deadlineOf(c)).toBe(T0 + 10_000 + 60_000);
  });

  it('a turn of several decisions earns the increment once: none while the seat keeps the decision', () => {
    let c = startClock(live(60, 5), 'p1', T0)!;
    c = afterDecision(c, 'p1', T0 + 3_000, 'p1');
    expect(c.remainingMs.p1).toBe(57_000);
    expect(c.running).toEqual({ seat: 'p1', since: T0 + 3_000 });
    c = afterDecision(c, 'p1', T0 + 7_000, 'p1');
    expect(c.remainingMs.p1).toBe(53_000);
    c = afterDecision(c, 'p1', T0 + 8_000, 'p2');
    expect(c.remainingMs.p1).toBe(52_000 + 5_000);
    expect(c.remainingMs.p2).toBe(60_000);
  });

  it('the time never goes negative (a decision recorded after the deadline leaves 0, plus the increment)', () => {
    let c = startClock(live(10, 2), 'p1', T0)!;
    c = afterDecision(c, 'p1', T0 + 25_000, 'p1');
    expect(c.remainingMs.p1).toBe(0);
    c = afterDecision(startClock(live(10, 2), 'p1', T0)!, 'p1', T0 + 25_000, 'p2');
    expect(c.remainingMs.p1).toBe(2_000);
  });

  it('a clock read earlier than `since` spends no time (never adds any)', () => {
    const c = afterDecision(startClock(live(10, 0), 'p1', T0)!, 'p1', T0 - 5_000, 'p2');
    expect(c.remainingMs.p1).toBe(10_000);
  });

  it('the game over after a decision: the increment is still earned, nobody runs', () => {
    const c = afterDecision(startClock(live(60, 5), 'p2', T0)!, 'p2', T0 + 1_000, null);
    expect(c.remainingMs).toEqual({ p1: 60_000, p2: 64_000 });
    expect(c.running).toBeNull();
  });

  it('a decision by a seat whose time was not running charges the running seat and earns no increment', () => {
    // Defensive case (no hosted game does this today): the clock trusts `running`, not the caller.
    const c = afterDecision(startClock(live(60, 5), 'p1', T0)!, 'p2', T0 + 4_000, 'p1');
    expect(c.remainingMs).toEqual({ p1: 56_000, p2: 60_000 });
  });
});

describe('remainingAt, flagged, stopClock (issue 9)', () => {
  const c: Clock = { control: live(60, 0), remainingMs: { p1: 30_000, p2: 45_000 }, running: { seat: 'p2', since: T0 } };

  it('remainingAt counts down only the running seat and never below zero', () => {
    expect(remainingAt(c, T0)).toEqual({ p1: 30_000, p2: 45_000 });
    expect(remainingAt(c, T0 + 20_000)).toEqual({ p1: 30_000, p2: 25_000 });
    expect(remainingAt(c, T0 + 99_000)).toEqual({ p1: 30_000, p2: 0 });
    expect(remainingAt(c, T0 - 1_000)).toEqual({ p1: 30_000, p2: 45_000 });
  });

  it("deadlineOf is since + the running seat's remaining", () => {
    expect(deadlineOf(c)).toBe(T0 + 45_000);
  });

  it('flagged at exactly the deadline, not one millisecond before', () => {
    expect(flagged(c, T0 + 45_000 - 1)).toBeNull();
    expect(flagged(c, T0 + 45_000)).toBe('p2');
    expect(flagged(c, T0 + 45_001)).toBe('p2');
  });

  it('stopClock freezes what was left at that instant; a stopped clock has no deadline and never flags', () => {
    const s = stopClock(c, T0 + 5_000);
    expect(s).toEqual({ control: c.control, remainingMs: { p1: 30_000, p2: 40_000 }, running: null });
    expect(deadlineOf(s)).toBeNull();
    expect(flagged(s, T0 + 999 * DAY)).toBeNull();
    expect(remainingAt(s, T0 + 999 * DAY)).toEqual(s.remainingMs);
    expect(stopClock(c, T0 + 99_000).remainingMs.p2).toBe(0);
  });
});

describe('TimeControlSchema (issue 9: what POST /v1/matches accepts)', () => {
  it('accepts none, each allowed daysPerMove, and live with increment 0', () => {
    expect(TimeControlSchema.parse({ kind: 'none' })).toEqual({ kind: 'none' });
    for (const d of DAYS_PER_MOVE) expect(TimeControlSchema.safeParse(corr(d)).success).toBe(true);
    expect(DAYS_PER_MOVE).toEqual([1, 2, 3, 5, 7, 10, 14]);
    expect(TimeControlSchema.safeParse(live(1, 0)).success).toBe(true);
  });

  it('refuses 4 days per move, initialSeconds 0, non-integers, unknown kinds and unknown fields', () => {
    for (const bad of [
      { kind: 'correspondence', daysPerMove: 4 },
      { kind: 'correspondence', daysPerMove: 0 },
      { kind: 'live', initialSeconds: 0, incrementSeconds: 0 },
      { kind: 'live', initialSeconds: 1.5, incrementSeconds: 0 },
      { kind: 'live', initialSeconds: 60, incrementSeconds: -1 },
      { kind: 'live', initialSeconds: 60 },
      { kind: 'blitz' },
      { kind: 'none', daysPerMove: 3 },
      { kind: 'correspondence', daysPerMove: 3, extra: true },
      { kind: 'live', initialSeconds: 60, incrementSeconds: 5, delaySeconds: 2 },
    ]) {
      expect(TimeControlSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
