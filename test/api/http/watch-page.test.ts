/**
 * GET /watch/{id} as HTTP (the browser suite, test/browser/watch.test.ts, runs the script): the
 * page and its 404 are HTML with a Content-Security-Policy that allows script from this origin
 * only; the link-preview tags point at the match's board.png by an absolute URL and describe the
 * position in each game's terms (its module's `watch.preview`); everything from the match (handles
 * are user input) is escaped; the assets it links, and the match's game's own script, are served;
 * a game this server does not host gets no game script; and the route is not in the OpenAPI
 * document (HTML, like /docs).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GAME_IDS, GAME_MODULES } from '../../../src/games/registry.js';
import { escapeHtml, watchPage } from '../../../src/http/watch/page.js';
import type { MatchView } from '../../../src/service/match/types.js';
import { createHotSeat, useHarness, pglite } from '../helpers.js';

const EVIL = '<img src=x onerror=alert(1)>';

/** The content of `<meta property="NAME" content="…">`, still escaped. */
function meta(html: string, property: string): string | undefined {
  return new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1];
}

describe('the watch page over HTTP', () => {
  const h = useHarness(pglite);
  let id: string;
  beforeAll(async () => {
    id = (await createHotSeat(h.http)).id;
  });

  it('is HTML with a CSP allowing script from this origin only, and link-preview tags for the position', async () => {
    const res = await h.http.get(`/watch/${id}`).set('host', 'watch.example:8080').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const html = res.text;
    expect(meta(html, 'og:image')).toBe(`http://watch.example:8080/v1/matches/${id}/board.png`);
    expect(meta(html, 'og:title')).toBe('alice vs bob · Evons');
    expect(meta(html, 'og:description')).toMatch(/^Turn 1 · alice 0 – 0 bob · (alice|bob) to move\.$/);
    expect(html).toContain(`data-match="${id}"`);
    expect(html).toContain('data-game="evons"');
    // No inline script: the CSP would block it.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it("describes a UniVersus match in UniVersus' terms: turn, health, whose decision", async () => {
    const decks = (await h.http.get('/v1/games/universus/decks').expect(200)).body.decks as { id: string }[];
    const m = await createHotSeat(h.http, {
      game: 'universus',
      decks: { p1: { starter: decks[0]!.id }, p2: { starter: (decks[1] ?? decks[0])!.id } },
    });
    const html = (await h.http.get(`/watch/${m.id}`).expect(200)).text;
    expect(meta(html, 'og:title')).toBe('alice vs bob · UniVersus');
    expect(meta(html, 'og:description')).toMatch(/^Turn 1 · alice \d+ health – \d+ health bob · (alice|bob) to move\.$/);
    expect(html).toContain('data-game="universus"');
    expect(html).toMatch(/data-game-script="\/watch\/games\/universus\.js\?v=[0-9a-f]{12}"/);
  });

  it('describes an open seat as waiting', async () => {
    const open = await h.http
      .post('/v1/matches')
      .send({ handle: 'carol', openSeat: true, decks: { p1: { starter: 'starter-verdant-quake' } } })
      .expect(201);
    const html = (await h.http.get(`/watch/${open.body.id}`).expect(200)).text;
    expect(meta(html, 'og:title')).toBe('carol vs open seat · Evons');
    expect(meta(html, 'og:description')).toBe('Evons match waiting for a second player.');
  });

  it('points the preview at ?at= when the link has a valid one, and ignores a bad one', async () => {
    const at = (html: string) => meta(html, 'og:image')?.replace(/^.*board\.png/, '');
    expect(at((await h.http.get(`/watch/${id}?at=3`).expect(200)).text)).toBe('?at=3');
    for (const bad of ['0', '99999', 'abc', '-1', '1e3']) {
      expect(at((await h.http.get(`/watch/${id}?at=${bad}`).expect(200)).text), bad).toBe('');
    }
  });

  it('answers an unknown or malformed id with a 404 page, escaping the id', async () => {
    for (const path of ['/watch/no-such-match', '/watch/a.b', `/watch/${encodeURIComponent('<script>alert(1)</script>')}`]) {
      const res = await h.http.get(path).expect(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.text).toContain('No such match');
      expect(res.text).not.toContain('<script>');
    }
  });

  it('escapes handles (user input) in the HTML: a handle the API would refuse, stored as it is', async () => {
    // The REST API refuses such a handle; the store keeps what it is given: the page must not trust it.
    const created = await h.app.service.createMatch({
      handle: EVIL,
      opponentHandle: '"><script>alert(2)</script>',
      decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } },
    });
    const html = (await h.http.get(`/watch/${created.id}`).expect(200)).text;
    expect(html).not.toContain(EVIL);
    expect(html).not.toContain('<script>alert(2)');
    expect(meta(html, 'og:title')).toBe(escapeHtml(`${EVIL} vs "><script>alert(2)</script> · Evons`));
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('does not put a forged Host header into its links', async () => {
    const html = (await h.http.get(`/watch/${id}`).set('host', 'evil"><script>x</script>').expect(200)).text;
    expect(meta(html, 'og:image')).toBe(`http://localhost/v1/matches/${id}/board.png`);
  });

  it('serves the script modules and stylesheet it links, with ETags, and nothing else under /watch/assets', async () => {
    const html = (await h.http.get(`/watch/${id}`).expect(200)).text;
    const linked = [...html.matchAll(/(?:src|href)="(\/watch\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(linked.map((u) => u.replace(/\?v=[0-9a-f]{12}$/, ''))).toEqual(['/watch/assets/watch.css', '/watch/assets/watch.js']);
    for (const url of [...linked, '/watch/assets/words.js']) {
      const res = await h.http.get(url).expect(200);
      expect(res.headers['content-type']).toMatch(url.includes('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      await h.http
        .get(url)
        .set('if-none-match', res.headers.etag as string)
        .expect(304);
    }
    const missing = await h.http.get('/watch/assets/server.ts').expect(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it("links the match's game's own script, served from /watch/games with ETags as the file its module names", async () => {
    const html = (await h.http.get(`/watch/${id}`).expect(200)).text;
    const linked = /data-game-script="([^"]+)"/.exec(html)?.[1];
    expect(linked).toMatch(/^\/watch\/games\/evons\.js\?v=[0-9a-f]{12}$/);
    for (const game of GAME_IDS) {
      const url = game === 'evons' ? linked! : `/watch/games/${game}.js`;
      const res = await h.http.get(url).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('public, no-cache');
      expect(res.text, game).toBe(readFileSync(GAME_MODULES[game].watch.script, 'utf8'));
      await h.http
        .get(url)
        .set('if-none-match', res.headers.etag as string)
        .expect(304);
    }
    for (const path of ['/watch/games/chess.js', '/watch/games/evons', '/watch/games/watch.js']) {
      const missing = await h.http.get(path).expect(404);
      expect(missing.headers['content-type'], path).toMatch(/^application\/problem\+json/);
    }
  });

  it('gives a match of a game this server does not host no game script, and names the game by its id', () => {
    const view = {
      id: 'm1',
      gameId: 'chess',
      status: 'active',
      version: 3,
      seats: [
        { seat: 'p1', handle: 'ann' },
        { seat: 'p2', handle: 'ben' },
      ],
      game: {},
      outcome: null,
    };
    const html = watchPage({
      view: view as unknown as MatchView,
      origin: 'http://x',
      at: null,
      assets: { js: '/a.js', css: '/a.css', game: null },
    });
    expect(html).toContain('data-game="chess"');
    expect(html).not.toContain('data-game-script');
    expect(meta(html, 'og:title')).toBe('ann vs ben · chess');
    expect(meta(html, 'og:description')).toBe('Match of the game chess.');
  });

  it('is not in the OpenAPI document (an HTML page, like /docs)', async () => {
    const doc = (await h.http.get('/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/watch'))).toEqual([]);
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });
});
