/**
 * The watch page (GET /watch/{id}) in a real browser: Debian's Chromium driven by playwright-core,
 * on the real app listening on a free port, with matches this test plays through the HTTP API.
 * - the page shows the position: players, scores, whose move, the move list, and the board
 *   picture (board.svg, its <title>/<desc> as the alt text);
 * - a move made through the API reaches the page over the event stream within a second;
 * - stepping back (arrow keys, Home, the slider) shows an earlier position, and ?at= in the
 *   address opens one;
 * - a seat token typed into the page shows that seat's hand (the spectator view has none), is
 *   sent as Authorization for the picture too, and never lands in the URL or storage;
 * - no horizontal scrolling of the page on a 375 px wide screen (also with 32-character handles):
 *   only the board scrolls sideways, inside its own box (readable-pictures.test.ts);
 * - clocks, the running one ticking; an open seat waiting, then joined live;
 * - a handle like `<img src=x onerror=alert(1)>` is shown as text;
 * - UniVersus matches work the same way; a game the page has no script for gets a message, not
 *   another game's layout.
 * Every page fails its test on a script error, a dialog or a CSP violation.
 * A screenshot goes to $ARTIFACTS_DIR (else test-artifacts/). Skips, saying so, only when no
 * Chromium is installed and CI is not set.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, browserSkipReason, call, createMatch, launchChromium, playOne, serve, type Match, type Served } from './fixture.js';

const skip = browserSkipReason();
if (skip) console.warn(`[browser tests] skipping the watch page suite: ${skip}`);

interface View {
  version: number;
  seat: string | null;
  game: {
    first?: string;
    seats?: Record<string, { handCount: number; hand: { name: string }[] | null; score: number }>;
    players?: Record<string, { handCount: number; hand: { card: string }[] | null; health: number }>;
  } | null;
}

/** What the page shows right now, as the reader sees it. */
async function shown(page: Page) {
  return page.evaluate(() => {
    const main = document.getElementById('main') as HTMLElement;
    const facts = (seat: string) => {
      const out: Record<string, string> = {};
      const dl = document.querySelector(`.player[data-seat="${seat}"] dl`);
      const dts = dl ? [...dl.querySelectorAll('dt')] : [];
      for (const dt of dts) out[dt.textContent ?? ''] = dt.nextElementSibling?.textContent ?? '';
      return out;
    };
    return {
      version: Number(main.dataset.version),
      viewer: main.dataset.viewer,
      status: document.getElementById('status')?.textContent ?? '',
      p1: facts('p1'),
      p2: facts('p2'),
      moves: [...document.querySelectorAll('#moves .text')].map((n) => n.textContent ?? ''),
      hand: (document.getElementById('hand-box') as HTMLElement).hidden
        ? null
        : [...document.querySelectorAll('#hand li')].map((n) => n.textContent ?? ''),
      position: document.getElementById('position')?.textContent ?? '',
    };
  });
}

/** Waits until the page shows version `v` (view and picture both read for it). */
async function waitForVersion(page: Page, v: number, timeout = 10_000): Promise<void> {
  await page.waitForSelector(`main[data-version="${v}"]`, { timeout });
}

/** The board picture is shown and decoded, and describes the position in words. */
async function expectPicture(page: Page): Promise<string> {
  const img = page.locator('#board');
  await img.waitFor({ state: 'visible', timeout: 10_000 });
  const { natural, alt, src } = await img.evaluate((n: HTMLImageElement) =>
    n.decode().then(() => ({ natural: n.naturalWidth, alt: n.alt, src: n.src })),
  );
  expect(natural).toBeGreaterThan(0);
  expect(src).toMatch(/^blob:/);
  expect(alt.length).toBeGreaterThan(10);
  return alt;
}

describe.skipIf(skip !== null)('the watch page in Chromium', () => {
  let served: Served;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    served = await serve();
    base = served.url;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  /**
   * A fresh page that fails the test on any script error, dialog or CSP violation. `before` runs
   * before the page loads (listeners that must not miss the first requests).
   */
  async function openPage(
    url: string,
    viewport = { width: 1280, height: 900 },
    before?: (page: Page) => void,
  ): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    before?.(page);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
    });
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    return { page, context, problems };
  }

  describe('an Evons match', () => {
    let m: Match;
    let version: number;
    beforeAll(async () => {
      m = await createMatch(base, 'evons');
      for (let i = 0; i < 6; i++) version = await playOne(base, m, (n) => (n > 2 ? 1 : 0));
    });

    it('shows the position, follows a move made through the API live, and steps back through the history', async () => {
      const { page, context, problems } = await openPage(`${base}/watch/${m.id}`);
      try {
        await waitForVersion(page, version);
        const api = await call<View>(base, `/v1/matches/${m.id}`);
        let s = await shown(page);
        expect(s.viewer).toBe('spectator');
        expect(s.status).toMatch(/^Turn \d+\. (alice|bob) to move/);
        expect(s.p1.Score).toBe(String(api.game!.seats!.p1!.score));
        expect(s.p1.Hand).toBe(String(api.game!.seats!.p1!.handCount));
        expect(s.p2.Hand).toBe(String(api.game!.seats!.p2!.handCount));
        const first = api.game!.first === 'p1' ? 'alice' : 'bob';
        expect(s.moves.at(-1)).toBe(`Cards dealt; ${first} goes first`);
        expect(s.moves).toContain(`Turn 1: ${first}`);
        expect(s.moves.some((t) => new RegExp(`^${first} plays a card covered on [A-Y]\\d$`).test(t))).toBe(true);
        const liveAlt = await expectPicture(page);
        await page.screenshot({ path: screenshotPath('watch-evons-desktop.png'), fullPage: true });

        // A move through the API: the stream brings it; no reload, no polling.
        await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
        const movesBefore = s.moves.length;
        const after = await playOne(base, m);
        await page.waitForFunction((n) => document.querySelectorAll('#moves .text').length > n, movesBefore, { timeout: 1_000 });
        await waitForVersion(page, after);
        expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);
        s = await shown(page);
        expect(s.position).toBe(`Live · event ${after}`);

        // One event back with the arrow key: ?at= in the address, the earlier version shown.
        await page.keyboard.press('ArrowLeft');
        await waitForVersion(page, after - 1);
        expect(new URL(page.url()).searchParams.get('at')).toBe(String(after - 1));
        expect((await shown(page)).position).toBe(`Event ${after - 1} of ${after}`);

        // Back to the deal (Home): nobody has played a card, and the picture says another position.
        await page.keyboard.press('Home');
        await waitForVersion(page, 1);
        s = await shown(page);
        const atOne = await call<View>(base, `/v1/matches/${m.id}?at=1`);
        expect(s.p1.Hand).toBe(String(atOne.game!.seats!.p1!.handCount));
        expect(s.p1.Hand).not.toBe(String(api.game!.seats!.p1!.handCount));
        expect(await expectPicture(page)).not.toBe(liveAlt);
        expect(await page.locator('#moves li.future').count()).toBeGreaterThan(0);

        // The slider, then End: live again, the address without ?at=.
        await page.locator('#slider').fill(String(version));
        await waitForVersion(page, version);
        await page.keyboard.press('End');
        await waitForVersion(page, after);
        expect(new URL(page.url()).searchParams.has('at')).toBe(false);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('opens the position a ?at= link names', async () => {
      const { page, context, problems } = await openPage(`${base}/watch/${m.id}?at=12`);
      try {
        await waitForVersion(page, 12);
        expect((await shown(page)).position).toMatch(/^Event 12 of \d+$/);
        await expectPicture(page);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it("shows a seat's hand with its token (the spectator view has none), keeping the token out of the URL and storage", async () => {
      const pictures: (string | undefined)[] = [];
      // Listening before the page loads: its first picture may be asked for before goto returns.
      const { page, context, problems } = await openPage(`${base}/watch/${m.id}`, undefined, (p) =>
        p.on('request', (r) => {
          if (r.url().includes('/board.svg')) pictures.push(r.headers().authorization);
        }),
      );
      try {
        const v = (await call<View>(base, `/v1/matches/${m.id}`)).version;
        await waitForVersion(page, v);
        expect((await shown(page)).hand).toBeNull();
        // The picture is fetched after the view is shown: wait for it before counting requests.
        await expectPicture(page);
        expect(pictures.length).toBeGreaterThan(0);
        expect(pictures.every((a) => a === undefined)).toBe(true);

        // A wrong token changes nothing.
        await page.fill('#token', 'not-a-token');
        await page.click('#seat-form button[type=submit]');
        await page.waitForFunction(() => /not a seat/.test(document.getElementById('viewer')?.textContent ?? ''));
        expect((await shown(page)).viewer).toBe('spectator');

        await page.fill('#token', m.tokens.p1);
        const seatPicture = page.waitForRequest(
          (r) => r.url().includes('/board.svg') && r.headers().authorization === `Bearer ${m.tokens.p1}`,
          { timeout: 10_000 },
        );
        await page.click('#seat-form button[type=submit]');
        await page.waitForSelector('main[data-viewer="p1"]');
        await seatPicture;
        const mine = await call<View>(base, `/v1/matches/${m.id}`, { token: m.tokens.p1 });
        const s = await shown(page);
        expect(s.hand).toEqual(mine.game!.seats!.p1!.hand!.map((c) => c.name));
        expect(s.hand!.length).toBe(mine.game!.seats!.p1!.handCount);
        expect(pictures.at(-1)).toBe(`Bearer ${m.tokens.p1}`);
        await expectPicture(page);
        await page.screenshot({ path: screenshotPath('watch-evons-seat.png'), fullPage: true });

        // The token is nowhere but in the script's memory.
        const kept = await page.evaluate(() => ({
          url: location.href,
          local: JSON.stringify({ ...localStorage }),
          session: JSON.stringify({ ...sessionStorage }),
          cookie: document.cookie,
          field: (document.getElementById('token') as HTMLInputElement).value,
        }));
        expect(JSON.stringify(kept)).not.toContain(m.tokens.p1);

        await page.click('#spectate');
        await page.waitForSelector('main[data-viewer="spectator"]');
        expect((await shown(page)).hand).toBeNull();
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('fits a 375 px wide screen without horizontal scrolling, as a spectator and as a seat', async () => {
      const { page, context, problems } = await openPage(`${base}/watch/${m.id}`, { width: 375, height: 812 });
      try {
        const v = (await call<View>(base, `/v1/matches/${m.id}`)).version;
        await waitForVersion(page, v);
        const overflow = () =>
          page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        let o = await overflow();
        expect(o.scroll).toBeLessThanOrEqual(o.client);
        await page.fill('#token', m.tokens.p2);
        await page.click('#seat-form button[type=submit]');
        await page.waitForSelector('main[data-viewer="p2"]');
        o = await overflow();
        expect(o.scroll).toBeLessThanOrEqual(o.client);
        // The board keeps its card text readable: wider than the screen, it scrolls inside its own box.
        const box = await page.locator('section.board figure').boundingBox();
        expect(box!.width).toBeLessThanOrEqual(375);
        expect(await page.locator('section.board figure').evaluate((f) => f.scrollWidth > f.clientWidth)).toBe(true);
        await page.screenshot({ path: screenshotPath('watch-evons-375.png'), fullPage: true });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });

  it('fits a 375 px wide screen with the longest handles the API takes', async () => {
    const m = await createMatch(base, 'evons', { handle: 'W'.repeat(32), opponentHandle: 'M'.repeat(32) });
    const version = await playOne(base, m);
    const { page, context, problems } = await openPage(`${base}/watch/${m.id}`, { width: 375, height: 812 });
    try {
      await waitForVersion(page, version);
      const o = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(o.client).toBe(375);
      expect(o.scroll).toBeLessThanOrEqual(o.client);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows an open seat as waiting, and the deal as soon as someone joins', async () => {
    const created = await call<{ id: string; version: number }>(base, '/v1/matches', {
      method: 'POST',
      body: { handle: 'alice', openSeat: true, decks: { p1: { starter: 'starter-verdant-quake' } } },
    });
    const { page, context, problems } = await openPage(`${base}/watch/${created.id}`);
    try {
      await waitForVersion(page, created.version);
      expect((await shown(page)).status).toBe('Waiting for a second player to join.');
      const joined = await call<{ version: number }>(base, `/v1/matches/${created.id}/join`, {
        method: 'POST',
        body: { handle: 'bob', deck: { starter: 'starter-ember-tide' } },
      });
      await waitForVersion(page, joined.version);
      const s = await shown(page);
      expect(s.status).toMatch(/^Turn 1\. (alice|bob) to move/);
      expect(await page.textContent('.player[data-seat="p2"] .handle')).toBe('bob');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows a live match's clocks, the running one counting down", async () => {
    const m = await createMatch(base, 'evons', { timeControl: { kind: 'live', initialSeconds: 600, incrementSeconds: 5 } });
    const version = await playOne(base, m);
    const { page, context, problems } = await openPage(`${base}/watch/${m.id}`);
    try {
      await waitForVersion(page, version);
      const api = await call<{ clock: { running: string; remainingMs: Record<string, number> } }>(base, `/v1/matches/${m.id}`);
      const idle = api.clock.running === 'p1' ? 'p2' : 'p1';
      const clock = (seat: string) => page.textContent(`dd.clock[data-seat="${seat}"]`);
      const idleText = await clock(idle);
      const seconds = Math.floor(api.clock.remainingMs[idle]! / 1000);
      expect(idleText).toBe(`${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`);
      const runningText = await clock(api.clock.running);
      expect(runningText).toMatch(/^\d+:\d\d$/);
      // The page ticks the running clock itself between reads; the idle one stands still.
      await page.waitForFunction(([seat, before]) => document.querySelector(`dd.clock[data-seat="${seat}"]`)?.textContent !== before, [
        api.clock.running,
        runningText,
      ] as const);
      expect(await clock(idle)).toBe(idleText);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows a handle like <img src=x onerror=alert(1)> as text', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const other = '"><script>window.pwned=1</script>';
    // The REST API refuses such handles; the service below it stores what it gets.
    const created = await served.app.service.createMatch({
      handle: evil,
      opponentHandle: other,
      decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } },
    });
    const { page, context, problems } = await openPage(`${base}/watch/${created.id}`);
    try {
      await waitForVersion(page, created.version);
      expect(await page.textContent('#title')).toBe(`${evil} vs ${other}`);
      expect(await page.textContent('.player[data-seat="p1"] .handle')).toBe(evil);
      const first = (await call<{ game: { first: string } }>(base, `/v1/matches/${created.id}`)).game.first;
      expect((await shown(page)).moves).toContain(`Turn 1: ${first === 'p1' ? evil : other}`);
      expect(await page.title()).toBe(`${evil} vs ${other} · Evons`);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows a UniVersus match: health, the move list, live moves, and the seat hand', async () => {
    const m = await createMatch(base, 'universus');
    let version = 0;
    for (let i = 0; i < 3; i++) version = await playOne(base, m);
    const { page, context, problems } = await openPage(`${base}/watch/${m.id}`);
    try {
      await waitForVersion(page, version);
      const api = await call<View>(base, `/v1/matches/${m.id}`);
      let s = await shown(page);
      expect(s.p1.Health).toBe(String(api.game!.players!.p1!.health));
      expect(s.p2.Health).toBe(String(api.game!.players!.p2!.health));
      expect(s.moves.some((t) => /^(alice|bob) tries to play .+ \(difficulty \d+\)$/.test(t))).toBe(true);
      await expectPicture(page);
      const after = await playOne(base, m);
      await waitForVersion(page, after);
      await page.fill('#token', m.tokens.p1);
      await page.click('#seat-form button[type=submit]');
      await page.waitForSelector('main[data-viewer="p1"]');
      s = await shown(page);
      const mine = await call<View>(base, `/v1/matches/${m.id}`, { token: m.tokens.p1 });
      expect(s.hand!.length).toBe(mine.game!.players!.p1!.handCount);
      await page.screenshot({ path: screenshotPath('watch-universus.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  describe('a game it cannot show', () => {
    /** The page of an Evons match, its HTML or the game script's answer changed by `route` first. */
    async function open(route: (page: Page, id: string) => Promise<unknown>) {
      const m = await createMatch(base, 'evons');
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await route(page, m.id);
      expect((await page.goto(`${base}/watch/${m.id}`))?.status()).toBe(200);
      await page.waitForSelector('#connection[data-state="failed"]');
      const s = await shown(page);
      // Nothing of Evons' layout: no seat facts, no moves, no turn line.
      expect([s.p1, s.p2, s.moves]).toEqual([{}, {}, []]);
      expect(await page.isHidden('#seat-form')).toBe(true);
      expect(errors).toEqual([]);
      return { context, status: s.status };
    }

    it("says so when the server has no script for the match's game", async () => {
      const { context, status } = await open((page, id) =>
        page.route(`**/watch/${id}`, async (r) => {
          const res = await r.fetch();
          const html = (await res.text()).replace(/ data-game-script="[^"]*"/, '').replace('data-game="evons"', 'data-game="chess"');
          await r.fulfill({ response: res, body: html });
        }),
      );
      expect(status).toBe('This page cannot show matches of the game "chess": this server has no watch page for it.');
      await context.close();
    });

    it("says so when the game's script does not load", async () => {
      const { context, status } = await open((page) => page.route('**/watch/games/**', (r) => r.fulfill({ status: 404, body: 'gone' })));
      expect(status).toBe('This page cannot show this match: the script for the game "evons" did not load.');
      await context.close();
    });
  });
});

function screenshotPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return path.join(ARTIFACTS_DIR, name);
}
