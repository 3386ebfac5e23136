/**
 * SVG → PNG with resvg (@resvg/resvg-js: Rust, no browser), off the event loop (renderAsync).
 *
 * Fonts: the pictures ask for the generic `sans-serif` family, and resvg gets exactly one font
 * for it, DejaVu Sans from the `dejavu-fonts-ttf` package, never the system's fonts. So a PNG has
 * text on a host without any font installed (node:22-slim has none), and every node draws the
 * same bytes for the same picture, which the ETag (version, viewer, size) promises. The only
 * module under src/pictures that touches the file system: resvg reads the font file.
 */
import { createRequire } from 'node:module';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';

const require = createRequire(import.meta.url);

export const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf'].map((f) =>
  require.resolve(`dejavu-fonts-ttf/ttf/${f}`),
);

/** PNG widths the API accepts, in pixels (the height follows the picture's proportions). */
export const PNG_SIZE = { min: 120, max: 2400, default: 800 } as const;

/** resvg options: the bundled font only, `width` pixels wide, on white. */
export function pngOptions(width: number): ResvgRenderOptions {
  return {
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
    fitTo: { mode: 'width', value: width },
    background: '#ffffff',
    logLevel: 'error',
  };
}

/** The SVG drawn `width` pixels wide. */
export async function svgToPng(svg: string, width: number): Promise<Buffer> {
  const image = await renderAsync(svg, pngOptions(width));
  return image.asPng();
}
