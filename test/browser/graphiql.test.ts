/**
 * GraphiQL (/graphiql) runs subscriptions: in a real browser (Debian's Chromium via
 * playwright-core), a subscription typed into the page and run with its button gets its result over
 * WebSocket, as the seat named by the Authorization header typed into GraphiQL's header editor
 * (sent as the connection_init payload). Skips, saying so, only when no Chromium is installed and
 * CI is not set.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, call, createMatch, launchChromium, serve, type Served } from './fixture.js';

const skip = browserSkipReason();
if (skip) console.warn(`[browser tests] skipping the GraphiQL suite: ${skip}`);

/** The text of a CodeMirror editor on the page (GraphiQL 3 uses CodeMirror 5). */
const editorValue = (page: Page, selector: string) =>
  page.evaluate(
    (sel) => (document.querySelector(sel) as unknown as { CodeMirror: { getValue(): string } } | null)?.CodeMirror.getValue() ?? '',
    selector,
  );

const setEditor = (page: Page, selector: string, text: string) =>
  page.evaluate(
    ([sel, value]) =>
      (document.querySelector(sel!) as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(value!),
    [selector, text],
  );

describe.skipIf(skip !== null)('GraphiQL subscriptions in Chromium', () => {
  let served: Served;
  let browser: Browser;
  beforeAll(async () => {
    served = await serve({ graphiql: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it("runs a subscription from the page over WebSocket, authenticated by the header editor's Authorization", async () => {
    const m = await createMatch(served.url, 'evons');
    const view = await call<{ game: { pending: { seat: 'p1' | 'p2' } } }>(served.url, `/v1/matches/${m.id}`);
    const seat = view.game.pending.seat;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${served.url}/graphiql`);
      await page.waitForSelector('.graphiql-query-editor .CodeMirror');
      // myTurn needs a token: it answers only a connection authenticated as a seat.
      await setEditor(page, '.graphiql-query-editor .CodeMirror', 'subscription { myTurn { id seat } }');
      await page.getByRole('button', { name: 'Headers' }).click();
      const headers = 'section.graphiql-editor-tool[aria-label="Headers"] .graphiql-editor:not(.hidden) .CodeMirror';
      await page.waitForSelector(headers);
      await setEditor(page, headers, JSON.stringify({ Authorization: `Bearer ${m.tokens[seat]}` }));
      await page.click('.graphiql-execute-button');
      await page.waitForFunction(() =>
        /"myTurn"|"errors"/.test(
          (
            document.querySelector('.graphiql-response .CodeMirror') as unknown as { CodeMirror: { getValue(): string } } | null
          )?.CodeMirror.getValue() ?? '',
        ),
      );
      const shownResult = JSON.parse(await editorValue(page, '.graphiql-response .CodeMirror')) as unknown;
      expect(shownResult).toEqual({ data: { myTurn: { id: m.id, seat } } });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
