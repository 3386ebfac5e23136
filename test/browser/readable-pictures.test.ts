/**
 * The board pictures are readable where people look at them (issue 20, item 7): on the watch page
 * in Chromium at a 390 px phone and at a 1280 px desktop, and at the pictures' own default size,
 * every card's name, cost and stats are drawn at 12 CSS px or more. Measured, not assumed: the
 * picture the page shows is laid out again at the size the page shows it, and each text's font
 * size is multiplied by the scale Chromium draws it at (getScreenCTM). The legend names the
 * highlight of the cards a decision is about (a conflict's attacker and defenders). Skips, saying
 * so, only when no Chromium is installed and CI is not set.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, call, createMatch, launchChromium, playOne, serve, type Match, type Served } from './fixture.js';

const skip = browserSkipReason();
if (skip) console.warn(`[browser tests] skipping the readable pictures suite: ${skip}`);

/** Smallest readable text, in CSS px. */
const MIN_PX = 12;

interface DrawnText {
  text: string;
  px: number;
}

interface Measured {
  /** The picture's box on the page and its intrinsic width, in CSS px. */
  shownWidth: number;
  naturalWidth: number;
  texts: DrawnText[];
  /** Horizontal overflow of the page itself, and of the board's own box (which may scroll). */
  pageOverflow: number;
  boardOverflow: number;
}

/**
 * Every text of `svg` with the font size it is drawn at when the picture is `width` CSS px wide:
 * the picture laid out inline at that width, then font size × the on-screen scale of each element.
 */
async function drawnTexts(page: Page, svg: string, width: number): Promise<DrawnText[]> {
  return page.evaluate(
    ([source, w]) => {
      const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
      const pic = document.importNode(doc.documentElement, true) as unknown as SVGSVGElement;
      const vb = pic.viewBox.baseVal;
      pic.setAttribute('width', String(w));
      pic.setAttribute('height', String((w * vb.height) / vb.width));
      const holder = document.createElement('div');
      holder.style.position = 'absolute';
      holder.style.left = '0';
      holder.style.top = '0';
      holder.style.visibility = 'hidden';
      holder.append(pic);
      document.body.append(holder);
      const out = [...pic.querySelectorAll('text, tspan')].map((t) => ({
        text: (t.textContent ?? '').trim(),
        px: parseFloat(getComputedStyle(t).fontSize) * (t as SVGGraphicsElement).getScreenCTM()!.a,
      }));
      holder.remove();
      return out;
    },
    [svg, width] as const,
  );
}

/** The picture the watch page shows now (fetched as the same reader), measured at its shown size. */
async function measure(page: Page, base: string, id: string, token?: string): Promise<Measured> {
  const { shownWidth, naturalWidth, pageOverflow, boardOverflow } = await page.locator('#board').evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    const root = document.documentElement;
    const box = img.parentElement!;
    return {
      // The picture inside the image's border: what the SVG is scaled to.
      shownWidth: img.getBoundingClientRect().width - 2 * parseFloat(getComputedStyle(img).borderLeftWidth),
      naturalWidth: img.naturalWidth,
      pageOverflow: root.scrollWidth - root.clientWidth,
      boardOverflow: box.scrollWidth - box.clientWidth,
    };
  });
  const res = await fetch(`${base}/v1/matches/${id}/board.svg`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  const svg = await res.text();
  expect(Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)![1])).toBe(naturalWidth);
  return { shownWidth, naturalWidth, pageOverflow, boardOverflow, texts: await drawnTexts(page, svg, shownWidth) };
}

/** Texts that say a card's name (a whole name, a line of one, or a list of them), cost or stats. */
function cardTexts(texts: DrawnText[], names: string[], stats: RegExp): DrawnText[] {
  const parts = (s: string) => s.replace(/…$/, '');
  return texts.filter((t) => {
    const s = parts(t.text);
    if (s.length < 2) return false;
    return stats.test(s) || names.some((n) => n.includes(s) || s.includes(n));
  });
}

function expectReadable(found: DrawnText[], what: string): void {
  expect(found.length, `${what}: card texts found`).toBeGreaterThan(0);
  const small = found.filter((t) => t.px < MIN_PX).map((t) => `${t.text} (${t.px.toFixed(1)} px)`);
  expect(small, `${what}: card texts under ${MIN_PX} px`).toEqual([]);
}

interface EvonsView {
  version: number;
  game: {
    board: {
      cell: string;
      card: { defId: string | null; name: string | null; covered: boolean; atk: number | null; currentDef: number | null } | null;
    }[];
    seats: Record<string, { hand: { name: string }[] | null; graveyard: { name: string }[] }>;
  };
}

interface UniversusView {
  version: number;
  game: {
    players: Record<
      string,
      {
        character: string;
        hand: { card: string }[] | null;
        stage: { card: string }[];
        cardPool: { card: string }[];
        discard: { card: string }[];
      }
    >;
  };
}

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];

describe.skipIf(skip !== null)('readable board pictures in Chromium', () => {
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

  async function watch(m: Match, version: number, viewport: { width: number; height: number }, token?: string) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${base}/watch/${m.id}`);
    if (token) {
      await page.fill('#token', token);
      await page.click('#seat-form button[type=submit]');
      await page.waitForSelector('main[data-viewer="p1"]');
    }
    await page.waitForSelector(`main[data-version="${version}"]`, { timeout: 10_000 });
    return { page, context, problems };
  }

  describe('Evons', () => {
    let m: Match;
    let version: number;
    let cards: Map<string, { name: string; cost?: number }>;
    beforeAll(async () => {
      m = await createMatch(base, 'evons');
      // Second-listed actions: mostly cards played face up, so the board has names and stats.
      for (let i = 0; i < 16; i++) version = await playOne(base, m, (n) => (n > 2 ? 1 : 0));
      const list = await call<{ cards: { id: string; name: string; cost?: number }[] }>(base, '/v1/games/evons/cards');
      cards = new Map(list.cards.map((c) => [c.id, c]));
    });

    for (const viewport of VIEWPORTS) {
      it(`every card's name, cost and stats at ${viewport.width} px wide are at least ${MIN_PX} px, and the legend names the decision highlight`, async () => {
        const { page, context, problems } = await watch(m, version, viewport, m.tokens.p1);
        try {
          const view = await call<EvonsView>(base, `/v1/matches/${m.id}`, { token: m.tokens.p1 });
          const g = view.game;
          const onBoard = g.board.filter((c) => c.card?.name).map((c) => c.card!);
          const faceUp = onBoard.filter((c) => !c.covered);
          expect(faceUp.length, 'face-up cards on the board').toBeGreaterThan(0);
          const names = [
            ...onBoard.map((c) => c.name!),
            ...g.seats.p1!.hand!.map((c) => c.name),
            ...Object.values(g.seats).flatMap((s) => s.graveyard.map((c) => c.name)),
          ];
          const got = await measure(page, base, m.id, m.tokens.p1);
          expect(got.pageOverflow, 'the page itself does not scroll sideways').toBeLessThanOrEqual(0);
          // On a phone the board scrolls sideways in its own box; on a desktop it fits its column.
          if (viewport.width < 1180) expect(got.boardOverflow).toBeGreaterThan(0);
          else expect(got.boardOverflow).toBeLessThanOrEqual(0);
          expectReadable(cardTexts(got.texts, names, /^\d+\/\d+|^cost \d+$/), `${viewport.width} px`);
          // Every face-up card's stats are drawn, and every named card's name and cost.
          const drawn = got.texts.map((t) => t.text);
          const stats = faceUp.filter((c) => c.atk !== null).map((c) => `${c.atk}/${c.currentDef}`);
          for (const s of stats)
            expect(
              drawn.some((t) => t.startsWith(s)),
              `stats ${s}`,
            ).toBe(true);
          const costs = onBoard.map((c) => cards.get(c.defId!)?.cost).filter((c) => c !== undefined);
          expect(costs.length).toBeGreaterThan(0);
          expect(drawn.filter((t) => /^cost \d+$/.test(t)).length).toBe(costs.length);
          const joined = drawn.join(' ');
          for (const c of onBoard) for (const word of c.name!.split(' ')) expect(joined, c.name!).toContain(word);
          const legend = got.texts.filter((t) => /conflict/i.test(t.text));
          expect(legend.length, 'a legend entry for the highlight of a conflict').toBeGreaterThan(0);
          expectReadable(legend, 'legend');
          expect(problems).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  });

  describe('UniVersus', () => {
    let m: Match;
    let version: number;
    let names: Map<string, string>;
    beforeAll(async () => {
      m = await createMatch(base, 'universus');
      for (let i = 0; i < 8; i++) version = await playOne(base, m);
      const list = await call<{ cards: { id: string; name: string }[] }>(base, '/v1/games/universus/cards');
      names = new Map(list.cards.map((c) => [c.id, c.name]));
    });

    for (const viewport of VIEWPORTS) {
      it(`every card's name, cost and stats at ${viewport.width} px wide are at least ${MIN_PX} px`, async () => {
        const { page, context, problems } = await watch(m, version, viewport, m.tokens.p1);
        try {
          const g = (await call<UniversusView>(base, `/v1/matches/${m.id}`, { token: m.tokens.p1 })).game;
          const shown = Object.values(g.players).flatMap((p) => [
            p.character,
            ...(p.hand ?? []).map((h) => h.card),
            ...p.stage.map((s) => s.card),
            ...p.cardPool.map((c) => c.card),
            ...p.discard.map((c) => c.card),
          ]);
          const got = await measure(page, base, m.id, m.tokens.p1);
          expect(got.pageOverflow).toBeLessThanOrEqual(0);
          const found = cardTexts(
            got.texts,
            shown.map((id) => names.get(id)!),
            /\b(spd|dmg|diff|chk) \d+/,
          );
          expectReadable(found, `${viewport.width} px`);
          expect(
            found.some((t) => /\bdiff \d+/.test(t.text)),
            'a card cost (difficulty) is drawn',
          ).toBe(true);
          expect(problems).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  });

  it('the picture endpoint is readable at its default size: board.png is 800 px wide, so the SVG at 800 px', async () => {
    const m = await createMatch(base, 'evons');
    for (let i = 0; i < 16; i++) await playOne(base, m, (n) => (n > 2 ? 1 : 0));
    const png = await fetch(`${base}/v1/matches/${m.id}/board.png`);
    expect(png.status).toBe(200);
    const width = Buffer.from(await png.arrayBuffer()).readUInt32BE(16);
    const svg = await (await fetch(`${base}/v1/matches/${m.id}/board.svg`)).text();
    const view = await call<EvonsView>(base, `/v1/matches/${m.id}`);
    const names = view.game.board.filter((c) => c.card?.name).map((c) => c.card!.name!);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/watch/${m.id}`);
      for (const w of [width, Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)![1])]) {
        expectReadable(cardTexts(await drawnTexts(page, svg, w), names, /^\d+\/\d+|^cost \d+$/), `picture ${w} px wide`);
      }
    } finally {
      await context.close();
    }
  });
});
