/**
 * myTurn starts from a bounded window (issue 33): a player with more matches waiting than
 * MY_TURN_WINDOW gets the most urgent ones at the start, not the whole backlog, and live turns
 * after that as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { MY_TURN_WINDOW } from '../../../src/graphql/subscriptions.js';
import { STARTERS, bearer, nextMove, pglite, useHarness } from '../helpers.js';
import { gqlWsClient, subscribe, waitFor } from '../../../bench/lib/graphql-ws.js';

type Seat = 'p1' | 'p2';

describe('myTurn window (PGlite)', () => {
  const h = useHarness(pglite);
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.dispose();
  });

  /** A match of `player` against an anonymous opponent, left waiting for the player's decision. */
  async function waitingFor(player: string): Promise<string> {
    const created = await h.http.post('/v1/matches').set(bearer(player)).send({ openSeat: true, decks: { p1: { starter: STARTERS[0] } } }).expect(201);
    const id = created.body.id as string;
    const seat = created.body.seat as Seat;
    const joined = await h.http.post(`/v1/matches/${id}/join`).send({ handle: 'anon', deck: { starter: STARTERS[2] } }).expect(200);
    const tokens = { [seat]: player, [joined.body.seat as Seat]: joined.body.token as string } as Record<Seat, string>;
    for (let i = 0; i < 20; i++) {
      const v = await h.http.get(`/v1/matches/${id}`).expect(200);
      if (v.body.game.pending.seat === seat) return id;
      const mv = await nextMove(h, id, tokens);
      await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[mv.seat])).send({ action: mv.action }).expect(200);
    }
    throw new Error('the opponent never passed the decision');
  }

  it(`sends at most ${MY_TURN_WINDOW} waiting matches at the start, then live turns`, async () => {
    const reg = await h.http.post('/v1/players').send({ handle: 'backlog' }).expect(201);
    const player = reg.body.token as string;
    const backlog: string[] = [];
    for (let i = 0; i < MY_TURN_WINDOW + 3; i++) backlog.push(await waitingFor(player));
    const c = gqlWsClient(h.baseUrl(), player);
    clients.push(c);
    const sub = subscribe<{ myTurn: { id: string } }>(c, 'subscription { myTurn { id } }');
    await waitFor(() => sub.results.length >= MY_TURN_WINDOW, 'the first window');
    // A match that becomes the player's turn now arrives live: after the window, not after the backlog.
    const live = await waitingFor(player);
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
