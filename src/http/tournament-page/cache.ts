/**
 * The rendered tournament pages of this node, by tournament, version and part: the page is the
 * same for everyone, so a reload of an unchanged tournament (every 60 s from every open tab of a
 * running one) is neither rendered nor hashed again. The version is the tournament's own (bumped
 * by every change, on any node), so a page is never served for an older tournament than the one
 * the service just read. Bounded in bytes; a part past the last renders (and is kept) as the last.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { tournamentPage, type PagePart } from './page.js';

type PageInput = Parameters<typeof tournamentPage>[0];

/** Bytes of rendered pages kept per node (a 1,000-player Swiss's page is about 42 KB). */
export const PAGE_CACHE_BYTES = 16 * 1024 * 1024;

export interface RenderedPage {
  html: string;
  /** Its hash: the page's ETag. */
  etag: string;
}

export class TournamentPageCache {
  private readonly pages = new LRUCache<string, RenderedPage>({
    maxSize: PAGE_CACHE_BYTES,
    sizeCalculation: (p) => 200 + p.html.length * 2,
  });

  /** The page of `input` (read at `version`), rendered once per version and part. */
  render(version: number, input: PageInput & { part: PagePart }): RenderedPage {
    const { part } = input;
    const key = `${input.tournament.id}\n${version}\n${input.css}\n${part.standings}|${part.round ?? ''}|${part.boards}`;
    const hit = this.pages.get(key);
    if (hit) return hit;
    const html = tournamentPage(input);
    const page = { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"` };
    this.pages.set(key, page);
    return page;
  }
}
