/**
 * A player's whole history as NDJSON (issue 10): GET /v1/players/{handle}/matches/export streams one
 * match summary per line, newest first, across store pages; with ?events=true each line is the
 * match's public record (its spectator replay file), and a finished one verifies. Both databases.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyReplay } from '../../../src/replay/verify.js';
import { backends, bearer, expectProblem, STARTERS, useHarness } from '../helpers.js';

const DECKS = { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } };
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`player history export [${backend.name}]`, () => {
    const h = useHarness(backend);
    const handle = `exporter-${Math.random().toString(36).slice(2, 7)}`;
    const ids: string[] = [];
    beforeAll(async () => {
      const reg = await h.http.post('/v1/players').send({ handle }).expect(201);
      // More than one store page (100), so the stream has to page.
      for (let i = 0; i < 105; i++) {
        const c = await h.http
          .post('/v1/matches')
          .set(bearer(reg.body.token))
          .send({ decks: DECKS, opponentHandle: `opp${i}` })
          .expect(201);
        ids.push(c.body.id);
        if (i < 2)
          await h.http
            .post(`/v1/matches/${c.body.id}/actions`)
            .set(bearer(reg.body.token))
            .send({ action: { type: 'resign' } })
            .expect(200);
      }
    });

    it('streams every match summary, newest first, as NDJSON', async () => {
      const res = await h.http
        .get(`/v1/players/${handle}/matches/export`)
        .buffer(true)
        .parse((r, done) => {
          let t = '';
          r.on('data', (c: Buffer) => (t += c.toString()));
          r.on('end', () => done(null, t));
        });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const got = lines(res.body as string);
      expect(got.map((m) => m.id)).toEqual([...ids].reverse());
      expect(got.every((m) => (m.seats as { verified: boolean }[])[0]!.verified)).toBe(true);
    });

    it('with ?events=true each line is the public record, 20 per answer with a Link to the rest; a finished one verifies', async () => {
      const files: Record<string, unknown>[] = [];
      let next: string | null = `/v1/players/${handle}/matches/export?events=true`;
      let answers = 0;
      while (next) {
        const res = await h.http
          .get(next)
          .buffer(true)
          .parse((r, done) => {
            let t = '';
            r.on('data', (c: Buffer) => (t += c.toString()));
            r.on('end', () => done(null, t));
          });
        expect(res.status).toBe(200);
        const part = lines(res.body as string);
        expect(part.length).toBeLessThanOrEqual(20);
        files.push(...part);
        answers++;
        const link = res.headers.link as string | undefined;
        next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
      }
      expect(answers).toBe(6);
      // No file twice across the parts (each opponent's handle is different).
      expect(new Set(files.map((f) => JSON.stringify(f))).size).toBe(105);
      expect(files).toHaveLength(105);
      expect(files.every((f) => f.format === 'match-replay/1' && f.reader === 'spectator')).toBe(true);
      const finished = files.filter((f) => f.outcome !== null);
      expect(finished).toHaveLength(2);
      for (const f of finished) expect(verifyReplay(f).ok).toBe(true);
      // A running match's record keeps its secrets.
      expect(files.find((f) => f.outcome === null)!.seed).toBeNull();
    });

    it('a cursor it did not issue is a 400 invalid-cursor', async () => {
      expectProblem(await h.http.get(`/v1/players/${handle}/matches/export?events=true&cursor=nonsense`), 400, 'invalid-cursor');
    });

    it('an unknown player is a 404, before any line', async () => {
      expectProblem(await h.http.get('/v1/players/nobody-here-123/matches/export'), 404, 'player-not-found');
    });
  });
}
