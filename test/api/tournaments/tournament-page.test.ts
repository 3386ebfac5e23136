/**
 * GET /tournament/{id} as HTTP on both databases (test/browser/tournament-page.test.ts loads it in
 * Chromium): a server-rendered page with no script under a CSP that allows none; the standings in
 * the API's order with their tiebreaks and the withdrawn marked, the crosstable, every round's
 * boards with their results, the bye, and a /watch/{matchId} link for every match; it reloads
 * itself only while the tournament can still change; the tournament's name and the handles (user
 * input) are escaped; an unknown or malformed id gets an HTML 404; ETag / 304 for the page and its
 * stylesheet; and the route is not in the OpenAPI document.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/http/watch/page.js';
import { StandingsSchema } from '../../../src/http/routes/tournaments.js';
import { backends, bearer, type RegisteredPlayer, registerPlayer, useHarness } from '../helpers.js';

const EVIL_NAME = '<script>alert(1)</script> "onmouseover=alert(2) \'x';
/** Handles the REST API would refuse; the store keeps what the service is given: the page must not trust them. */
const EVIL_HANDLES = ['<img src=x onerror=alert(3)>', '"onmouseover=alert(4)'];

const CORR = { kind: 'correspondence', daysPerMove: 3 };

type P = RegisteredPlayer;
/** Numbers the handles the service is given directly (past the REST checks). */
let n = 0;
interface Board {
  board: number;
  p1: string;
  p2: string | null;
  matchId: string | null;
  result: string | null;
  forfeit: boolean;
}
interface TView {
  status: string;
  round: number;
  rounds: number | null;
  roundEndsAt: string | null;
  pairings: { round: number; boards: Board[] }[];
}

/** The handles in the standings table, in order, still escaped; and which rows say withdrawn. */
function standingsRows(html: string): { handle: string; withdrawn: boolean; cells: string[] }[] {
  const table = /<table class="standings">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => {
    const row = m[1]!;
    const th = /<th scope="row">([\s\S]*?)<\/th>/.exec(row)![1]!;
    return {
      handle: th.replace(/ <span class="tag">withdrawn<\/span>$/, ''),
      withdrawn: th.includes('withdrawn'),
      cells: [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!),
    };
  });
}

/** Every board row of every round: [p1, result, p2, watch link or ''] as the HTML has them. */
function boardRows(html: string): { p1: string; result: string; p2: string; link: string | null }[] {
  const out: { p1: string; result: string; p2: string; link: string | null }[] = [];
  for (const t of html.matchAll(/<table class="boards">([\s\S]*?)<\/table>/g)) {
    const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(t[1]!)?.[1] ?? '';
    for (const r of body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)) {
      const c = [...r[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((x) => x[1]!);
      out.push({ p1: c[1]!, result: c[2]!, p2: c[3]!, link: /href="([^"]+)"/.exec(c[4]!)?.[1] ?? null });
    }
  }
  return out;
}

const resultText = (b: Board): string =>
  b.result === null
    ? 'playing'
    : b.result === 'bye'
      ? 'bye'
      : b.result === 'draw'
        ? '½–½'
        : b.result === 'double-forfeit'
          ? '0–0 (double forfeit)'
          : `${b.result === 'p1' ? '1–0' : '0–1'}${b.forfeit ? ' (forfeit)' : ''}`;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`the tournament page [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });

    const get = async (id: string) => (await h.http.get(`/v1/tournaments/${id}`).expect(200)).body as TView;
    const standings = async (id: string) => StandingsSchema.parse((await h.http.get(`/v1/tournaments/${id}/standings`).expect(200)).body);
    const page = async (id: string) => {
      const res = await h.http.get(`/tournament/${id}`).expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      return res.text;
    };

    /** The page shows what the API says: standings in order with points, every board, every watch link. */
    async function expectMatchesApi(id: string, html: string) {
      const [t, s] = await Promise.all([get(id), standings(id)]);
      const rows = standingsRows(html);
      expect(rows.map((r) => r.handle)).toEqual(s.standings.map((r) => escapeHtml(r.handle)));
      expect(rows.map((r) => r.withdrawn)).toEqual(s.standings.map((r) => r.withdrawn));
      // rank, points (½ as a glyph), DE, Bh, SB, games
      const half = (v: number) =>
        String(v)
          .replace(/^0\.5$/, '½')
          .replace(/\.5$/, '½');
      expect(rows.map((r) => [r.cells[0], r.cells[1], r.cells[5]])).toEqual(
        s.standings.map((r) => [String(r.rank), half(r.points), String(r.games)]),
      );
      expect(rows.map((r) => r.cells[3])).toEqual(s.standings.map((r) => half(r.buchholz)));
      // Newest round first, boards in order.
      const boards = [...t.pairings].sort((a, b) => b.round - a.round).flatMap((r) => r.boards);
      expect(boardRows(html)).toEqual(
        boards.map((b) => ({
          p1: escapeHtml(b.p1),
          result: escapeHtml(resultText(b)),
          p2: b.p2 === null ? '<span class="note">bye</span>' : escapeHtml(b.p2),
          link: b.matchId === null ? null : `/watch/${b.matchId}`,
        })),
      );
      // Every match's watch page is there.
      for (const b of boards) if (b.matchId) await h.http.get(`/watch/${b.matchId}`).expect(200);
      // The crosstable lists the players in standings order.
      const cross = /<table class="crosstable">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
      expect([...cross.matchAll(/<th scope="row">([\s\S]*?)<\/th>/g)].map((m) => m[1])).toEqual(s.crosstable!.players.map(escapeHtml));
      return { t, s };
    }

    describe('a Swiss of 5 over 3 rounds, with a hostile name and hostile handles', () => {
      let id: string;
      let ps: P[];
      let org: P;

      async function playRound(loser: (b: Board) => 'p1' | 'p2' = () => 'p2') {
        const t = await get(id);
        const round = t.pairings.find((r) => r.round === t.round)!;
        const token = new Map(ps.map((p) => [p.handle, p.token]));
        for (const b of round.boards) {
          if (b.matchId === null || b.result !== null) continue;
          const who = loser(b) === 'p1' ? b.p1 : b.p2!;
          await h.http
            .post(`/v1/matches/${b.matchId}/actions`)
            .set(bearer(token.get(who)!))
            .send({ action: { type: 'resign' } })
            .expect(200);
        }
        await h.app.service.tournaments.sweep();
      }

      beforeAll(async () => {
        org = await registerPlayer(h.http, 'org');
        const normal = await Promise.all([1, 2, 3].map(() => registerPlayer(h.http, 'sw')));
        const evil = [];
        for (const handle of EVIL_HANDLES) {
          const r = await h.app.service.players.register({ handle: `${handle}${++n}` });
          evil.push({ handle: r.player.handle, token: r.token });
        }
        ps = [...normal, ...evil];
        const created = await h.http
          .post('/v1/tournaments')
          .set(bearer(org.token))
          .send({ name: EVIL_NAME, format: 'swiss', rounds: 3, timeControl: CORR, roundHours: 72 })
          .expect(201);
        id = created.body.id as string;
        for (const p of ps) await h.http.post(`/v1/tournaments/${id}/join`).set(bearer(p.token)).send({}).expect(200);
      });

      it('before the start: the players, no rounds yet, and a reload', async () => {
        const html = await page(id);
        expect(html).toContain('<meta http-equiv="refresh" content="60">');
        expect(html).toContain('Open for entries');
        expect(html).toContain('No round has started yet.');
        expect(standingsRows(html)).toHaveLength(5);
      });

      it('while it runs: round n of N with its deadline, the standings so far, every board with its watch link and the bye', async () => {
        await h.http.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({}).expect(200);
        // Half of round 1 decided: a finished board shows its result, the others "playing".
        const t1 = await get(id);
        const first = t1.pairings[0]!.boards.find((b) => b.matchId !== null)!;
        const loser = ps.find((p) => p.handle === first.p2)!;
        await h.http
          .post(`/v1/matches/${first.matchId}/actions`)
          .set(bearer(loser.token))
          .send({ action: { type: 'resign' } })
          .expect(200);
        await h.app.service.tournaments.sweep();

        const html = await page(id);
        const { t } = await expectMatchesApi(id, html);
        expect(t).toMatchObject({ status: 'running', round: 1, rounds: 3 });
        expect(html).toMatch(
          /<p id="status" class="status" role="status">Round 1 of 3; the round ends <time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time><\/p>/,
        );
        expect(html).toContain(`datetime="${t.roundEndsAt}"`);
        expect(html).toContain('<meta http-equiv="refresh" content="60">');
        const rows = boardRows(html);
        expect(rows.filter((r) => r.result === 'bye')).toHaveLength(1);
        expect(rows.filter((r) => r.result === 'playing')).toHaveLength(1);
        expect(rows.filter((r) => r.result === '1–0')).toHaveLength(1);
        expect(rows.filter((r) => r.link !== null)).toHaveLength(2);
        // The facts: game, format, time control, organizer.
        expect(html).toContain('<dt>Game</dt><dd>Evons</dd>');
        expect(html).toContain('<dt>Format</dt><dd>Swiss</dd>');
        expect(html).toContain('<dt>Time control</dt><dd>Correspondence, 3 days per move</dd>');
        expect(html).toContain(`<dt>Organizer</dt><dd>${org.handle}</dd>`);
      });

      it('once finished: the final standings (the withdrawn marked), every round, no reload', async () => {
        await playRound();
        const gone = ps[0]!;
        await h.http.post(`/v1/tournaments/${id}/withdraw`).set(bearer(gone.token)).send({}).expect(200);
        await playRound((b) => (b.p1 === gone.handle ? 'p1' : 'p2'));
        await playRound();
        const html = await page(id);
        const { t, s } = await expectMatchesApi(id, html);
        expect(t.status).toBe('finished');
        expect(s.final).toBe(true);
        expect(html).not.toContain('http-equiv="refresh"');
        expect(html).toContain('Final standings');
        expect(html).toMatch(/Finished after 3 rounds on <time/);
        expect(standingsRows(html).find((r) => r.handle === gone.handle)?.withdrawn).toBe(true);
        const rows = boardRows(html);
        expect(rows.filter((r) => r.link !== null)).toHaveLength(
          t.pairings.flatMap((r) => r.boards).filter((b) => b.matchId !== null).length,
        );
        expect(rows.filter((r) => r.result === 'bye').length).toBeGreaterThanOrEqual(2);
        expect(rows.every((r) => r.result !== 'playing')).toBe(true);
      });

      it('escapes the name and the handles everywhere', async () => {
        const html = await page(id);
        expect(html).not.toContain('<script');
        expect(html).not.toContain('"onmouseover');
        expect(html).not.toContain('<img');
        expect(html).toContain(`<h1 id="title">${escapeHtml(EVIL_NAME)}</h1>`);
        expect(html).toContain(`<title>${escapeHtml(EVIL_NAME)} · Evons tournament</title>`);
        for (const e of EVIL_HANDLES) expect(html).toContain(escapeHtml(e));
      });

      it('answers a reload with the same content with 304, and a change with a new tag', async () => {
        const res = await h.http.get(`/tournament/${id}`).expect(200);
        const etag = res.headers.etag as string;
        expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
        expect(res.headers['cache-control']).toBe('no-cache');
        const again = await h.http.get(`/tournament/${id}`).set('if-none-match', etag).expect(304);
        expect(again.headers['content-security-policy']).toBeDefined();
        expect(again.text).toBe('');
      });
    });

    it('a round robin under way: round n of N, no deadline, and the page changes (new ETag) when a match ends', async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await Promise.all([1, 2, 3, 4].map(() => registerPlayer(h.http, 'rr')));
      const { id } = (
        await h.http
          .post('/v1/tournaments')
          .set(bearer(org.token))
          .send({ name: 'Winter round robin', format: 'round-robin', timeControl: CORR })
          .expect(201)
      ).body as { id: string };
      for (const p of ps) await h.http.post(`/v1/tournaments/${id}/join`).set(bearer(p.token)).send({}).expect(200);
      await h.http.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({}).expect(200);
      const before = await h.http.get(`/tournament/${id}`).expect(200);
      expect(before.text).toContain('Round 1 of 3; the round lasts until its matches end');
      expect(before.text).toContain('<dt>Format</dt><dd>Round robin</dd>');
      await expectMatchesApi(id, before.text);
      const b = (await get(id)).pairings[0]!.boards[0]!;
      const loser = ps.find((p) => p.handle === b.p1)!;
      await h.http
        .post(`/v1/matches/${b.matchId}/actions`)
        .set(bearer(loser.token))
        .send({ action: { type: 'resign' } })
        .expect(200);
      await h.app.service.tournaments.sweep();
      const after = await h.http
        .get(`/tournament/${id}`)
        .set('if-none-match', before.headers.etag as string)
        .expect(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(boardRows(after.text).find((r) => r.p1 === b.p1)?.result).toBe('0–1');
      await expectMatchesApi(id, after.text);
    });

    it('sends a strict CSP (no script at all), nosniff and no-referrer, and links only its own stylesheet', async () => {
      const org = await registerPlayer(h.http, 'org');
      const { id } = (
        await h.http
          .post('/v1/tournaments')
          .set(bearer(org.token))
          .send({ name: 'Headers', format: 'swiss', rounds: 2, timeControl: CORR })
          .expect(201)
      ).body as { id: string };
      const res = await h.http.get(`/tournament/${id}`).expect(200);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('script-src');
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.text).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
      expect(res.text).toContain('Nobody has entered yet.');
      const linked = [...res.text.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]!);
      expect(linked).toHaveLength(1);
      expect(linked[0]).toMatch(/^\/tournament\/assets\/tournament\.css\?v=[0-9a-f]{12}$/);
      const css = await h.http.get(linked[0]!).expect(200);
      expect(css.headers['content-type']).toMatch(/^text\/css/);
      expect(css.headers['x-content-type-options']).toBe('nosniff');
      await h.http
        .get(linked[0]!)
        .set('if-none-match', css.headers.etag as string)
        .expect(304);
      for (const path of ['/tournament/assets/watch.css', '/tournament/assets/page.ts', '/tournament/assets/..%2Fpage.ts']) {
        const missing = await h.http.get(path).expect(404);
        expect(missing.headers['content-type'], path).toMatch(/^application\/problem\+json/);
      }
    });

    it('answers an unknown or malformed id with an HTML 404 page under the same CSP, escaping the id', async () => {
      for (const path of [
        '/tournament/tn_AAAAAAAAAAAAAAAA',
        '/tournament/no-such',
        '/tournament/a.b',
        `/tournament/${encodeURIComponent('<script>alert(1)</script>')}`,
        `/tournament/${'x'.repeat(100)}`,
      ]) {
        const res = await h.http.get(path).expect(404);
        expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.text).toContain('No such tournament');
        expect(res.text).not.toContain('<script>');
      }
    });

    it('is not in the OpenAPI document (an HTML page, like /watch)', async () => {
      const doc = (await h.http.get('/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/tournament/') || p.startsWith('/tournament{'))).toEqual([]);
    });
  });
}
