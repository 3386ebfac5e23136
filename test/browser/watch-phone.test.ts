/**
 * Issue 34 item 22: on a 390 px phone the UniVersus watch page opened with the board picture
 * (730 px wide, scrolled sideways in its box) and its history controls, which filled the first
 * screen: who is to decide and both health values sat below it, and the picture had to be
 * swiped to find them there. The first screen (390×844) now shows the status line (whose
 * decision it is), the badge of the seat to decide and both seats' health, before the picture.
 * Desktop keeps the board beside the panels. Debian's Chromium via playwright-core; skips,
 * saying so, only when no Chromium is installed and CI is not set.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, browserSkipReason, call, createMatch, launchChromium, playOne, serve, type Served } from './fixture.js';

const skip = browserSkipReason();
if (skip) console.warn(`[browser tests] skipping the phone watch page suite: ${skip}`);

const PHONE = { width: 390, height: 844 };

/** The element's box lies wholly inside the first screen (no scrolling, no swiping) and it is visible. */
async function onFirstScreen(el: Locator, what: string): Promise<void> {
  await el.waitFor({ state: 'visible', timeout: 10_000 });
  const box = await el.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(box!.x, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what}: bottom`).toBeLessThanOrEqual(PHONE.height);
  expect(box!.x + box!.width, `${what}: right`).toBeLessThanOrEqual(PHONE.width);
}

describe.skipIf(skip !== null)('the watch page on a 390×844 phone', () => {
  let served: Served;
  let browser: Browser;
  beforeAll(async () => {
    served = await serve();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it.each(['universus', 'evons'] as const)(
    "%s: the first screen shows who is to decide and both seats' facts (health, score), the board after them",
    async (game) => {
      const base = served.url;
      const m = await createMatch(base, game);
      let version = 0;
      for (let i = 0; i < 4; i++) version = await playOne(base, m);
      const api = await call<{ game: { pending: { seat: 'p1' | 'p2' } | null } }>(base, `/v1/matches/${m.id}`);
      const deciding = api.game.pending!.seat;
      const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
      try {
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (e) => problems.push(e.message));
        expect((await page.goto(`${base}/watch/${m.id}`))?.status()).toBe(200);
        await page.waitForSelector(`main[data-version="${version}"]`, { timeout: 10_000 });
        await page.locator('#board').waitFor({ state: 'visible', timeout: 10_000 });
        expect(await page.evaluate(() => window.scrollY)).toBe(0);

        const status = page.locator('#status');
        await onFirstScreen(status, 'the status line');
        expect(await status.textContent()).toMatch(/^Turn \d+\. (alice|bob) to move \(.+\)\.$/);
        await onFirstScreen(page.locator(`.player.to-move[data-seat="${deciding}"] .badge`), 'the "to move" badge of the seat to decide');
        const fact = game === 'universus' ? 'Health' : 'Score';
        for (const seat of ['p1', 'p2']) {
          const dd = page.locator(`.player[data-seat="${seat}"] dt:text-is("${fact}") + dd`);
          await onFirstScreen(dd, `${seat}'s ${fact}`);
        }
        // The page itself still never scrolls sideways; only the picture does, inside its box.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
        mkdirSync(ARTIFACTS_DIR, { recursive: true });
        await page.screenshot({ path: path.join(ARTIFACTS_DIR, `watch-${game}-phone-first-screen.png`) });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('desktop keeps the board in the first column, the status and players beside it', async () => {
    const base = served.url;
    const m = await createMatch(base, 'universus');
    const version = await playOne(base, m);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/watch/${m.id}`);
      await page.waitForSelector(`main[data-version="${version}"]`, { timeout: 10_000 });
      const board = (await page.locator('#board').boundingBox())!;
      const status = (await page.locator('#status').boundingBox())!;
      const players = (await page.locator('#players').boundingBox())!;
      const moves = (await page.locator('#moves').boundingBox())!;
      expect(status.x).toBeGreaterThanOrEqual(board.x + board.width);
      expect(players.x).toBeGreaterThanOrEqual(board.x + board.width);
      expect(status.y).toBeLessThan(board.y + 50);
      expect(moves.y).toBeGreaterThan(players.y);
    } finally {
      await context.close();
    }
  });
});
