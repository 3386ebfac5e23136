/**
 * myTurn starts from a bounded window (issue 33): a player with more matches waiting than
 * MY_TURN_WINDOW gets the most urgent ones at the start, not the whole backlog, and live turns
 * after that as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { MY_TURN_WINDOW } from '../../../src/graphql/subscriptions.js';
import { workCost } from '../../../src/service/work-costs.js';
import { STARTERS, bearer, nextMove, pglite, useHarness, type Harness } from '../helpers.js';
import { gqlWsClient, subscribe, waitFor } from '../../../bench/lib/graphql-ws.js';

type Seat = 'p1' | 'p2';

/** A match of `player` against an anonymous opponent, left waiting for the player's decision. */
async function waitingFor(h: Harness, player: string): Promise<string> {
  const created = await h.http
    .post('/v1/matches')
    .set(bearer(player))
    .send({ openSeat: true, decks: { p1: { starter: STARTERS[0] } } })
    .expect(201);
  const id = created.body.id as string;
  const seat = created.body.seat as Seat;
  const joined = await h.http
    .post(`/v1/matches/${id}/join`)
    .send({ handle: 'anon', deck: { starter: STARTERS[2] } })
    .expect(200);
  const tokens = { [seat]: player, [joined.body.seat as Seat]: joined.body.token as string } as Record<Seat, string>;
  for (let i = 0; i < 20; i++) {
    const v = await h.http.get(`/v1/matches/${id}`).expect(200);
    if (v.body.game.pending.seat === seat) return id;
    const mv = await nextMove(h, id, tokens);
    await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[mv.seat])).send({ action: mv.action }).expect(200);
  }
  throw new Error('the opponent never passed the decision');
}

describe('myTurn window (PGlite)', () => {
  const h = useHarness(pglite);
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.dispose();
  });

  it(`sends at most ${MY_TURN_WINDOW} waiting matches at the start, then live turns`, async () => {
    const reg = await h.http.post('/v1/players').send({ handle: 'backlog' }).expect(201);
    const player = reg.body.token as string;
    const backlog: string[] = [];
    for (let i = 0; i < MY_TURN_WINDOW + 3; i++) backlog.push(await waitingFor(h, player));
    const c = gqlWsClient(h.baseUrl(), player);
    clients.push(c);
    const sub = subscribe<{ myTurn: { id: string } }>(c, 'subscription { myTurn { id } }');
    await waitFor(() => sub.results.length >= MY_TURN_WINDOW, 'the first window');
    // A match that becomes the player's turn now arrives live: after the window, not after the backlog.
    const live = await waitingFor(h, player);
    await waitFor(() => sub.results.some((r) => r.data?.myTurn.id === live), 'the live turn');
    const ids = sub.results.map((r) => r.data!.myTurn.id);
    expect(sub.error()).toBeNull();
    expect(ids.at(-1)).toBe(live);
    expect(ids.slice(0, -1)).toHaveLength(MY_TURN_WINDOW);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, -1).every((id) => backlog.includes(id))).toBe(true);
    sub.dispose();
  }, 120_000);
});

describe('myTurn window: charged as work (PGlite)', () => {
  // Two windows' worth of a minute's budget, held at once (a minute's burst).
  const window = workCost.turnWindow(MY_TURN_WINDOW);
  const h = useHarness(pglite, { budgets: { workPerMinute: 2 * window, workPerAddressPerMinute: 0, workBurstSeconds: 60 } });

  it('each subscription is charged its window before it starts; past the budget it is refused with rate-limited and a wait', async () => {
    const reg = await h.http.post('/v1/players').send({ handle: 'windows' }).expect(201);
    const player = reg.body.token as string;
    const waiting = await waitingFor(h, player);
    const outcomes: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const c = gqlWsClient(h.baseUrl(), player);
      const sub = subscribe<{ myTurn: { id: string } }>(c, 'subscription { myTurn { id } }');
      // Accepted: the waiting match arrives; refused: the subscription ends with an error.
      await waitFor(() => sub.results.length > 0 || sub.error() !== null, 'the window or the refusal');
      outcomes.push(sub.error() ?? sub.results[0]?.data?.myTurn.id);
      sub.dispose();
      await c.dispose();
    }
    expect(outcomes.slice(0, 2)).toEqual([waiting, waiting]);
    const refused = outcomes[2] as { extensions?: { code?: string; retryAfter?: number } }[];
    expect(refused[0]?.extensions?.code).toBe('rate-limited');
    expect(refused[0]?.extensions?.retryAfter).toBeGreaterThan(0);
  }, 120_000);
});
