/**
 * The deadline sweeper across processes (issue 9, part 1): two real servers (src/server.ts) on
 * one PostgreSQL database, each sweeping every 200 ms. Live matches of one second run out while
 * nobody reads them; both nodes sweep the same rows, and each match still ends exactly once.
 * Polls with a generous overall limit and never asserts on how long anything took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../../bench/lib/server-process.js';
import { productionImage } from '../../package/production-image.js';
import { createTempDatabase, postgresUnavailableReason, type TempDatabase } from '../../persistence/pg-helper.js';
import { STARTERS } from '../helpers.js';

const pgReason = await postgresUnavailableReason();
if (pgReason) console.warn(`[sweeper processes] skipping: ${pgReason}`);

type Seat = 'p1' | 'p2';
interface Match {
  id: string;
  tokens: Record<Seat, string>;
  moved: boolean;
}

async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe.skipIf(pgReason !== null)('issue 9 sweeper: two server processes on one PostgreSQL database', () => {
  let db: TempDatabase;
  const servers: ServerProcess[] = [];
  const output: string[] = ['', ''];

  beforeAll(async () => {
    const app = await productionImage();
    db = await createTempDatabase();
    const env = { DATABASE_URL: db.url, SWEEP_INTERVAL_MS: '200', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0' };
    // One after the other: the first applies the migrations.
    for (let i = 0; i < 2; i++) {
      const s = await startServer({ cwd: app, env, readyTimeoutMs: 60_000 });
      s.child.stdout!.on('data', (c: Buffer) => (output[i] += c.toString('utf8')));
      servers.push(s);
    }
  }, 600_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop(5_000)));
    await db?.drop();
  });

  it('issue 9: live matches of 1 s (untouched, or one decision each) all end on time, each with exactly one MatchEnded', async () => {
    const [a, b] = servers.map((s) => s.baseUrl) as [string, string];
    const handle = 'sweep-me';
    const matches: Match[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await call(i % 2 ? b : a, 'POST', '/v1/matches', {
        handle,
        opponentHandle: 'other',
        decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } },
        settings: { firstPlayer: 'p1' },
        timeControl: { kind: 'live', initialSeconds: 1, incrementSeconds: 0 },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      matches.push({ id: r.body.id as string, tokens: r.body.tokens as Record<Seat, string>, moved: i % 2 === 1 });
    }
    // Half of them: one pass each, on the other node than the one that created it. On a busy
    // machine the second can come after the second ran out: then the node ends it first (409
    // match-finished), or a sweeper's ending wins the race with the move's append (409
    // version-conflict): either way the move is refused cleanly, never applied after the end.
    const refused: string[] = [];
    await Promise.all(
      matches
        .filter((m) => m.moved)
        .map(async (m) => {
          for (const seat of ['p1', 'p2'] as const) {
            const r = await call(a, 'POST', `/v1/matches/${m.id}/actions`, { action: { type: 'pass' } }, m.tokens[seat]);
            if (r.status === 409 && (r.body.code === 'match-finished' || r.body.code === 'version-conflict')) {
              refused.push(m.id);
              return;
            }
            expect(r.status, JSON.stringify(r.body)).toBe(200);
          }
        }),
    );

    // The history list reads rows only (no read-time ending): what it shows is the sweepers' work.
    let finished = 0;
    for (let i = 0; i < 450 && finished < matches.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const list = await call(b, 'GET', `/v1/matches?handle=${handle}&status=finished&limit=100`);
      finished = (list.body.matches as unknown[]).length;
    }
    expect(finished).toBe(matches.length);

    for (const m of matches) {
      const events: { event: { type: string; end?: { reason: string; seat: Seat | null; winner: Seat | null } } }[] = [];
      for (let after = 0; ;) {
        const page = await call(a, 'GET', `/v1/matches/${m.id}/events?after=${after}&limit=100`);
        events.push(...(page.body.events as typeof events));
        if (!page.body.hasMore) break;
        after = page.body.next as number;
      }
      const ended = events.filter((e) => e.event.type === 'MatchEnded');
      expect(ended, m.id).toHaveLength(1);
      expect(events.at(-2)?.event.type).toBe('MatchEnded');
      expect(events.at(-1)?.event).toMatchObject({ type: 'ClockSet', clock: { running: null } });
      // Both passed: p1 ran out on time. Untouched, or a pass refused (that seat never decided): aborted.
      const end = ended[0]!.event.end;
      if (m.moved && !refused.includes(m.id)) expect(end).toMatchObject({ reason: 'timed-out', seat: 'p1', winner: 'p2' });
      else expect(end).toMatchObject({ reason: 'aborted', seat: null, winner: null });
      const v = await call(b, 'GET', `/v1/matches/${m.id}`);
      expect(v.body).toMatchObject({ status: 'finished', clock: { running: null, deadline: null } });
    }

    // Nobody but a sweeper could end the untouched ones: the nodes' logs account for at least those.
    const swept = output
      .join('\n')
      .split('\n')
      .filter((l) => l.includes('ended matches whose time ran out'));
    const total = swept.reduce((n, l) => n + ((JSON.parse(l) as { ended?: number }).ended ?? 0), 0);
    expect(total).toBeGreaterThanOrEqual(matches.filter((m) => !m.moved).length);
    expect(total).toBeLessThanOrEqual(matches.length);
  }, 90_000);
  it('issue 25: both processes race to start each tournament round (a scheduled start, then each next round): every round starts once', async () => {
    const [a, b] = servers.map((s) => s.baseUrl) as [string, string];
    const reg = async (handle: string) => (await call(a, 'POST', '/v1/players', { handle })).body.token as string;
    const org = await reg('race-org');
    const players = new Map<string, string>();
    for (let i = 0; i < 6; i++) players.set(`racer${i}`, await reg(`racer${i}`));
    const ids: string[] = [];
    // Three tournaments that start by themselves once everyone has joined (10 s leaves room on a loaded machine): both sweepers see them due.
    for (let k = 0; k < 3; k++) {
      const t = await call(
        b,
        'POST',
        '/v1/tournaments',
        {
          name: `Race ${k}`,
          format: 'swiss',
          rounds: 2,
          timeControl: { kind: 'correspondence', daysPerMove: 3 },
          startsAt: new Date(Date.now() + 10_000).toISOString(),
        },
        org,
      );
      expect(t.status).toBe(201);
      ids.push(t.body.id as string);
      for (const [, token] of players)
        expect((await call(k % 2 ? a : b, 'POST', `/v1/tournaments/${t.body.id}/join`, {}, token)).status).toBe(200);
    }
    type Board = { p1: string; p2: string | null; matchId: string | null; result: string | null };
    type View = { status: string; round: number; pairings: { round: number; boards: Board[] }[] };
    const view = async (id: string, base = a) => (await call(base, 'GET', `/v1/tournaments/${id}`)).body as unknown as View;
    const until = async (cond: () => Promise<boolean>, what: string) => {
      for (let i = 0; i < 600 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 100));
      if (!(await cond())) throw new Error(`timed out waiting for ${what}`);
    };
    for (const round of [1, 2]) {
      await until(async () => (await Promise.all(ids.map((id) => view(id)))).every((v) => v.round === round), `round ${round} everywhere`);
      for (const id of ids) {
        const v = await view(id, round === 1 ? b : a);
        const boards = v.pairings.find((r) => r.round === round)!.boards;
        // Each round once: three boards, each player on exactly one, each board its own match.
        expect(v.pairings.map((r) => r.round)).toEqual(round === 1 ? [1] : [1, 2]);
        expect(boards).toHaveLength(3);
        expect(new Set(boards.flatMap((x) => [x.p1, x.p2])).size).toBe(6);
        expect(new Set(boards.map((x) => x.matchId)).size).toBe(3);
        // The second seats resign, on either server; the sweepers score them and start the next round.
        for (const [j, x] of boards.entries()) {
          expect(
            (await call(j % 2 ? a : b, 'POST', `/v1/matches/${x.matchId}/actions`, { action: { type: 'resign' } }, players.get(x.p2!)))
              .status,
          ).toBe(200);
        }
      }
    }
    await until(async () => (await Promise.all(ids.map((id) => view(id)))).every((v) => v.status === 'finished'), 'every finish');
    // Every player has exactly the six matches of their boards (three tournaments, two rounds): none made twice.
    for (const [handle] of players) {
      const mine = (await call(a, 'GET', `/v1/matches?handle=${handle}&limit=100`)).body.matches as unknown[];
      expect(mine, handle).toHaveLength(6);
    }
  }, 120_000);
});
