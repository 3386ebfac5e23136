/**
 * Feed tickets (issue 34, item 23): a browser's EventSource cannot send Authorization, so POST
 * /v1/me/feed/tickets gives a short-lived, single-use ticket that GET /v1/me/events?ticket= takes
 * in its place, on any node (the ticket is in the database, as a hash). It stands for the token
 * that minted it (player and scopes), is refused once used or expired (401 invalid-ticket), and
 * never appears in the logs.
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { backends, bearer, expectProblem, registerPlayer, useHarness, useSecondApp, waitFor } from '../helpers.js';

interface Msg {
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads fields of every kind of message
  data: Record<string, any>;
}

/** An EventSource's request: no Authorization, only the URL (SSE messages parsed back). */
function eventSource(base: string, query: string) {
  const messages: Msg[] = [];
  let buf = '';
  let req: http.ClientRequest;
  const opened = new Promise<number>((resolve, reject) => {
    req = http.get(`${base}/v1/me/events?${query}`, { headers: { accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) messages.push(JSON.parse(data.slice(6)) as Msg);
        }
      });
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  return { messages, opened, close: () => req.destroy() };
}

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`feed tickets [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true, loggerInstance: pino({ level: 'info' }, sink) });
    const other = useSecondApp(h);
    const mint = async (token: string) =>
      (await h.http.post('/v1/me/feed/tickets').set(bearer(token)).expect(201)).body as { ticket: string; expiresAt: string };

    it('opens the feed of the token that minted it, on another node, once; each sees only its own entries', async () => {
      const ann = await registerPlayer(h.http, 'tkann');
      const ben = await registerPlayer(h.http, 'tkben');
      const cal = await registerPlayer(h.http, 'tkcal');
      const a = await mint(ann.token);
      expect(a.ticket).not.toContain(ann.token);
      expect(Date.parse(a.expiresAt)).toBe(h.t.now + 60_000);
      const b = await mint(ben.token);
      const annFeed = eventSource(other.baseUrl(), `ticket=${encodeURIComponent(a.ticket)}`);
      const benFeed = eventSource(other.baseUrl(), `ticket=${encodeURIComponent(b.ticket)}`);
      expect(await annFeed.opened).toBe(200);
      expect(await benFeed.opened).toBe(200);
      await waitFor(() => annFeed.messages.length === 1 && benFeed.messages.length === 1, 'the snapshots');
      await h.http.post('/v1/challenges').set(bearer(cal.token)).send({ to: ben.handle }).expect(201);
      await h.http.post('/v1/challenges').set(bearer(cal.token)).send({ to: ann.handle }).expect(201);
      await waitFor(() => annFeed.messages.length === 2 && benFeed.messages.length === 2, 'one entry each');
      expect(annFeed.messages[1]).toMatchObject({ type: 'challenge-received', data: { to: { handle: ann.handle } } });
      expect(benFeed.messages[1]).toMatchObject({ type: 'challenge-received', data: { to: { handle: ben.handle } } });
      // Single use, on either node.
      for (const node of [h, other]) {
        expectProblem(await node.http.get(`/v1/me/events?ticket=${encodeURIComponent(a.ticket)}`), 401, 'invalid-ticket');
      }
      annFeed.close();
      benFeed.close();
      // Never in the logs (the URL is logged without its query), nor the token.
      const logged = lines.join('\n');
      expect(logged).toContain('/v1/me/events');
      expect(logged).not.toContain(a.ticket);
      expect(logged).not.toContain(b.ticket);
    });

    it('expires a minute after it was made, on the service clock', async () => {
      const dee = await registerPlayer(h.http, 'tkdee');
      const t = await mint(dee.token);
      h.t.now += 60_000;
      expectProblem(await h.http.get(`/v1/me/events?ticket=${encodeURIComponent(t.ticket)}`), 401, 'invalid-ticket');
      const fresh = await mint(dee.token);
      h.t.now += 59_000;
      const feed = eventSource(h.baseUrl(), `ticket=${encodeURIComponent(fresh.ticket)}`);
      expect(await feed.opened).toBe(200);
      await waitFor(() => feed.messages.length === 1, 'the snapshot');
      feed.close();
    });

    it("carries its token's scopes and life: a token without match:read gets none, a revoked one's ticket opens nothing", async () => {
      const eve = await registerPlayer(h.http, 'tkeve');
      const playOnly = (
        await h.http
          .post('/v1/me/tokens')
          .set(bearer(eve.token))
          .send({ scopes: ['match:play'] })
          .expect(201)
      ).body;
      expectProblem(await h.http.post('/v1/me/feed/tickets').set(bearer(playOnly.token)), 403, 'insufficient-scope');
      const reader = (
        await h.http
          .post('/v1/me/tokens')
          .set(bearer(eve.token))
          .send({ scopes: ['match:read'] })
          .expect(201)
      ).body;
      const t = await mint(reader.token);
      await h.http.delete(`/v1/me/tokens/${reader.tokenInfo.id}`).set(bearer(eve.token)).expect(204);
      expectProblem(await h.http.get(`/v1/me/events?ticket=${encodeURIComponent(t.ticket)}`), 401, 'invalid-token');
    });

    it('refuses with stable codes: no token, a seat token, an unknown ticket, a ticket with Authorization', async () => {
      const fay = await registerPlayer(h.http, 'tkfay');
      expectProblem(await h.http.post('/v1/me/feed/tickets'), 401, 'missing-token');
      expectProblem(await h.http.post('/v1/me/feed/tickets').set(bearer('not-a-player-token')), 401, 'invalid-token');
      expectProblem(await h.http.get('/v1/me/events?ticket=evt_nope'), 401, 'invalid-ticket');
      expectProblem(await h.http.get('/v1/me/events?ticket=nope'), 401, 'invalid-ticket');
      // A player token is no ticket.
      expectProblem(await h.http.get(`/v1/me/events?ticket=${encodeURIComponent(fay.token)}`), 401, 'invalid-ticket');
      const t = await mint(fay.token);
      expectProblem(
        await h.http.get(`/v1/me/events?ticket=${encodeURIComponent(t.ticket)}`).set(bearer(fay.token)),
        400,
        'validation-failed',
      );
    });
  });
}
