/**
 * match-replay/1 files (src/replay): built in-process from random finished matches of every
 * hosted game, they verify; changing any one thing (an event field, an action, the seed, a deck
 * card) makes verification fail at the check that recomputes it; `npm run verify` exits 0 / 1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runVerify } from './verify-command.js';
import { expandDeck, type AnyRuleset, type Seat, type Viewer } from '../../src/core/ruleset.js';
import { GAME_IDS, GAMES } from '../../src/games/registry.js';
import { buildReplay, recoverActions, type LoggedEvent } from '../../src/replay/build.js';
import { ReplayFileSchema, type ReplayAction, type ReplayFile } from '../../src/replay/replay-file.js';
import { verifyReplay, type VerifyReport } from '../../src/replay/verify.js';

function starterDecks(r: AnyRuleset): Record<Seat, string[]> {
  const [a, b] = [r.starterDecks[0], r.starterDecks[1] ?? r.starterDecks[0]];
  if (!a || !b) throw new Error(`${r.id} ships no starter deck`);
  return { p1: expandDeck(a.cards), p2: expandDeck(b.cards) };
}

interface Played {
  r: AnyRuleset;
  config: unknown;
  seed: string;
  decks: Record<Seat, string[]>;
  actions: ReplayAction[];
  log: LoggedEvent[];
}

/** A random match to its end, stored as the service stores it: the deal (actingSeat null), then each action's events. */
function playout(r: AnyRuleset, seed: string, maxActions = 3000): Played {
  const config = r.configSchema.parse({});
  const decks = starterDecks(r);
  const created = r.create({ config, decks, seed });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const log: LoggedEvent[] = [];
  const push = (event: { type: string }, actingSeat: Seat | null) =>
    log.push({ seq: log.length + 1, source: 'game', actingSeat, event: JSON.parse(JSON.stringify(event)) as LoggedEvent['event'] });
  for (const e of created.events) push(e, null);
  const actions: ReplayAction[] = [];
  const choose = r.randomPlayer(`${seed}:player`);
  for (let i = 0; i < maxActions && !r.outcome(state); i++) {
    const pending = r.pending(state);
    if (!pending) break;
    const action = choose(state, r.legalActions(state, pending.seat)) as { type: string };
    const res = r.apply(state, pending.seat, action);
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    state = res.state;
    actions.push({ seat: pending.seat, action: JSON.parse(JSON.stringify(action)) as ReplayAction['action'] });
    for (const e of res.events) push(e, pending.seat);
  }
  const outcome = r.outcome(state);
  if (!outcome) throw new Error(`${r.id} ${seed}: no end within ${maxActions} actions`);
  return { r, config, seed, decks, actions, log };
}

function fileFor(p: Played, reader: Viewer, ended?: ReplayFile['outcome']): ReplayFile {
  const outcome =
    ended ?? p.r.outcome(p.r.replay(p.log.filter((e) => !['MatchEnded', 'ClockSet'].includes(e.event.type)).map((e) => e.event)));
  return buildReplay({
    ruleset: p.r,
    config: p.config,
    seed: p.seed,
    decks: p.decks,
    actions: p.actions,
    log: p.log,
    reader,
    players: [
      { seat: 'p1', handle: 'ada', verified: true },
      { seat: 'p2', handle: null, verified: false },
    ],
    createdAt: '2026-11-23T12:00:00.000Z',
    finishedAt: '2026-11-23T12:30:00.000Z',
    outcome: ended ?? (outcome && { winner: outcome.winner, reason: outcome.reason }),
  });
}

const clone = (f: ReplayFile): ReplayFile => JSON.parse(JSON.stringify(f)) as ReplayFile;
const failed = (rep: VerifyReport): string[] => rep.checks.filter((c) => !c.ok).map((c) => c.name);

for (const id of GAME_IDS) {
  const r = GAMES[id] as AnyRuleset;
  describe(`${id}: match-replay/1`, () => {
    const matches = ['replay-a', 'replay-b', 'replay-c'].map((s) => playout(r, `${id}-${s}`));
    const played = matches[0]!;

    it('files of random finished matches verify, for every reader', () => {
      for (const p of matches) {
        for (const reader of ['spectator', 'p1', 'p2'] as const) {
          const f = fileFor(p, reader);
          expect(ReplayFileSchema.safeParse(f).success).toBe(true);
          const rep = verifyReplay(JSON.parse(JSON.stringify(f)));
          expect(failed(rep), `${p.seed} for ${reader}: ${JSON.stringify(rep.firstMismatch)}`).toEqual([]);
          expect(rep.ok).toBe(true);
          expect(rep.checks.map((c) => c.name)).toEqual(
            expect.arrayContaining(['seed-commitment', 'rules-hash', 'deal', 'actions', 'events', 'outcome']),
          );
        }
      }
    });

    it('a spectator file hides what the spectator may not see, the seat file shows its own cards', () => {
      const events = fileFor(played, 'spectator').events;
      // The seed and the deck lists appear only in the game's closing events (revealed at the end).
      const beforeEnd = JSON.stringify(events.slice(0, Math.floor(events.length / 2)));
      expect(beforeEnd).not.toContain(played.seed);
      expect(Object.keys(events[0]!.event)).not.toContain('decks');
      expect(JSON.stringify(fileFor(played, 'p1').events).length).toBeGreaterThan(JSON.stringify(events).length);
    });

    it('the seed, decks and actions stay out of a file of a running match', () => {
      const running = { ...played, log: played.log.slice(0, Math.ceil(played.log.length / 2)) };
      const f = buildReplay({
        ...running,
        ruleset: r,
        reader: 'spectator',
        players: fileFor(played, 'p1').players,
        createdAt: '2026-11-23T12:00:00.000Z',
        finishedAt: null,
        outcome: null,
      });
      expect(f.seed).toBeNull();
      expect(f.decks).toBeNull();
      expect(f.actions).toBeNull();
      expect(ReplayFileSchema.safeParse(f).success).toBe(true);
      const rep = verifyReplay(f);
      expect(rep.ok).toBe(false);
      expect(failed(rep)).toEqual(['finished']);
      // A file claiming an unfinished match yet carrying the seed is malformed.
      expect(ReplayFileSchema.safeParse({ ...f, seed: played.seed }).success).toBe(false);
    });

    it('recovers the actions of a stored log that kept none', () => {
      const rec = recoverActions(r, played.log);
      if (!rec.ok) throw new Error(rec.reason);
      const f = { ...fileFor(played, 'spectator'), actions: rec.actions };
      expect(verifyReplay(f).ok).toBe(true);
    });

    it('a changed event field fails the events check at its seq', () => {
      const f = clone(fileFor(played, 'spectator'));
      const target = f.events.find((e, i) => i > 0 && e.actingSeat !== null)!;
      target.event = { ...target.event, seat: target.event.seat === 'p1' ? 'p2' : 'p1', forged: true };
      const rep = verifyReplay(f);
      expect(rep.ok).toBe(false);
      expect(failed(rep)).toEqual(['events']);
      expect(rep.firstMismatch?.seq).toBe(target.seq);
      // A dropped event is a mismatch too.
      const g = clone(fileFor(played, 'p1'));
      g.events.splice(3, 1);
      expect(failed(verifyReplay(g))).toContain('events');
    });

    it('a changed action fails the actions or events check', () => {
      const f = clone(fileFor(played, 'spectator'));
      // Another legal action at the same point: it applies, so the events must give it away.
      let state = r.replay(played.log.filter((e) => e.actingSeat === null).map((e) => e.event));
      let changed = -1;
      for (const [i, a] of played.actions.entries()) {
        const alternative = (r.legalActions(state, a.seat) as { type: string }[]).find(
          (x) => JSON.stringify(x) !== JSON.stringify(a.action),
        );
        if (alternative && i > 2) {
          f.actions![i] = { seat: a.seat, action: alternative as ReplayAction['action'] };
          changed = i;
          break;
        }
        const res = r.apply(state, a.seat, a.action);
        if (!res.ok) throw new Error('replay of a played match failed');
        state = res.state;
      }
      expect(changed).toBeGreaterThan(-1);
      const rep = verifyReplay(f);
      expect(rep.ok).toBe(false);
      expect(failed(rep)).toContain('events');
      // An action the rules reject at its point.
      const g = clone(fileFor(played, 'p2'));
      g.actions![1] = { seat: g.actions![1]!.seat === 'p1' ? 'p2' : 'p1', action: g.actions![1]!.action };
      expect(failed(verifyReplay(g))).toContain('actions');
    });

    it('another seed fails the commitment (and the deal it gives does not match)', () => {
      const f = clone(fileFor(played, 'spectator'));
      f.seed = `${f.seed}-forged`;
      const rep = verifyReplay(f);
      expect(rep.ok).toBe(false);
      expect(failed(rep)).toContain('seed-commitment');
    });

    it('a changed deck card fails the deal or the events', () => {
      const f = clone(fileFor(played, 'p1'));
      const deck = f.decks!.p1;
      const replacement = r.cardSet.cards
        .map((c) => (c as { id: string }).id)
        .find((c) => {
          const i = deck.findIndex((x) => x !== c);
          const tried = [...deck];
          tried[i] = c;
          return !deck.includes(c) && r.validateDeck(tried, f.settings).length === 0;
        });
      const i = deck.findIndex((x) => x !== replacement);
      if (replacement) deck[i] = replacement;
      else deck[i] = 'no-such-card';
      const rep = verifyReplay(f);
      expect(rep.ok).toBe(false);
      expect(failed(rep).some((n) => n === 'deal' || n === 'events')).toBe(true);
      expect(failed(rep)).not.toContain('seed-commitment');
    });

    it('a forged outcome and a forged rules hash fail their checks', () => {
      const f = clone(fileFor(played, 'spectator'));
      f.outcome = { winner: f.outcome!.winner === 'p1' ? 'p2' : 'p1', reason: f.outcome!.reason };
      expect(failed(verifyReplay(f))).toEqual(['outcome']);
      const g = clone(fileFor(played, 'spectator'));
      g.rulesHash = '0'.repeat(64);
      expect(failed(verifyReplay(g))).toEqual(['rules-hash']);
    });
  });
}

describe('matches ended outside the rules, and legacy deals', () => {
  it('a match that ended on time verifies against its public MatchEnded record, and not with another outcome', () => {
    const r = GAMES.universus as AnyRuleset;
    const full = playout(r, 'timed-out');
    // Cut the match after its sixth action: seat of action 6 runs out of time on the next decision.
    const cut = 6;
    const kept =
      full.log.filter((e) => e.actingSeat === null).length + full.actions.slice(0, cut).reduce((n, a, i) => n + countEvents(r, full, i), 0);
    const state = r.replay(full.log.slice(0, kept).map((e) => e.event));
    const loser = r.pending(state)!.seat;
    const winner: Seat = loser === 'p1' ? 'p2' : 'p1';
    const end = { reason: 'timed-out', seat: loser, winner, at: Date.UTC(2026, 10, 23, 12, 30) };
    const log: LoggedEvent[] = [
      ...full.log.slice(0, kept),
      { seq: kept + 1, source: 'match', actingSeat: null, event: { type: 'MatchEnded', end } },
      {
        seq: kept + 2,
        source: 'match',
        actingSeat: null,
        event: {
          type: 'ClockSet',
          at: end.at,
          clock: { control: { kind: 'correspondence', daysPerMove: 1 }, remainingMs: { p1: 0, p2: 0 }, running: null },
        },
      },
    ];
    const timedOut = { ...full, log, actions: full.actions.slice(0, cut) };
    const f = fileFor(timedOut, 'spectator', { winner, reason: 'timed-out', seat: loser });
    const rep = verifyReplay(f);
    expect(failed(rep), JSON.stringify(rep.checks)).toEqual([]);
    expect(failed(verifyReplay({ ...f, outcome: { winner: loser, reason: 'timed-out', seat: loser } }))).toEqual(['outcome']);
    // Without the record, a game that did not end has no outcome to show.
    expect(failed(verifyReplay({ ...f, events: f.events.filter((e) => e.event.type !== 'MatchEnded') }))).toEqual(['outcome']);
  });

  it('an Evons match dealt with the legacy sfc32 generator verifies with it (its opening names no rng)', () => {
    const r = GAMES.evons as AnyRuleset;
    const config = r.configSchema.parse({});
    const decks = starterDecks(r);
    const seed = 'legacy-deal';
    const created = r.create({ config, decks, seed, generator: 'sfc32' });
    if (!created.ok) throw new Error(created.errors.join('; '));
    expect(created.events[0]).not.toHaveProperty('rng');
    let state = created.state;
    const log: LoggedEvent[] = created.events.map((event: LoggedEvent['event'], i: number) => ({
      seq: i + 1,
      source: 'game' as const,
      actingSeat: null,
      event,
    }));
    const actions: ReplayAction[] = [];
    const choose = r.randomPlayer('legacy-player');
    while (!r.outcome(state)) {
      const seat = r.pending(state)!.seat;
      const action = choose(state, r.legalActions(state, seat)) as ReplayAction['action'];
      const res = r.apply(state, seat, action);
      if (!res.ok) throw new Error(res.error.code);
      state = res.state;
      actions.push({ seat, action });
      for (const event of res.events)
        log.push({
          seq: log.length + 1,
          source: 'game',
          actingSeat: seat,
          event: JSON.parse(JSON.stringify(event)) as LoggedEvent['event'],
        });
    }
    const f = fileFor({ r, config, seed, decks, actions, log }, 'p2');
    expect(f.rulesHash).toBe(r.rulesHash(config, 'sfc32'));
    expect(failed(verifyReplay(f))).toEqual([]);
    // The same seed dealt with the current generator is another match.
    const rehashed = { ...f, events: f.events.map((e, i) => (i === 0 ? { ...e, event: { ...e.event, rng: 'chacha20' } } : e)) };
    expect(verifyReplay(rehashed).ok).toBe(false);
  });
});

describe('sandbox matches (opened from a position)', () => {
  for (const id of GAME_IDS) {
    it(`${id}: a sandbox match verifies from its revealed position, and not from another`, () => {
      const r = GAMES[id] as AnyRuleset;
      const seed = `${id}-sandbox`;
      // A position: a played match's state a few actions in, in the game's own format.
      const source = playout(r, `${id}-sandbox-source`);
      let mid = r.replay(source.log.filter((e) => e.actingSeat === null).map((e) => e.event));
      for (const a of source.actions.slice(0, 4)) {
        const res = r.apply(mid, a.seat, a.action);
        if (!res.ok) throw new Error(res.error.code);
        mid = res.state;
      }
      const position = JSON.parse(JSON.stringify(r.positions.toPosition(mid))) as unknown;
      const created = r.positions.fromPosition(position, seed);
      if (!created.ok) throw new Error(created.errors.join('; '));
      let state = created.state;
      const log: LoggedEvent[] = created.events.map((event: LoggedEvent['event'], i: number) => ({
        seq: i + 1,
        source: 'game' as const,
        actingSeat: null,
        event: JSON.parse(JSON.stringify(event)) as LoggedEvent['event'],
      }));
      const actions: ReplayAction[] = [];
      const choose = r.randomPlayer(`${seed}:player`);
      for (let i = 0; i < 3000 && !r.outcome(state); i++) {
        const seat = r.pending(state)!.seat;
        const action = choose(state, r.legalActions(state, seat)) as ReplayAction['action'];
        const res = r.apply(state, seat, action);
        if (!res.ok) throw new Error(res.error.code);
        state = res.state;
        actions.push({ seat, action });
        for (const event of res.events)
          log.push({
            seq: log.length + 1,
            source: 'game',
            actingSeat: seat,
            event: JSON.parse(JSON.stringify(event)) as LoggedEvent['event'],
          });
      }
      const outcome = r.outcome(state)!;
      const f = buildReplay({
        ruleset: r,
        config: source.config,
        seed,
        decks: null,
        position,
        actions,
        log,
        reader: 'p1',
        players: [
          { seat: 'p1', handle: 'ada', verified: true },
          { seat: 'p2', handle: 'bo', verified: true },
        ],
        createdAt: '2026-11-23T12:00:00.000Z',
        finishedAt: '2026-11-23T12:30:00.000Z',
        outcome: { winner: outcome.winner, reason: outcome.reason },
      });
      expect(f.decks).toBeNull();
      const rep = verifyReplay(JSON.parse(JSON.stringify(f)));
      expect(failed(rep), JSON.stringify(rep.firstMismatch)).toEqual([]);
      expect(rep.checks.find((c) => c.name === 'deal')?.detail).toBe('position loaded');
      // Another position (the opening one of the source match) deals other cards.
      const other = JSON.parse(
        JSON.stringify(r.positions.toPosition(r.replay(source.log.filter((e) => e.actingSeat === null).map((e) => e.event)))),
      ) as unknown;
      expect(verifyReplay({ ...f, position: other }).ok).toBe(false);
    });
  }
});

/** How many stored events action `i` of a played match produced (re-applied from the deal). */
function countEvents(r: AnyRuleset, p: Played, i: number): number {
  let state = r.replay(p.log.filter((e) => e.actingSeat === null).map((e) => e.event));
  for (let k = 0; k < i; k++) {
    const res = r.apply(state, p.actions[k]!.seat, p.actions[k]!.action);
    if (!res.ok) throw new Error('replay failed');
    state = res.state;
  }
  const res = r.apply(state, p.actions[i]!.seat, p.actions[i]!.action);
  if (!res.ok) throw new Error('replay failed');
  return res.events.length;
}

describe('npm run verify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-verify-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = runVerify;

  it('exits 0 on a verified file and 1 on a tampered one', async () => {
    const f = fileFor(playout(GAMES.universus as AnyRuleset, 'cli-match'), 'spectator');
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(f));
    const ok = await run(good);
    expect(ok.stdout).toContain('VERIFIED');
    expect(ok.code).toBe(0);

    const bad = clone(f);
    const target = bad.events[bad.events.length - 2]!;
    target.event = { ...target.event, forged: 1 };
    const badPath = join(dir, 'bad.json');
    writeFileSync(badPath, JSON.stringify(bad));
    const no = await run(badPath);
    expect(no.stdout).toContain('FAIL events');
    expect(no.stdout).toContain(`seq ${target.seq}`);
    expect(no.code).toBe(1);
  });
});
