/**
 * SVG → PNG (src/pictures/png.ts): the PNG decodes at the width asked for (height in proportion),
 * text is drawn with the bundled font whatever the system has, and the same picture gives the same
 * bytes (the ETag promises it).
 */
import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { renderBoardSvg } from '../../src/http/board-picture.js';
import { FONT_FILES, pngOptions, svgToPng } from '../../src/pictures/png.js';
import { evonsAfter, evonsMatchView, pngSize, universusAfter, universusMatchView } from './fixtures.js';

const svgSize = (svg: string) => {
  const m = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg)!;
  return { width: Number(m[1]), height: Number(m[2]) };
};

describe('PNG pictures', () => {
  it('decode at the requested width, the height in proportion (Evons and UniVersus)', async () => {
    const svgs = [
      renderBoardSvg(evonsMatchView(evonsAfter('png', 40), 'spectator')),
      renderBoardSvg(universusMatchView(universusAfter('png', 20), 'p1')),
    ];
    for (const svg of svgs) {
      const natural = svgSize(svg);
      for (const width of [120, 333, 800, 1200]) {
        const size = pngSize(await svgToPng(svg, width));
        expect(size.width).toBe(width);
        expect(Math.abs(size.height - (width * natural.height) / natural.width)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('draws text with the bundled DejaVu Sans, not the system fonts', async () => {
    expect(FONT_FILES.every((f) => /dejavu-fonts-ttf\/ttf\/DejaVuSans[-A-Za-z]*\.ttf$/.test(f))).toBe(true);
    const ink = (svg: string) => {
      const px = new Resvg(svg, pngOptions(200)).render().pixels;
      let dark = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i]! < 128) dark++;
      return dark;
    };
    const words =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" font-family="sans-serif"><text x="10" y="40" font-size="30">Evons</text></svg>';
    const blank =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" font-family="sans-serif"><text x="10" y="40" font-size="30"> </text></svg>';
    expect(ink(blank)).toBe(0);
    expect(ink(words)).toBeGreaterThan(300);
    expect(pngOptions(200).font).toMatchObject({ loadSystemFonts: false });
  });

  it('gives the same bytes for the same picture', async () => {
    const svg = renderBoardSvg(evonsMatchView(evonsAfter('png', 40), 'p1'));
    const a = await svgToPng(svg, 640);
    const b = await svgToPng(svg, 640);
    expect(a.equals(b)).toBe(true);
    expect((await svgToPng(svg, 641)).equals(a)).toBe(false);
  });
});
