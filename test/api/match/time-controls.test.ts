/**
 * Time controls over the API (issue 9, part 1), on every backend, with an injected fake clock
 * (buildApp's `now`): no sleeping, no timed asserts. Correspondence gives each decision the full
 * period; live is Fischer with the increment once per handover; a clock that runs out ends the
 * match exactly once (reads, moves, sweeps on one or two services); abort until both seats have
 * decided; "my turn" lists soonest deadline first.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import type { MatchStore } from '../../../src/persistence/types.js';
import { STARTERS, backends, bearer, expectProblem, prng, secondApp, type Clocked, type Created, useHarness, startOn } from '../helpers.js';

type Seat = 'p1' | 'p2';
type Control =
  { kind: 'none' } | { kind: 'correspondence'; daysPerMove: number } | { kind: 'live'; initialSeconds: number; incrementSeconds: number };

const SEC = 1000;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const other = (s: Seat): Seat => (s === 'p1' ? 'p2' : 'p1');

/** A hot-seat Evons match with p1 to decide first (so the clock's seat is known). */
async function create(h: Clocked, timeControl: Control | undefined, extra: Record<string, unknown> = {}): Promise<Created> {
  const res = await h.http
    .post('/v1/matches')
    .send({
      handle: 'alice',
      opponentHandle: 'bob',
      decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } },
      settings: { firstPlayer: 'p1' },
      ...(timeControl ? { timeControl } : {}),
      ...extra,
    })
    .expect(201);
  return { id: res.body.id, tokens: res.body.tokens, version: res.body.version };
}

async function view(h: Clocked, id: string) {
  return (await h.http.get(`/v1/matches/${id}`).expect(200)).body;
}

/** The seat to decide now and its first legal action (Evons: pass when it may). */
async function decision(h: Clocked, m: Created): Promise<{ seat: Seat; action: Record<string, unknown> }> {
  const v = await view(h, m.id);
  const seat = v.game.pending.seat as Seat;
  const legal = await h.http.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200);
  return { seat, action: legal.body.actions[0].action };
}

/** The seat to decide makes its first legal action at the fake time now; returns the seat and the answer. */
async function decide(h: Clocked, m: Created) {
  const { seat, action } = await decision(h, m);
  const res = await h.http
    .post(`/v1/matches/${m.id}/actions`)
    .set('prefer', 'return=representation')
    .set(bearer(m.tokens[seat]))
    .send({ action });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { seat, body: res.body };
}

/** Decides until the decision passes to the other seat (a turn may hold several decisions). */
async function endTurn(h: Clocked, m: Created): Promise<Seat> {
  for (let i = 0; i < 10; i++) {
    const { seat, body } = await decide(h, m);
    if (body.match.game.pending?.seat !== seat) return seat;
  }
  throw new Error('the turn did not pass');
}

async function storedLog(h: Clocked, id: string) {
  return h.store.loadEvents(id);
}

async function matchEndedCount(store: MatchStore, id: string): Promise<number> {
  return (await store.loadEvents(id)).filter((e) => e.type === 'MatchEnded').length;
}

/** The whole public event log, every page. */
async function publicEvents(h: Clocked, id: string) {
  const out: { seq: number; event: Record<string, unknown> }[] = [];
  let after = 0;
  for (;;) {
    const page = (await h.http.get(`/v1/matches/${id}/events?after=${after}&limit=100`).expect(200)).body;
    out.push(...page.events);
    if (!page.hasMore) return out;
    after = page.next;
  }
}

/** Reads an NDJSON stream until it ends or `settle` resolves; returns the non-blank lines. */
function readStream(url: string, token: string) {
  const lines: Record<string, unknown>[] = [];
  let buf = '';
  let closed = false;
  const req = http.get(url, { headers: bearer(token) }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      for (let i; (i = buf.indexOf('\n')) >= 0;) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
    });
    res.on('end', () => (closed = true));
  });
  return { lines, closed: () => closed, abort: () => req.destroy() };
}

async function until(cond: () => boolean): Promise<void> {
  // A generous bound on waiting, not an assertion on time: the caller asserts the condition.
  for (let i = 0; i < 250 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
}

const GQL_MATCH = /* GraphQL */ `
  query ($id: ID!) {
    match(id: $id) {
      status
      winner
      version
      timeControl {
        kind
        daysPerMove
        initialSeconds
        incrementSeconds
      }
      clock {
        remainingMs {
          p1
          p2
        }
        running
        deadline
      }
      outcome {
        winner
        reason
        seat
      }
    }
  }
`;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`time controls, issue 9 [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });
    /** Each test starts well after every earlier test's clocks (time only moves forward). */
    const fresh = () => (h.t.now += 100 * DAY);

    it('issue 9 correspondence 3 days: deadline = creation + 3 d for the seat to move, then action time + 3 d for the next; rulesHash pins the clock', async () => {
      const t0 = fresh();
      const m = await create(h, { kind: 'correspondence', daysPerMove: 3 });
      const v0 = await view(h, m.id);
      expect(v0.timeControl).toEqual({ kind: 'correspondence', daysPerMove: 3 });
      expect(v0.clock).toEqual({ remainingMs: { p1: 3 * DAY, p2: 3 * DAY }, running: 'p1', deadline: iso(t0 + 3 * DAY) });
      expect((await h.store.getMatch(m.id))?.deadline?.toISOString()).toBe(iso(t0 + 3 * DAY));

      // Two and a half days later p1 hands the decision over: p2 gets the full period from now.
      h.t.now = t0 + 2.5 * DAY;
      const passer = await endTurn(h, m);
      expect(passer).toBe('p1');
      const v1 = await view(h, m.id);
      expect(v1.clock).toEqual({ remainingMs: { p1: 3 * DAY, p2: 3 * DAY }, running: 'p2', deadline: iso(h.t.now + 3 * DAY) });
      h.t.now += DAY;
      expect((await view(h, m.id)).clock.remainingMs).toEqual({ p1: 3 * DAY, p2: 2 * DAY });

      // The same rules without a clock, or with kind none, pin a different hash than with one.
      const plain = await view(h, (await create(h, undefined)).id);
      const none = await view(h, (await create(h, { kind: 'none' })).id);
      expect(plain.timeControl).toEqual({ kind: 'none' });
      expect(plain.clock).toBeNull();
      expect(none.rulesHash).toBe(plain.rulesHash);
      expect(v0.rulesHash).not.toBe(plain.rulesHash);
      const live = await view(h, (await create(h, { kind: 'live', initialSeconds: 60, incrementSeconds: 5 })).id);
      expect(new Set([plain.rulesHash, v0.rulesHash, live.rulesHash]).size).toBe(3);
    });

    it('issue 9 POST /v1/matches refuses a time control outside the schema (4 days per move, initialSeconds 0, unknown fields): 400, nothing created', async () => {
      fresh();
      const before = (await h.http.get('/v1/matches').query({ handle: 'refused', limit: 100 }).expect(200)).body.matches.length;
      for (const timeControl of [
        { kind: 'correspondence', daysPerMove: 4 },
        { kind: 'live', initialSeconds: 0, incrementSeconds: 0 },
        { kind: 'live', initialSeconds: 60, incrementSeconds: 5, delaySeconds: 1 },
        { kind: 'none', daysPerMove: 1 },
      ]) {
        const res = await h.http.post('/v1/matches').send({
          handle: 'refused',
          opponentHandle: 'bob',
          decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } },
          timeControl,
        });
        expectProblem(res, 400, 'validation-failed');
      }
      expect((await h.http.get('/v1/matches').query({ handle: 'refused', limit: 100 }).expect(200)).body.matches).toHaveLength(before);
    });

    it('issue 9 polling with If-None-Match: 304 while the clock runs, a fresh 200 (finished) once the deadline has passed', async () => {
      const t0 = fresh();
      const m = await create(h, { kind: 'live', initialSeconds: 20, incrementSeconds: 0 });
      const first = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p2)).expect(200);
      const etag = first.headers.etag as string;
      h.t.now = t0 + 19 * SEC;
      await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p2)).set('if-none-match', etag).expect(304);
      h.t.now = t0 + 20 * SEC;
      const after = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p2)).set('if-none-match', etag).expect(200);
      expect(after.headers.etag).not.toBe(etag);
      expect(after.body).toMatchObject({ status: 'finished', outcome: { reason: 'aborted', winner: null } });
    });

    it('issue 9 live 60+5: your time falls only while the decision is yours; the increment arrives once per handover', async () => {
      const t0 = fresh();
      const m = await create(h, { kind: 'live', initialSeconds: 60, incrementSeconds: 5 });
      h.t.now = t0 + 10 * SEC;
      expect((await view(h, m.id)).clock).toEqual({
        remainingMs: { p1: 50 * SEC, p2: 60 * SEC },
        running: 'p1',
        deadline: iso(t0 + 60 * SEC),
      });

      // Our own account of Fischer, checked after every decision (1 s each) until some seat has
      // made a decision that kept the decision (a turn of several decisions: no increment then).
      const left: Record<Seat, number> = { p1: 60 * SEC, p2: 60 * SEC };
      let since = t0;
      let keptTurn = false;
      for (let i = 0; i < 30 && !keptTurn; i++) {
        h.t.now += SEC;
        const { seat, body } = await decide(h, m);
        const next = body.match.game.pending?.seat as Seat;
        left[seat] -= h.t.now - since;
        if (next !== seat) left[seat] += 5 * SEC;
        else keptTurn = true;
        since = h.t.now;
        expect(body.match.clock, `decision ${i}`).toEqual({ remainingMs: left, running: next, deadline: iso(since + left[next]) });
        expect((await view(h, m.id)).clock.remainingMs).toEqual(left);
      }
      expect(keptTurn, 'Evons reached a turn of two decisions (a discard after passing)').toBe(true);
      // The turn that kept the decision ends with one handover: one increment for the whole turn.
      const seat = (await view(h, m.id)).clock.running as Seat;
      const before = left[seat];
      h.t.now += 2 * SEC;
      expect(await endTurn(h, m)).toBe(seat);
      const after = (await view(h, m.id)).clock.remainingMs[seat];
      expect(after).toBe(before - 2 * SEC + 5 * SEC);
    });

    it('issue 9 timeout: at the deadline the seat to move loses on time, once, however often the match is read or swept', async () => {
      const t0 = fresh();
      const m = await create(h, { kind: 'live', initialSeconds: 30, incrementSeconds: 0 });
      h.t.now = t0 + SEC;
      expect(await endTurn(h, m)).toBe('p1');
      h.t.now = t0 + 2 * SEC;
      expect(await endTurn(h, m)).toBe('p2');
      // p1 runs again since t0 + 2 s with 29 s left: the deadline is t0 + 31 s.
      const deadline = t0 + 31 * SEC;
      const running = await view(h, m.id);
      expect(running.clock.deadline).toBe(iso(deadline));
      const version = running.version;

      h.t.now = deadline - 1;
      const last = await view(h, m.id);
      expect(last.status).toBe('active');
      expect(last.clock.remainingMs.p1).toBe(1);

      h.t.now = deadline;
      const v = await view(h, m.id);
      expect(v.status).toBe('finished');
      expect(v.winner).toBe('p2');
      expect(v.outcome).toEqual({ winner: 'p2', reason: 'timed-out', seat: 'p1' });
      expect(v.clock).toEqual({ remainingMs: { p1: 0, p2: 29 * SEC }, running: null, deadline: null });
      expect(v.version).toBe(version + 2);

      const events = await publicEvents(h, m.id);
      const [ended, stopped] = events.slice(-2).map((e) => e.event);
      expect(ended).toMatchObject({ type: 'MatchEnded', end: { reason: 'timed-out', seat: 'p1', winner: 'p2', at: deadline } });
      expect(stopped).toMatchObject({ type: 'ClockSet', clock: { running: null, remainingMs: { p1: 0, p2: 29 * SEC } } });

      for (const seat of ['p1', 'p2'] as const) {
        const res = await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[seat]))
          .send({ action: { type: 'pass' } });
        expectProblem(res, 409, 'match-finished');
      }
      expectProblem(
        await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens.p2))
          .send({ action: { type: 'abort' } }),
        409,
        'match-finished',
      );

      // More reads (REST, GraphQL, a later time), sweeps: still one ending, nothing more written.
      h.t.now = deadline + DAY;
      for (let i = 0; i < 3; i++) await view(h, m.id);
      expect((await h.http.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens.p1)).expect(200)).body.actions).toEqual([]);
      const gql = await h.http
        .post('/graphql')
        .send({ query: GQL_MATCH, variables: { id: m.id } })
        .expect(200);
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.match).toEqual({
        status: 'finished',
        winner: 'p2',
        version: version + 2,
        timeControl: { kind: 'live', daysPerMove: null, initialSeconds: 30, incrementSeconds: 0 },
        clock: { remainingMs: { p1: 0, p2: 29 * SEC }, running: null, deadline: null },
        outcome: { winner: 'p2', reason: 'timed-out', seat: 'p1' },
      });
      await h.app.service.sweep();
      await h.app.service.sweep();
      expect(await matchEndedCount(h.store, m.id)).toBe(1);
      const row = await h.store.getMatch(m.id);
      expect(row).toMatchObject({ status: 'finished', winner: 'p2', toMove: null, deadline: null, version: version + 2 });
    });

    it('issue 9 a seat that never made its first decision runs out: aborted, no winner (at the start, and after the other seat decided)', async () => {
      const t0 = fresh();
      const untouched = await create(h, { kind: 'live', initialSeconds: 10, incrementSeconds: 0 });
      const oneSided = await create(h, { kind: 'correspondence', daysPerMove: 1 });
      h.t.now = t0 + 2 * SEC;
      expect(await endTurn(h, oneSided)).toBe('p1');

      h.t.now = t0 + 10 * SEC;
      const a = await view(h, untouched.id);
      expect(a.status).toBe('finished');
      expect(a.winner).toBeNull();
      expect(a.outcome).toEqual({ winner: null, reason: 'aborted', seat: null });
      expect(a.clock).toEqual({ remainingMs: { p1: 0, p2: 10 * SEC }, running: null, deadline: null });

      h.t.now = t0 + 2 * SEC + DAY;
      const b = await view(h, oneSided.id);
      expect(b.outcome).toEqual({ winner: null, reason: 'aborted', seat: null });
      expect(b.winner).toBeNull();
      expect((await h.store.getMatch(oneSided.id))?.winner).toBeNull();
      expect(await matchEndedCount(h.store, oneSided.id)).toBe(1);
    });

    it('issue 9 abort: either seat before both have decided (no winner, clock stopped); afterwards 422 ABORT_TOO_LATE and nothing written', async () => {
      const t0 = fresh();
      // p1 asks at once.
      const first = await create(h, { kind: 'live', initialSeconds: 60, incrementSeconds: 0 });
      h.t.now = t0 + 4 * SEC;
      const abortFirst = () =>
        h.http
          .post(`/v1/matches/${first.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(first.tokens.p1))
          .set('idempotency-key', 'abort-once')
          .send({ action: { type: 'abort' } });
      const r1 = await abortFirst().expect(200);
      // Retried later with the same key: the stored answer, nothing new written.
      h.t.now = t0 + 9 * SEC;
      const again = await abortFirst().expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(r1.body);
      expect(await matchEndedCount(h.store, first.id)).toBe(1);
      expect(r1.body.match).toMatchObject({ status: 'finished', winner: null, outcome: { winner: null, reason: 'aborted', seat: 'p1' } });
      expect(r1.body.match.clock).toEqual({ remainingMs: { p1: 56 * SEC, p2: 60 * SEC }, running: null, deadline: null });
      expect(r1.body.events.map((e: { event: { type: string } }) => e.event.type)).toEqual(['MatchEnded', 'ClockSet']);
      expect(await h.store.getMatch(first.id)).toMatchObject({ status: 'finished', winner: null, deadline: null, toMove: null });

      // p2 asks after p1 made its first decision (p2 has made none yet), on a match without a clock.
      const second = await create(h, undefined);
      await endTurn(h, second);
      const r2 = await h.http
        .post(`/v1/matches/${second.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(second.tokens.p2))
        .send({ action: { type: 'abort' } })
        .expect(200);
      expect(r2.body.match).toMatchObject({
        status: 'finished',
        winner: null,
        clock: null,
        outcome: { winner: null, reason: 'aborted', seat: 'p2' },
      });
      expect(r2.body.events.map((e: { event: { type: string } }) => e.event.type)).toEqual(['MatchEnded']);

      // Through GraphQL, by the seat that is not to move, at the very start.
      const third = await create(h, { kind: 'correspondence', daysPerMove: 5 });
      const abortGql = (id: string, token: string) =>
        h.http
          .post('/graphql')
          .set(bearer(token))
          .send({
            query:
              'mutation ($id: ID!) { submitAction(matchId: $id, action: {type: "abort"}) { version match { status winner outcome { winner reason seat } clock { running deadline } } } }',
            variables: { id },
          })
          .expect(200);
      const g = await abortGql(third.id, third.tokens.p2);
      expect(g.body.errors).toBeUndefined();
      expect(g.body.data.submitAction.match).toEqual({
        status: 'finished',
        winner: null,
        outcome: { winner: null, reason: 'aborted', seat: 'p2' },
        clock: { running: null, deadline: null },
      });

      // Both have decided: too late, for either seat; the log and version stay as they were.
      const late = await create(h, { kind: 'correspondence', daysPerMove: 2 });
      await endTurn(h, late);
      await endTurn(h, late);
      const before = await view(h, late.id);
      const count = (await storedLog(h, late.id)).length;
      for (const seat of ['p1', 'p2'] as const) {
        const res = await h.http
          .post(`/v1/matches/${late.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(late.tokens[seat]))
          .send({ action: { type: 'abort' } });
        expectProblem(res, 422, 'ABORT_TOO_LATE');
      }
      const gLate = await abortGql(late.id, late.tokens.p1);
      expect(gLate.body.errors?.[0]?.extensions?.code).toBe('ABORT_TOO_LATE');
      const after = await view(h, late.id);
      expect(after.version).toBe(before.version);
      expect(after.status).toBe('active');
      expect((await storedLog(h, late.id)).length).toBe(count);
    });

    it('issue 9 sweep: service.sweep() ends expired matches nobody read, and leaves the rest', async () => {
      const t0 = fresh();
      const expiring = [
        await create(h, { kind: 'live', initialSeconds: 5, incrementSeconds: 0 }),
        await create(h, { kind: 'live', initialSeconds: 7, incrementSeconds: 3 }),
        await create(h, { kind: 'correspondence', daysPerMove: 1 }),
      ];
      const later = await create(h, { kind: 'correspondence', daysPerMove: 2 });
      const unclocked = await create(h, undefined);
      h.t.now = t0 + DAY;
      expect(await h.app.service.sweep()).toBeGreaterThanOrEqual(3);
      for (const m of expiring) {
        const row = await h.store.getMatch(m.id);
        expect(row, m.id).toMatchObject({ status: 'finished', winner: null, deadline: null });
        expect(await matchEndedCount(h.store, m.id)).toBe(1);
      }
      for (const m of [later, unclocked]) {
        expect((await h.store.getMatch(m.id))?.status).toBe('active');
        expect(await matchEndedCount(h.store, m.id)).toBe(0);
      }
      expect(await h.app.service.sweep()).toBe(0);
      // The swept ending is what readers see (aborted: p1 never decided).
      expect((await view(h, expiring[0]!.id)).outcome).toEqual({ winner: null, reason: 'aborted', seat: null });
    });

    it('issue 21 a deadline that passed while no node ran is recorded at the deadline, not when a sweep, read or move finds it', async () => {
      const t0 = fresh();
      // Three live matches where both seats decided (p1 runs again from t0 + 2 s with 29 s left),
      // and one where p1 never decided (an abort, at its own deadline).
      const timed = [];
      for (let i = 0; i < 3; i++) {
        const m = await create(h, { kind: 'live', initialSeconds: 30, incrementSeconds: 0 });
        h.t.now = t0 + SEC;
        expect(await endTurn(h, m)).toBe('p1');
        h.t.now = t0 + 2 * SEC;
        expect(await endTurn(h, m)).toBe('p2');
        h.t.now = t0;
        timed.push(m);
      }
      const untouched = await create(h, { kind: 'correspondence', daysPerMove: 1 });
      const deadline = t0 + 31 * SEC;
      // The service is back three hours later; one match is found by the sweep, one by a read, one by a move.
      h.t.now = t0 + 3 * 3600 * SEC;
      const [swept, read, moved] = timed as [Created, Created, Created];
      expect(await h.app.service.sweep()).toBeGreaterThanOrEqual(1);
      expect((await view(h, read.id)).status).toBe('finished');
      expectProblem(
        await h.http
          .post(`/v1/matches/${moved.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(moved.tokens.p1))
          .send({ action: { type: 'pass' } }),
        409,
        'match-finished',
      );
      h.t.now = t0 + 2 * DAY;
      expect((await view(h, untouched.id)).outcome).toEqual({ winner: null, reason: 'aborted', seat: null });

      const cases: [Created, number, object][] = [
        [swept, deadline, { reason: 'timed-out', seat: 'p1', winner: 'p2' }],
        [read, deadline, { reason: 'timed-out', seat: 'p1', winner: 'p2' }],
        [moved, deadline, { reason: 'timed-out', seat: 'p1', winner: 'p2' }],
        [untouched, t0 + DAY, { reason: 'aborted', seat: null, winner: null }],
      ];
      for (const [m, at, end] of cases) {
        const [ended, stopped] = (await publicEvents(h, m.id)).slice(-2).map((e) => e.event);
        expect(ended, m.id).toEqual({ type: 'MatchEnded', end: { ...end, at } });
        expect(stopped, m.id).toMatchObject({ type: 'ClockSet', at, clock: { running: null } });
        const file = (await h.http.get(`/v1/matches/${m.id}/export`).expect(200)).body;
        expect(file.finishedAt, m.id).toBe(iso(at));
        expect(await matchEndedCount(h.store, m.id)).toBe(1);
      }
    });

    it('issue 9 sweep: two services on one database sweeping at once write one MatchEnded per match', async () => {
      const h2 = await startOn(backend, { clock: true });
      const b = await secondApp(h2);
      try {
        const t0 = h2.t.now;
        const ms: Created[] = [];
        for (let i = 0; i < 12; i++) ms.push(await create(h2, { kind: 'live', initialSeconds: 1 + i, incrementSeconds: 0 }));
        // Both services know the matches (one from creating, one from a read) before time runs out.
        for (const m of ms) await b.app.inject({ method: 'GET', url: `/v1/matches/${m.id}` });
        h2.t.now = t0 + 20 * SEC;
        // Each service sweeps in small batches until it finds nothing, both at once, so their
        // passes interleave; whichever wins a match, it is ended once.
        const drain = async (s: App['service']) => {
          let n = 0;
          for (let k; (k = await s.sweep(2)) > 0;) n += k;
          return n;
        };
        const [x, y] = await Promise.all([drain(h2.app.service), drain(b.app.service)]);
        expect(x + y).toBe(ms.length);
        for (const m of ms) expect(await matchEndedCount(h2.store, m.id), m.id).toBe(1);
        expect(await Promise.all([h2.app.service.sweep(), b.app.service.sweep()])).toEqual([0, 0]);
      } finally {
        await b.close();
        await h2.close();
      }
    });

    it('issue 9 open seat with a time control: no clock while waiting; it starts at the join', async () => {
      const t0 = fresh();
      const res = await h.http
        .post('/v1/matches')
        .send({
          handle: 'alice',
          decks: { p1: { starter: STARTERS[0] } },
          openSeat: true,
          settings: { firstPlayer: 'p1' },
          timeControl: { kind: 'live', initialSeconds: 60, incrementSeconds: 5 },
        })
        .expect(201);
      const id = res.body.id as string;
      const waiting = await view(h, id);
      expect(waiting.status).toBe('waiting');
      expect(waiting.timeControl).toEqual({ kind: 'live', initialSeconds: 60, incrementSeconds: 5 });
      expect(waiting.clock).toBeNull();
      expect((await h.store.getMatch(id))?.deadline).toBeNull();

      // A day of waiting costs nobody anything: sweeps leave it alone.
      h.t.now = t0 + DAY;
      await h.app.service.sweep();
      expect((await view(h, id)).status).toBe('waiting');
      const joined = await h.http
        .post(`/v1/matches/${id}/join`)
        .send({ handle: 'bob', deck: { starter: STARTERS[2] } })
        .expect(200);
      expect(joined.body.status).toBe('active');
      const v = await view(h, id);
      expect(v.clock).toEqual({ remainingMs: { p1: 60 * SEC, p2: 60 * SEC }, running: 'p1', deadline: iso(t0 + DAY + 60 * SEC) });
      expect((await h.store.getMatch(id))?.deadline?.toISOString()).toBe(iso(t0 + DAY + 60 * SEC));
    });

    it('issue 9 UniVersus with a time control times out the same way (timed-out after both decided, aborted before)', async () => {
      const t0 = fresh();
      const uvs = async () => {
        const r = await h.http
          .post('/v1/matches')
          .send({
            game: 'universus',
            handle: 'carol',
            opponentHandle: 'dan',
            decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } },
            timeControl: { kind: 'live', initialSeconds: 20, incrementSeconds: 0 },
          })
          .expect(201);
        return { id: r.body.id, tokens: r.body.tokens, version: r.body.version } as Created;
      };
      const idle = await uvs();
      const played = await uvs();
      expect((await view(h, played.id)).timeControl).toEqual({ kind: 'live', initialSeconds: 20, incrementSeconds: 0 });
      const decided = new Set<Seat>();
      for (let i = 0; i < 60 && decided.size < 2; i++) {
        h.t.now += 100;
        decided.add((await decide(h, played)).seat);
      }
      expect(decided.size).toBe(2);
      const before = await view(h, played.id);
      expect(before.status).toBe('active');
      const loser = before.clock.running as Seat;
      h.t.now = Date.parse(before.clock.deadline);
      const v = await view(h, played.id);
      expect(v).toMatchObject({
        gameId: 'universus',
        status: 'finished',
        winner: other(loser),
        outcome: { winner: other(loser), reason: 'timed-out', seat: loser },
      });
      expect(v.clock.remainingMs[loser]).toBe(0);
      expect(v.clock.running).toBeNull();

      expect(h.t.now).toBeGreaterThan(t0 + 20 * SEC);
      expect(await h.app.service.sweep()).toBeGreaterThanOrEqual(1);
      expect((await view(h, idle.id)).outcome).toEqual({ winner: null, reason: 'aborted', seat: null });
      for (const m of [idle, played]) expect(await matchEndedCount(h.store, m.id)).toBe(1);
    });

    it('issue 9 /v1/me/matches?turn=mine: soonest deadline first, unclocked after, timeLeftMs right, paginated without repeats; GraphQL myMatches the same', async () => {
      const t0 = fresh();
      const handle = `hurry-${backend.name}`;
      const mine = (tc: Control | undefined, extra: Record<string, unknown> = {}) => create(h, tc, { handle, ...extra });
      const week = await mine({ kind: 'correspondence', daysPerMove: 7 });
      const tenMin = await mine({ kind: 'live', initialSeconds: 600, incrementSeconds: 0 });
      const plainA = await mine(undefined);
      const oneDay = await mine({ kind: 'correspondence', daysPerMove: 1 });
      const plainB = await mine(undefined);
      // The same deadline as oneDay: the tie is broken newest first, and pages must not split it wrongly.
      const oneDayToo = await mine({ kind: 'correspondence', daysPerMove: 1 });
      // Not this handle's turn (p2 decides first), or over: not listed.
      await mine({ kind: 'live', initialSeconds: 60, incrementSeconds: 0 }, { settings: { firstPlayer: 'p2' } });
      const aborted = await mine({ kind: 'live', initialSeconds: 60, incrementSeconds: 0 });
      await h.http
        .post(`/v1/matches/${aborted.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(aborted.tokens.p1))
        .send({ action: { type: 'abort' } })
        .expect(200);

      h.t.now = t0 + 60 * SEC;
      const all = (await h.http.get('/v1/me/matches').query({ turn: 'mine', handle, limit: 50 }).expect(200)).body;
      const ids = all.matches.map((s: { id: string }) => s.id);
      expect(ids[0]).toBe(tenMin.id);
      expect(new Set(ids.slice(1, 3))).toEqual(new Set([oneDay.id, oneDayToo.id]));
      expect(ids[3]).toBe(week.id);
      expect(new Set(ids.slice(4))).toEqual(new Set([plainA.id, plainB.id]));
      expect(ids).toHaveLength(6);
      expect(all.nextCursor).toBeNull();
      const byId = new Map(all.matches.map((s: { id: string }) => [s.id, s]));
      expect(byId.get(tenMin.id)).toMatchObject({ deadline: iso(t0 + 600 * SEC), timeLeftMs: 540 * SEC, toMove: 'p1' });
      expect(byId.get(oneDay.id)).toMatchObject({ deadline: iso(t0 + DAY), timeLeftMs: DAY - 60 * SEC });
      expect(byId.get(week.id)).toMatchObject({ deadline: iso(t0 + 7 * DAY), timeLeftMs: 7 * DAY - 60 * SEC });
      expect(byId.get(plainA.id)).toMatchObject({ deadline: null, timeLeftMs: null });

      // One a page: the same order, every match once.
      const walked: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 10; i++) {
        const q: Record<string, string | number> = { turn: 'mine', handle, limit: 1 };
        if (cursor) q.cursor = cursor;
        const page = (await h.http.get('/v1/me/matches').query(q).expect(200)).body;
        walked.push(...page.matches.map((s: { id: string }) => s.id));
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      expect(walked).toEqual(ids);

      // GraphQL, with a seat token of this handle: the same list in the same order.
      const gql = await h.http
        .post('/graphql')
        .set(bearer(week.tokens.p1))
        .send({ query: '{ myMatches(turn: mine, limit: 50) { matches { id deadline timeLeftMs } nextCursor } }' })
        .expect(200);
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.myMatches.matches.map((s: { id: string }) => s.id)).toEqual(ids);
      expect(gql.body.data.myMatches.matches[0]).toEqual({ id: tenMin.id, deadline: iso(t0 + 600 * SEC), timeLeftMs: 540 * SEC });

      // After this handle hands over, the match leaves its "my turn" list.
      await endTurn(h, tenMin);
      const now = (await h.http.get('/v1/me/matches').query({ turn: 'mine', handle, limit: 50 }).expect(200)).body;
      expect(now.matches.map((s: { id: string }) => s.id)).toEqual(ids.slice(1));
      // timeLeftMs counts down with the clock read, to 0 (never below) once the deadline passed.
      h.t.now = t0 + 2 * DAY;
      const overdue = (await h.http.get('/v1/me/matches').query({ turn: 'mine', handle, limit: 50 }).expect(200)).body;
      const left = new Map(overdue.matches.map((s: { id: string; timeLeftMs: number | null }) => [s.id, s.timeLeftMs]));
      expect(left.get(week.id)).toBe(5 * DAY);
      // Overdue and not yet swept (lists never end matches themselves): 0, not negative.
      expect(left.get(oneDay.id)).toBe(0);
    });

    it('issue 9: the event stream of an aborted or timed-out match ends with {"end":"finished"}', async () => {
      const t0 = fresh();
      const base = h.baseUrl();
      const aborted = await create(h, { kind: 'live', initialSeconds: 60, incrementSeconds: 0 });
      await h.http
        .post(`/v1/matches/${aborted.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(aborted.tokens.p1))
        .send({ action: { type: 'abort' } })
        .expect(200);
      const timedOut = await create(h, { kind: 'live', initialSeconds: 60, incrementSeconds: 0 });
      const live = readStream(`${base}/v1/matches/${timedOut.id}/stream`, timedOut.tokens.p2);
      const stored = readStream(`${base}/v1/matches/${aborted.id}/stream`, aborted.tokens.p2);
      try {
        await until(() => stored.closed());
        expect(stored.lines.at(-1)).toEqual({ end: 'finished' });
        expect(stored.lines.at(-2)).toMatchObject({ event: { type: 'ClockSet' } });
        expect(stored.closed()).toBe(true);

        await until(() => live.lines.length > 0);
        h.t.now = t0 + 60 * SEC;
        expect(await h.app.service.sweep()).toBeGreaterThanOrEqual(1);
        await until(() => live.closed());
        expect(live.lines.some((l) => (l.event as { type?: string } | undefined)?.type === 'MatchEnded')).toBe(true);
        expect(live.lines.at(-1)).toEqual({ end: 'finished' });
        expect(live.closed()).toBe(true);
      } finally {
        live.abort();
        stored.abort();
      }
    });

    it('issue 9: GraphQL pending is null once the match ended on time or by abort', async () => {
      const t0 = fresh();
      const timedOut = await create(h, { kind: 'live', initialSeconds: 10, incrementSeconds: 0 });
      const aborted = await create(h, undefined);
      await h.http
        .post(`/v1/matches/${aborted.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(aborted.tokens.p2))
        .send({ action: { type: 'abort' } })
        .expect(200);
      h.t.now = t0 + 10 * SEC;
      for (const m of [timedOut, aborted]) {
        const res = await h.http
          .post('/graphql')
          .set(bearer(m.tokens.p1))
          .send({
            query: 'query ($id: ID!) { match(id: $id) { status pending legalActions { type } outcome { reason } } }',
            variables: { id: m.id },
          })
          .expect(200);
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.match).toEqual({ status: 'finished', pending: null, legalActions: [], outcome: { reason: 'aborted' } });
      }
    });

    it('issue 9 a game that ends by its own rules stops the clock: no deadline, no timeout afterwards, no MatchEnded', async () => {
      const t0 = fresh();
      const m = await create(h, { kind: 'live', initialSeconds: 600, incrementSeconds: 1 });
      let v = await view(h, m.id);
      // Seeded random legal decisions until the game ends on its own.
      const rand = prng(9);
      let n = 0;
      for (; n < 600 && v.status === 'active'; n++) {
        h.t.now += SEC;
        const seat = v.game.pending.seat as Seat;
        const legal = (await h.http.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200)).body.actions;
        const res = await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[seat]))
          .send({ action: legal[Math.floor(rand() * legal.length)].action });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        v = res.body.match;
      }
      expect(v.status).toBe('finished');
      expect(v.outcome.reason).not.toMatch(/timed-out|aborted/);
      expect(v.clock.running).toBeNull();
      expect(v.clock.deadline).toBeNull();
      expect((await h.store.getMatch(m.id))?.deadline).toBeNull();
      h.t.now = t0 + 10 * DAY;
      await h.app.service.sweep();
      const later = await view(h, m.id);
      expect(later.version).toBe(v.version);
      expect(later.outcome).toEqual(v.outcome);
      expect(later.clock).toEqual(v.clock);
      expect(await matchEndedCount(h.store, m.id)).toBe(0);
    });

    it('issue 9 idempotent retry of an action on a clocked match returns the same result, also after the match timed out', async () => {
      const t0 = fresh();
      const m = await create(h, { kind: 'live', initialSeconds: 30, incrementSeconds: 2 });
      const { seat, action } = await decision(h, m);
      h.t.now = t0 + 3 * SEC;
      const send = () =>
        h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[seat]))
          .set('idempotency-key', 'clocked-retry')
          .send({ action });
      const first = await send();
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const count = (await storedLog(h, m.id)).length;

      h.t.now = t0 + 5 * SEC;
      const retry = await send();
      expect(retry.status).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect((await storedLog(h, m.id)).length).toBe(count);

      // The match ends on time; the retry still gets its stored answer, and nothing is applied.
      h.t.now = t0 + DAY;
      expect((await view(h, m.id)).status).toBe('finished');
      const late = await send();
      expect(late.status).toBe(200);
      expect(late.body).toEqual(first.body);
      expect(await matchEndedCount(h.store, m.id)).toBe(1);
    });
  });
}
