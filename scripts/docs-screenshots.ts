/**
 * Writes docs/watch-page.png (`npm run docs:screenshots`): the watch page of an Evons match played
 * a few turns through the API, as a spectator, in Debian's Chromium (CHROMIUM_PATH to use
 * another). The deal is random, so each run draws another position.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMatch, launchChromium, playOne, serve } from '../test/browser/fixture.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs', 'watch-page.png');

const served = await serve();
const browser = await launchChromium();
try {
  const m = await createMatch(served.url, 'evons');
  let version = 0;
  // Second-listed actions: mostly cards played face up, so the board has something to show.
  for (let i = 0; i < 16; i++) version = await playOne(served.url, m, (n) => (n > 2 ? 1 : 0));
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  await page.goto(`${served.url}/watch/${m.id}`);
  await page.waitForSelector(`main[data-version="${version}"]`);
  await page.locator('#board').evaluate((img: HTMLImageElement) => img.decode());
  await mkdir(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`wrote ${path.relative(process.cwd(), out)} (match ${m.id}, version ${version})`);
} finally {
  await browser.close();
  await served.close();
}
