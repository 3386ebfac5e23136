/**
 * Contract: a whole match played by a client generated from the committed OpenAPI document
 * (openapi-typescript + openapi-fetch), against the real app on a random port. p1 creates with an
 * open seat, p2 joins, and the deciding seat picks a random move from its legal actions (sent
 * with If-Match and an Idempotency-Key) until the game ends; then the history, the event log and
 * the NDJSON stream are read through the same client. Every call is type-checked against the
 * document by tsc, and every response is checked against what the document declares for it.
 */
import { describe, expect, it } from 'vitest';
import { backends, prng, STARTERS } from '../api/helpers.js';
import { auth, useClient } from './client.js';

const MAX_ACTIONS = 600;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`generated client plays a match [${backend.name}]`, () => {
    const s = useClient(backend);

    it('creates, joins, plays to the end choosing from legal-actions, and reads events, history and the stream', async () => {
      const seed = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);
      const rand = prng(seed);
      const label = `seed ${seed}`;
      const { client } = s;

      const decks = await client.GET('/v1/decks');
      expect(decks.response.status).toBe(200);
      expect(decks.data!.decks.map((d) => d.id)).toContain(STARTERS[0]);

      const created = await client.POST('/v1/matches', {
        body: { handle: 'ann', openSeat: true, decks: { p1: { starter: STARTERS[1] } } },
      });
      expect(created.response.status).toBe(201);
      const id = created.data!.id;
      expect(created.response.headers.get('location')).toBe(`/v1/matches/${id}`);
      expect(created.response.headers.get('x-request-id')).toBeTruthy();

      const joined = await client.POST('/v1/matches/{id}/join', {
        params: { path: { id } },
        body: { handle: 'ben', deck: { starter: STARTERS[0] } },
      });
      expect(joined.response.status).toBe(200);
      expect(joined.data!.seat).toBe('p2');
      const tokens = { p1: created.data!.token, p2: joined.data!.token };

      // A second join is a documented 409 problem.
      const again = await client.POST('/v1/matches/{id}/join', {
        params: { path: { id } },
        body: { handle: 'eve', deck: { starter: STARTERS[2] } },
      });
      expect(again.response.status).toBe(409);
      expect(again.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(again.error!.code).toBe('seat-taken');

      let version = joined.data!.version;
      let status: string = joined.data!.status;
      let actions = 0;
      while (status === 'active' && actions < MAX_ACTIONS) {
        const view = await client.GET('/v1/matches/{id}', { params: { path: { id } } });
        expect(view.response.status).toBe(200);
        const etag = view.response.headers.get('etag')!;
        expect(etag).toBeTruthy();
        // Polling with the ETag is a 304 until the match moves.
        const unchanged = await client.GET('/v1/matches/{id}', {
          params: { path: { id }, header: { 'if-none-match': etag } },
        });
        expect(unchanged.response.status).toBe(304);

        const seat = view.data!.game!.pending!.seat;
        const legal = await client.GET('/v1/matches/{id}/legal-actions', {
          params: { path: { id }, query: { text: 'true' } },
          headers: auth(tokens[seat]),
        });
        expect(legal.response.status).toBe(200);
        const options = legal.data!.actions;
        expect(options.length, `${label}: the deciding seat has no legal action`).toBeGreaterThan(0);
        const choice = options[Math.floor(rand() * options.length)]!;

        const key = `c-${actions}`;
        const body = { action: choice.action };
        const res = await client.POST('/v1/matches/{id}/actions', {
          params: { path: { id }, header: { 'if-match': `"${version}"`, 'idempotency-key': key } },
          headers: auth(tokens[seat]),
          body,
        });
        expect(res.response.status, `${label}: ${choice.text} → ${JSON.stringify(res.error)}`).toBe(200);
        expect(res.data!.version).toBeGreaterThan(version);
        if (actions === 0) {
          // A retry with the same key is the stored response, marked as a replay.
          const retry = await client.POST('/v1/matches/{id}/actions', {
            params: { path: { id }, header: { 'idempotency-key': key } },
            headers: auth(tokens[seat]),
            body,
          });
          expect(retry.response.status).toBe(200);
          expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
          expect(retry.data!.version).toBe(res.data!.version);
        }
        version = res.data!.version;
        // No Prefer was sent, so the answer is the lean MinimalActionResult (the default).
        const answer = res.data!;
        if ('match' in answer) throw new Error('the lean MinimalActionResult was expected');
        status = answer.status;
        actions++;
      }
      expect(status, `${label}: the match did not end within ${MAX_ACTIONS} actions`).toBe('finished');

      // A stale If-Match is a documented 409 problem carrying the current version.
      const stale = await client.POST('/v1/matches/{id}/actions', {
        params: { path: { id }, header: { 'if-match': '"1"' } },
        headers: auth(tokens.p1),
        body: { action: { type: 'resign' } },
      });
      expect(stale.response.status).toBe(409);
      expect(stale.error!.version).toBe(version);

      const history = await client.GET('/v1/matches', { params: { query: { handle: 'ann', status: 'finished' } } });
      expect(history.response.status).toBe(200);
      expect(history.data!.matches.map((m) => m.id)).toContain(id);
      const mine = await client.GET('/v1/me/matches', { headers: auth(tokens.p2), params: { query: { turn: 'any' } } });
      expect(mine.data!.matches.map((m) => m.id)).toContain(id);

      // The event log, page by page, and the stream (which ends with the game) hold the same events.
      const seqs: number[] = [];
      for (let after = 0, more = true; more;) {
        const page = await client.GET('/v1/matches/{id}/events', {
          params: { path: { id }, query: { after, limit: 500 } },
          headers: auth(tokens.p1),
        });
        expect(page.response.status).toBe(200);
        seqs.push(...page.data!.events.map((e) => e.seq));
        after = page.data!.next;
        more = page.data!.hasMore;
      }
      const stream = await client.GET('/v1/matches/{id}/stream', {
        params: { path: { id } },
        headers: auth(tokens.p1),
        parseAs: 'text',
      });
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = (stream.data as string).split('\n').filter((l) => l.trim() !== '');
      // The last line says why the stream ended (documented in the operation's description).
      expect(JSON.parse(lines.at(-1)!)).toEqual({ end: 'finished' });
      expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(seqs);
      expect(s.violations, 'responses that differ from openapi/openapi.json').toEqual([]);
    });
  });
}
