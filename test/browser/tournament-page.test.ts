/**
 * The tournament page (GET /tournament/{id}) in a real browser: Debian's Chromium driven by
 * playwright-core, on the real app listening on a free port, with a Swiss of five players (the
 * longest handles the API takes) that this test starts and plays a round of through the HTTP API.
 * - the page loads with no console error, dialog or CSP violation, its stylesheet applied;
 * - the standings, the crosstable and the boards show what the API says;
 * - a board's watch link opens the watch page of that match (whose script then runs);
 * - no horizontal scrolling of the page on a 375 px wide screen: the wide crosstable scrolls
 *   sideways inside its own box.
 * Screenshots go to $ARTIFACTS_DIR (else test-artifacts/). Skips, saying so, only when no
 * Chromium is installed and CI is not set.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, browserSkipReason, call, launchChromium, serve, type Served } from './fixture.js';

const skip = browserSkipReason();
if (skip) console.warn(`[browser tests] skipping the tournament page suite: ${skip}`);

interface Board {
  board: number;
  p1: string;
  p2: string | null;
  matchId: string | null;
  result: string | null;
}
interface TView {
  status: string;
  round: number;
  pairings: { round: number; boards: Board[] }[];
}

describe.skipIf(skip !== null)('the tournament page in Chromium', () => {
  let served: Served;
  let browser: Browser;
  let base: string;
  let id: string;
  beforeAll(async () => {
    served = await serve();
    base = served.url;
    browser = await launchChromium();
    const reg = (handle: string) => call<{ token: string }>(base, '/v1/players', { method: 'POST', body: { handle } });
    const org = await reg('organizer');
    // 32 characters, the most a handle may have: the page must still fit a phone.
    const players = await Promise.all(
      ['W', 'M', 'Q', 'H', 'B'].map(async (c) => ({ handle: c.repeat(32), token: (await reg(c.repeat(32))).token })),
    );
    const t = await call<{ id: string }>(base, '/v1/tournaments', {
      method: 'POST',
      token: org.token,
      body: {
        name: 'Autumn Cup <b>not bold</b>',
        format: 'swiss',
        rounds: 3,
        timeControl: { kind: 'correspondence', daysPerMove: 3 },
        roundHours: 72,
      },
    });
    id = t.id;
    for (const p of players) await call(base, `/v1/tournaments/${id}/join`, { method: 'POST', token: p.token, body: {} });
    await call(base, `/v1/tournaments/${id}/start`, { method: 'POST', token: org.token, body: {} });
    // Round 1 played (the second seat resigns), round 2 started: results, a bye and running matches on one page.
    const token = new Map(players.map((p) => [p.handle, p.token]));
    const v = await call<TView>(base, `/v1/tournaments/${id}`);
    for (const b of v.pairings[0]!.boards) {
      if (b.matchId === null) continue;
      await call(base, `/v1/matches/${b.matchId}/actions`, {
        method: 'POST',
        token: token.get(b.p2!)!,
        body: { action: { type: 'resign' } },
      });
    }
    await served.app.service.tournaments.sweep();
    expect((await call<TView>(base, `/v1/tournaments/${id}`)).round).toBe(2);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  /** A fresh page that fails the test on any console error, failed response, script error, dialog or CSP violation. */
  async function openPage(
    url: string,
    viewport = { width: 1280, height: 900 },
  ): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on('console', (m) => {
      // The browser's own request for /favicon.ico (the server has none) is no error of the page.
      if (m.location().url.endsWith('/favicon.ico')) return;
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text()))
        problems.push(`console ${m.type()}: ${m.text()} (${m.location().url})`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    return { page, context, problems };
  }

  /** Whether the page itself scrolls sideways, and whether some table box scrolls inside. */
  const overflow = (page: Page) =>
    page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      boxes: [...document.querySelectorAll<HTMLElement>('.scroll')].map((b) => ({
        scroll: b.scrollWidth,
        client: b.clientWidth,
        right: b.getBoundingClientRect().right,
      })),
    }));

  it('shows the standings, crosstable and boards with no console error, and a watch link opens that match', async () => {
    const { page, context, problems } = await openPage(`${base}/tournament/${id}`);
    try {
      const api = await call<TView>(base, `/v1/tournaments/${id}`);
      const standings = await call<{ standings: { handle: string }[] }>(base, `/v1/tournaments/${id}/standings`);
      expect(await page.locator('h1').textContent()).toBe('Autumn Cup <b>not bold</b>');
      expect(await page.locator('#status').textContent()).toMatch(/^Round 2 of 3; the round ends \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
      expect(await page.locator('table.standings tbody th').allTextContents()).toEqual(standings.standings.map((r) => r.handle));
      expect(await page.locator('table.crosstable tbody th').count()).toBe(5);
      // The stylesheet applied (the CSP let it in): the table boxes have their border.
      expect(
        await page
          .locator('.scroll')
          .first()
          .evaluate((n) => getComputedStyle(n).borderTopStyle),
      ).toBe('solid');
      const links = await page.locator('table.boards a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')));
      const matches = api.pairings.flatMap((r) => r.boards).filter((b) => b.matchId !== null);
      expect(links.sort()).toEqual(matches.map((b) => `/watch/${b.matchId}`).sort());
      expect(await page.locator('table.boards td.result', { hasText: /^bye$/ }).count()).toBe(2);
      await page.screenshot({ path: screenshotPath('tournament-desktop.png'), fullPage: true });
      expect(problems).toEqual([]);

      // The first board of the running round: its link opens its watch page, whose script fills it in.
      const target = api.pairings.find((r) => r.round === 2)!.boards.find((b) => b.matchId !== null)!;
      await page.locator(`a[href="/watch/${target.matchId}"]`).click();
      await page.waitForURL(`${base}/watch/${target.matchId}`);
      expect(await page.locator('body').getAttribute('data-match')).toBe(target.matchId);
      await page.waitForSelector('main[data-version]', { timeout: 10_000 });
      expect(await page.locator('#title').textContent()).toContain(target.p1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a 375 px wide screen: no horizontal page scroll, the wide tables scroll in their own box', async () => {
    const { page, context, problems } = await openPage(`${base}/tournament/${id}`, { width: 375, height: 812 });
    try {
      const o = await overflow(page);
      expect(o.client).toBe(375);
      expect(o.scroll).toBeLessThanOrEqual(o.client);
      for (const b of o.boxes) expect(b.right).toBeLessThanOrEqual(375);
      // The crosstable of five 32-character handles is wider than a phone: it scrolls inside its box.
      expect(o.boxes.some((b) => b.scroll > b.client)).toBe(true);
      // The standings and the boards wrap long handles instead: points and watch links stay on screen.
      for (const sel of ['table.standings', 'table.boards']) {
        const fits = await page
          .locator(sel)
          .evaluateAll((ts) => ts.map((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth));
        expect(fits, sel).not.toContain(false);
      }
      await page.screenshot({ path: screenshotPath('tournament-375.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers an unknown tournament with its 404 page', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const res = await page.goto(`${base}/tournament/tn_AAAAAAAAAAAAAAAA`);
      expect(res?.status()).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('No such tournament');
    } finally {
      await context.close();
    }
  });
});

function screenshotPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return path.join(ARTIFACTS_DIR, name);
}
