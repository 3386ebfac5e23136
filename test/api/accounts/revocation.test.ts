/**
 * Revocation reaches live streams at once (issue 21, item 8): a token revoked through one node
 * ends the NDJSON stream and the GraphQL subscription it holds on another node with
 * `invalid-token`, without a move and without waiting for the 15 s heartbeat's check. The
 * revocation is announced on the append notification channel (PostgreSQL NOTIFY; PGlite's own),
 * so it crosses nodes. "At once" is checked by structure, not by time: the stream's only blank
 * line is the one sent when it opened, so no heartbeat came before its end.
 */
import { describe, expect, it } from 'vitest';
import { STARTERS, backends, bearer, openStream, useHarness, useSecondApp } from '../helpers.js';
import { rawSocket, waitFor } from '../../../bench/lib/graphql-ws.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`revocation ends live streams at once [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });
    /** Node B: a second app on the same database. */
    const b = useSecondApp(h);

    /** A registered player in a match, and a second token of theirs that will be revoked. */
    async function playerInMatch(handle: string) {
      const reg = await h.http.post('/v1/players').send({ handle }).expect(201);
      const extra = await h.http
        .post('/v1/me/tokens')
        .set(bearer(reg.body.token))
        .send({ scopes: ['match:read'] })
        .expect(201);
      const c = await h.http
        .post('/v1/matches')
        .set(bearer(reg.body.token))
        .send({ opponentHandle: 'anon', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
        .expect(201);
      const revoke = async () => {
        const r = await fetch(`${b.baseUrl()}/v1/me/tokens/${extra.body.tokenInfo.id}`, {
          method: 'DELETE',
          headers: bearer(reg.body.token),
        });
        expect(r.status).toBe(204);
      };
      return { matchId: c.body.id as string, token: extra.body.token as string, revoke };
    }

    it('an account feed on node A ends with invalid-token when its token is revoked through node B', async () => {
      const p = await playerInMatch(`feed-${backend.name}`);
      const s = openStream(h.baseUrl(), '/v1/me/events', p.token);
      await waitFor(() => s.lines.length > 0, 'the snapshot');
      expect(s.lines[0]).toMatchObject({ type: 'snapshot' });
      await p.revoke();
      await s.ended;
      expect(s.lines.at(-1)).toMatchObject({ error: { code: 'invalid-token', status: 401 } });
      // Refused from then on.
      expect((await fetch(`${h.baseUrl()}/v1/me/events`, { headers: bearer(p.token) })).status).toBe(401);
    });

    it('an NDJSON stream on node A ends with invalid-token when its player token is revoked through node B, before any heartbeat', async () => {
      const p = await playerInMatch(`nd-${backend.name}`);
      const s = openStream(h.baseUrl(), `/v1/matches/${p.matchId}/stream`, p.token);
      await waitFor(() => s.lines.length > 0, 'the stored events');
      await p.revoke();
      await s.ended;
      expect(s.lines.at(-1)).toMatchObject({ error: { code: 'invalid-token', status: 401 } });
      // The keep-alive sent when the stream opened, and no other: no heartbeat's check ended it.
      expect(s.blank()).toBe(1);
    });

    it('a GraphQL subscription on node A ends with invalid-token when its token is revoked through node B, without a move', async () => {
      const p = await playerInMatch(`ws-${backend.name}`);
      const r = rawSocket(h.baseUrl());
      try {
        await r.opened;
        r.send({ type: 'connection_init', payload: { authorization: `Bearer ${p.token}` } });
        await waitFor(() => r.messages.some((m) => m.type === 'connection_ack'), 'the ack');
        r.send({
          type: 'subscribe',
          id: 'events',
          payload: { query: 'subscription ($id: ID!) { matchEvents(matchId: $id) { seq } }', variables: { id: p.matchId } },
        });
        r.send({ type: 'subscribe', id: 'turns', payload: { query: 'subscription { myTurn { id } }' } });
        await waitFor(() => r.messages.some((m) => m.id === 'events' && m.type === 'next'), 'the stored events');
        await p.revoke();
        const errorOf = (id: string) => r.messages.find((m) => m.id === id && m.type === 'error');
        await waitFor(() => errorOf('events') !== undefined && errorOf('turns') !== undefined, 'both subscriptions to end');
        for (const id of ['events', 'turns']) {
          expect((errorOf(id)!.payload as { extensions: { code: string } }[])[0]!.extensions.code, id).toBe('invalid-token');
        }
        // The ping sent with the ack, and no other: no heartbeat (whose look would also have found it) came first.
        expect(r.messages.filter((m) => m.type === 'ping')).toHaveLength(1);
      } finally {
        r.socket.close();
      }
    });
  });
}
