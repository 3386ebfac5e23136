import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATION_LEAD_MS, openStore, type OpenedStore } from '../../src/persistence/match-store.js';
import { InvalidCursorError } from '../../src/persistence/match-list.js';
import { VersionConflictError, type NewEvent, type NewMatch, type SeatRecord } from '../../src/persistence/types.js';
import { backends } from './backends.js';

const ev = (type: string, payload: unknown = { type }, actingSeat: 'p1' | 'p2' | null = null): NewEvent => ({
  source: 'game',
  type,
  payload,
  visibility: 'public',
  actingSeat,
});

function newMatch(over: Partial<NewMatch> = {}, seats?: SeatRecord[]): NewMatch {
  const id = over.id ?? `m_${randomUUID()}`;
  return {
    id,
    game: 'evons',
    rulesVersion: 'r1',
    engineVersion: '0.1.0',
    rulesHash: 'rules-hash',
    config: { board: { width: 5, height: 5 }, nested: [1, 'two', null] },
    cardSetId: 'core',
    cardSetHash: 'cards-hash',
    seed: 'secret-seed',
    seedCommitment: 'commitment',
    status: 'waiting',
    seats: seats ?? [
      { seat: 'p1', tokenHash: `tok_${randomUUID()}`, handle: 'alice' },
      { seat: 'p2', tokenHash: null, handle: null },
    ],
    ...over,
  };
}

for (const backend of backends) {
  const suite = backend.skipReason ? describe.skip : describe;
  suite(`PgMatchStore on ${backend.name}`, () => {
    let opened: OpenedStore;
    let dispose: () => Promise<void>;

    beforeAll(async () => {
      const fresh = await backend.migrated();
      dispose = fresh.dispose;
      opened = await openStore(fresh.config);
    });
    afterAll(async () => {
      await opened?.close();
      await dispose?.();
    });

    it('creates and reads back a match with its first events', async () => {
      const m = newMatch();
      const row = await opened.store.createMatch(m, [ev('MatchCreated', { seedCommitment: 'c' }), ev('Deal', null)]);
      expect(row.version).toBe(2);
      expect(row.winner).toBeNull();
      const got = await opened.store.getMatch(m.id);
      expect(got).toEqual(row);
      expect(got).toMatchObject({ ...m, version: 2, winner: null });
      expect(got!.createdAt).toBeInstanceOf(Date);
      const events = await opened.store.loadEvents(m.id);
      expect(events.map((e) => [e.seq, e.type, e.payload])).toEqual([
        [1, 'MatchCreated', { seedCommitment: 'c' }],
        [2, 'Deal', null],
      ]);
      expect(await opened.store.getMatch('nope')).toBeNull();
    });

    it('creates a match with its seats, clock, endpoints and events in one statement, or nothing at all', async () => {
      const deadline = new Date('2030-01-02T03:04:05.678Z');
      const hook = {
        id: `wh_${randomUUID()}`,
        seat: 'p1' as const,
        url: 'https://example.test/hook',
        kinds: ['your-turn' as const, 'match-ended' as const],
        secret: 'whsec_x',
        deadlineLeadMs: 3_600_000,
      };
      const m = newMatch(
        {
          status: 'active',
          toMove: 'p2',
          deadline,
          timeControl: 'correspondence',
          rated: false,
          decks: null,
          config: null,
          webhooks: [hook],
        },
        [
          { seat: 'p1', tokenHash: `tok_${randomUUID()}`, handle: 'ann', deck: 'starter-a' },
          { seat: 'p2', tokenHash: `tok_${randomUUID()}`, handle: 'bob', deck: 'custom-1' },
        ],
      );
      const row = await opened.store.createMatch(m, [ev('MatchCreated')]);
      expect(row).toEqual(await opened.store.getMatch(m.id));
      expect(row).toMatchObject({
        status: 'active',
        toMove: 'p2',
        deadline,
        timeControl: 'correspondence',
        decks: null,
        config: null,
        ending: null,
        version: 1,
      });
      expect(row.seats.map((s) => [s.seat, s.handle, s.deck, s.bot])).toEqual([
        ['p1', 'ann', 'starter-a', false],
        ['p2', 'bob', 'custom-1', false],
      ]);
      expect(await opened.store.webhooks.list(m.id, 'p1')).toMatchObject([
        { id: hook.id, url: hook.url, kinds: hook.kinds, deadlineLeadMs: hook.deadlineLeadMs },
      ]);
      // JSON nulls are jsonb `null`, as matches created through Prisma's nested create stored them.
      const [types] = await opened.db.query<{ decks: string; config: string }>(
        `SELECT jsonb_typeof(decks) AS decks, jsonb_typeof(config) AS config FROM "match" WHERE id = $1`,
        [m.id],
      );
      expect(types).toEqual({ decks: 'null', config: 'null' });

      // Creation times strictly increase on one store, even when creates come faster than a millisecond.
      // They run ahead of the clock by at most CREATION_LEAD_MS, and whatever happens to a match
      // right after (an append, its events) is never stamped before its creation.
      // Twenty creates started in one tick take twenty consecutive milliseconds from now on.
      const burst = Array.from({ length: 20 }, () => newMatch());
      const rows = await Promise.all(burst.map((b) => opened.store.createMatch(b, [ev('MatchCreated')])));
      const times = rows.map((r) => r.createdAt.getTime());
      expect(times.every((t, i) => i === 0 || t > times[i - 1]!)).toBe(true);
      expect(times.at(-1)!).toBeLessThanOrEqual(Date.now() + CREATION_LEAD_MS);

      // A seat token already in use: the statement fails whole (no match row, no seats, no events).
      const clash = newMatch({}, [
        { seat: 'p1', tokenHash: m.seats[0]!.tokenHash, handle: 'eve' },
        { seat: 'p2', tokenHash: null, handle: null },
      ]);
      await expect(opened.store.createMatch(clash, [ev('MatchCreated')])).rejects.toThrow();
      expect(await opened.store.getMatch(clash.id)).toBeNull();
      expect(await opened.store.loadEvents(clash.id)).toEqual([]);
    });

    it('appends at the expected version, with status and winner', async () => {
      const m = newMatch();
      await opened.store.createMatch(m, [ev('MatchCreated')]);
      expect(await opened.store.appendEvents(m.id, 1, [ev('Move', { x: 1 }, 'p1')])).toBe(2);
      expect(
        await opened.store.appendEvents(m.id, 2, [ev('Move', { x: 2 }, 'p2'), ev('GameOver')], {
          row: { status: 'finished', winner: 'p2' },
        }),
      ).toBe(4);
      const row = await opened.store.getMatch(m.id);
      expect(row).toMatchObject({ version: 4, status: 'finished', winner: 'p2' });
      expect(row!.updatedAt.getTime()).toBeGreaterThanOrEqual(row!.createdAt.getTime());
      const events = await opened.store.loadEvents(m.id, { afterSeq: 1, limit: 2 });
      expect(events.map((e) => [e.seq, e.actingSeat])).toEqual([
        [2, 'p1'],
        [3, 'p2'],
      ]);
    });

    it('tells watchers about committed appends (the latest version of each burst; nothing about a failed one)', async () => {
      const m = newMatch();
      await opened.store.createMatch(m, [ev('MatchCreated')]);
      const seen: [string, number][] = [];
      const stop = await opened.store.watchAppends((id, version) => {
        if (id === m.id) seen.push([id, version]);
      });
      try {
        await opened.store.appendEvents(m.id, 1, [ev('Move')]);
        await opened.store.appendEvents(m.id, 1, [ev('Move')]).catch(() => undefined); // stale: no notification
        await opened.store.appendEvents(m.id, 2, [ev('Move'), ev('Move')]);
        // Notifications arrive asynchronously after commit: wait for them (bounded), then compare.
        // Announcements are batched: a watcher may see only the latest version of a burst.
        for (let i = 0; i < 100 && seen.at(-1)?.[1] !== 4; i++) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 50));
        expect(seen.at(-1)).toEqual([m.id, 4]);
        for (const [, v] of seen) expect([2, 4]).toContain(v);
      } finally {
        await stop();
      }
    });

    it('rejects a stale version with the current version', async () => {
      const m = newMatch();
      await opened.store.createMatch(m, [ev('MatchCreated')]);
      await opened.store.appendEvents(m.id, 1, [ev('Move')]);
      const err = await opened.store.appendEvents(m.id, 1, [ev('Move')]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VersionConflictError);
      expect((err as VersionConflictError).currentVersion).toBe(2);
      // a version from the future is a conflict too, and leaves no gap
      const ahead = await opened.store.appendEvents(m.id, 5, [ev('Move')]).catch((e: unknown) => e);
      expect(ahead).toBeInstanceOf(VersionConflictError);
      expect((await opened.store.loadEvents(m.id)).map((e) => e.seq)).toEqual([1, 2]);
    });

    it('lets exactly one of 20 concurrent appends at the same version win', async () => {
      const m = newMatch();
      await opened.store.createMatch(m, [ev('MatchCreated')]);
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => opened.store.appendEvents(m.id, 1, [ev('Move', { i }), ev('Tick', { i })])),
      );
      const ok = results.filter((r) => r.status === 'fulfilled');
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(19);
      for (const f of failed) {
        expect(f.reason).toBeInstanceOf(VersionConflictError);
        expect((f.reason as VersionConflictError).currentVersion).toBe(3);
      }
      const events = await opened.store.loadEvents(m.id);
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(new Set(events.slice(1).map((e) => (e.payload as { i: number }).i)).size).toBe(1);
      expect((await opened.store.getMatch(m.id))!.version).toBe(3);
    });

    it('stores the idempotency record with the events, atomically', async () => {
      const m = newMatch();
      await opened.store.createMatch(m, [ev('MatchCreated')]);
      const idem = { key: 'k1', seat: 'p1' as const, requestHash: 'rh', response: '{"version":2,"ok":true}' };
      expect(await opened.store.findIdempotency(m.id, 'p1', 'k1')).toBeNull();
      await opened.store.appendEvents(m.id, 1, [ev('Move')], { idempotency: idem });
      expect(await opened.store.findIdempotency(m.id, 'p1', 'k1')).toEqual(idem);

      // Same key again at the right version: conflict, and nothing of it is stored.
      const err = await opened.store
        .appendEvents(m.id, 2, [ev('Move')], { idempotency: { ...idem, requestHash: 'other' }, row: { status: 'finished' } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VersionConflictError);
      expect((err as VersionConflictError).currentVersion).toBe(2);
      expect(await opened.store.getMatch(m.id)).toMatchObject({ version: 2, status: 'waiting' });
      expect(await opened.store.loadEvents(m.id)).toHaveLength(2);
      expect(await opened.store.findIdempotency(m.id, 'p1', 'k1')).toEqual(idem);

      // The other seat has its own key space: the same key is a new record.
      const theirs = { ...idem, seat: 'p2' as const, requestHash: 'rh2', response: '{"version":3}' };
      await opened.store.appendEvents(m.id, 2, [ev('Move')], { idempotency: theirs });
      expect(await opened.store.findIdempotency(m.id, 'p2', 'k1')).toEqual(theirs);
      expect(await opened.store.findIdempotency(m.id, 'p1', 'k1')).toEqual(idem);

      // A stale append does not store its idempotency record either.
      await opened.store.appendEvents(m.id, 1, [ev('Move')], { idempotency: { ...idem, key: 'k2' } }).catch(() => {});
      expect(await opened.store.findIdempotency(m.id, 'p1', 'k2')).toBeNull();
    });

    it('claims an open seat once, together with the events appended at the join', async () => {
      const m = newMatch();
      await opened.store.createMatch(m, [ev('MatchCreated')]);
      // A join: the deal's events and the seat in one append; it succeeds or is a conflict.
      const claim = (version: number, seat: 'p1' | 'p2', handle: string) =>
        opened.store
          .appendEvents(m.id, version, [ev('Deal')], {
            row: { status: 'active' },
            join: { claim: { seat, tokenHash: `tok_${randomUUID()}`, handle } },
          })
          .then(() => true)
          .catch((e: unknown) => {
            if (e instanceof VersionConflictError) return false;
            throw e;
          });
      const [a, b] = await Promise.all([claim(1, 'p2', 'bob'), claim(1, 'p2', 'carol')]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      expect(await claim(2, 'p2', 'dave')).toBe(false);
      expect(await claim(2, 'p1', 'eve')).toBe(false);
      // The losers wrote nothing.
      expect((await opened.store.loadEvents(m.id)).map((e) => e.seq)).toEqual([1, 2]);
      const row = await opened.store.getMatch(m.id);
      expect(row!.status).toBe('active');
      expect(row!.seats[1]!.handle).toBe(a ? 'bob' : 'carol');
      expect(row!.seats[1]!.tokenHash).toMatch(/^tok_/);
    });

    it('lists matches newest first with cursor pagination and filters', async () => {
      const handle = `h_${randomUUID()}`;
      const other = `o_${randomUUID()}`;
      const tok = `tok_${randomUUID()}`;
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const seats: SeatRecord[] =
          i === 3
            ? [
                { seat: 'p1', tokenHash: `tok_${randomUUID()}`, handle: other },
                { seat: 'p2', tokenHash: tok, handle },
              ]
            : [
                { seat: 'p1', tokenHash: `tok_${randomUUID()}`, handle: i === 6 ? other : handle },
                { seat: 'p2', tokenHash: null, handle: null },
              ];
        const m = newMatch({ status: i % 2 === 0 ? 'waiting' : 'active' }, seats);
        ids.push(m.id);
        await opened.store.createMatch(m, [ev('MatchCreated')]);
      }
      const mine = ids.filter((_, i) => i !== 6).reverse(); // newest first; 6 has no seat of `handle`

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await opened.store.listMatches({ handle }, { cursor, limit: 2 });
        expect(page.matches.length).toBeLessThanOrEqual(2);
        seen.push(...page.matches.map((m) => m.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(seen).toEqual(mine);
      expect(pages).toBe(3);

      const active = await opened.store.listMatches({ handle, status: 'active' }, { limit: 10 });
      expect(active.matches.map((m) => m.id)).toEqual([ids[5], ids[3], ids[1]]);
      expect(active.nextCursor).toBeNull();

      const byToken = await opened.store.listMatches({ tokenHash: tok }, { limit: 10 });
      expect(byToken.matches.map((m) => m.id)).toEqual([ids[3]]);

      const both = await opened.store.listMatches({ handle: other }, { limit: 10 });
      expect(both.matches.map((m) => m.id)).toEqual([ids[6], ids[3]]);

      // unfiltered: newest first overall
      const all = await opened.store.listMatches({}, { limit: 3 });
      expect(all.matches.map((m) => m.id)).toEqual([ids[6], ids[5], ids[4]]);

      await expect(opened.store.listMatches({}, { cursor: 'garbage', limit: 3 })).rejects.toBeInstanceOf(InvalidCursorError);
    });

    it('signals queued deliveries: after an append that wrote outbox rows and after a redelivery, never otherwise', async () => {
      let signals = 0;
      opened.store.onDeliveriesQueued(() => signals++);
      const m = newMatch();
      await opened.store.createMatch(m, [ev('MatchCreated')]);
      // No endpoint yet: the notification queues nothing.
      await opened.store.appendEvents(m.id, 1, [ev('Move', { x: 1 }, 'p1')], { notify: [{ seat: 'p1', kind: 'your-turn' }] });
      expect(signals).toBe(0);
      const hook = (await opened.store.webhooks.create(
        m.id,
        {
          id: `wh_${randomUUID()}`,
          seat: 'p1',
          url: 'https://example.test/hook',
          kinds: ['your-turn'],
          secret: 'whsec_x',
          deadlineLeadMs: 0,
        },
        5,
      ))!;
      await opened.store.appendEvents(m.id, 2, [ev('Move', { x: 2 }, 'p2')]);
      expect(signals).toBe(0);
      await opened.store.appendEvents(m.id, 3, [ev('Move', { x: 3 }, 'p2')], { notify: [{ seat: 'p1', kind: 'your-turn' }] });
      expect(signals).toBe(1);
      const [queued] = await opened.store.webhooks.deliveries(hook.id, 10);
      expect(await opened.store.webhooks.redeliver(hook.id, 'msg_none', 3)).toBeNull();
      // Pending already: not queued again, no signal.
      expect(await opened.store.webhooks.redeliver(hook.id, queued!.id, 3)).toBe('pending');
      expect(signals).toBe(1);
      const claimed = (await opened.store.webhooks.claim(100, 30_000)).find((d) => d.id === queued!.id)!;
      await opened.store.webhooks.settle(claimed, { ok: true, statusCode: 200, error: null, nextAttemptAt: null });
      expect(await opened.store.webhooks.redeliver(hook.id, queued!.id, 3)).toMatchObject({
        id: queued!.id,
        status: 'pending',
        redeliveries: 1,
      });
      expect(signals).toBe(2);
    });

    it('never stamps a write to a match before its creation, when the creation ran ahead of the database clock', async () => {
      // A burst runs creation times ahead of the clock (see the creation test); a match stamped a
      // second ahead has the same effect deterministically. Last in this suite: that match would
      // top the listings the other tests check.
      const m = newMatch({}, [
        { seat: 'p1', tokenHash: `tok_${randomUUID()}`, handle: 'ann' },
        { seat: 'p2', tokenHash: null, handle: null },
      ]);
      await opened.store.createMatch(m, [ev('MatchCreated')]);
      await opened.db.query(`UPDATE "match" SET "created_at" = "created_at" + interval '1 second' WHERE "id" = $1`, [m.id]);
      const created = (await opened.store.getMatch(m.id))!;
      const tokenHash = `tok_${randomUUID()}`;
      await opened.store.appendEvents(m.id, 1, [ev('Joined', null, 'p2')], { join: { claim: { seat: 'p2', tokenHash, handle: 'bob' } } });
      const row = (await opened.store.getMatch(m.id))!;
      expect(row.createdAt).toEqual(created.createdAt);
      expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
      const [joinedEvent] = await opened.store.loadEvents(m.id, { afterSeq: 1 });
      expect(joinedEvent!.createdAt.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
      const [joined] = await opened.db.query<{ at: Date | string }>(
        `SELECT joined_at AS at FROM "seat" WHERE match_id = $1 AND seat = 'p2'`,
        [m.id],
      );
      expect(new Date(joined!.at).getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
    });
  });
}
