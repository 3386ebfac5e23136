/**
 * GraphiQL works offline: the page and every script and stylesheet it references are served by
 * the app itself (no URL to another host), and the IDE's own bundle is what gets served.
 */
import { describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { buildApp } from '../../../src/app.js';
import { openStore } from '../../../src/persistence/index.js';
import { memoryDatabase } from '../../persistence/pglite-template.js';
import { useHarness, pglite } from '../helpers.js';

describe('GraphiQL assets are local', () => {
  const h = useHarness(pglite, { graphiql: true });

  it('serves the page, every referenced script and stylesheet, with no absolute URL to another host', async () => {
    const page = await h.http.get('/graphiql').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const html: string = page.text;
    expect(html).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\//i);

    const refs = [...html.matchAll(/<(script|link)\b[^>]*?\b(src|href)="([^"]+)"/g)].map((m) => ({ tag: m[1]!, url: m[3]! }));
    expect(refs.filter((r) => r.tag === 'script').length).toBeGreaterThanOrEqual(4); // react, react-dom, graphiql, main
    expect(refs.filter((r) => r.tag === 'link').length).toBeGreaterThanOrEqual(1);

    for (const { tag, url } of refs) {
      const res = await h.http
        .get(new URL(url, 'http://app.invalid/graphiql').pathname)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(tag === 'script' ? /^text\/javascript/ : /^text\/css/);
      const body = (res.body as Buffer).toString('utf8');
      expect(body.length, url).toBeGreaterThan(100);
      // Stylesheets pull nothing from the network (GraphiQL's fonts are inlined as data: URLs).
      if (tag === 'link') expect(body.match(/url\((?!["']?data:)[^)]*\)/g) ?? [], url).toEqual([]);
    }
    const main = await h.http.get('/graphiql/main.js').expect(200);
    expect(main.text).not.toMatch(/https?:\/\//);
    expect(main.text).toContain("'/graphql'");
    // Subscriptions run from the page: the fetcher has a WebSocket URL (ws:, or wss: under https:).
    expect(main.text).toMatch(/createFetcher\(\{[^}]*subscriptionUrl/);
    expect(main.text).toContain("'wss:' : 'ws:'");
  });

  it('serves the GraphiQL bundle itself, and nothing outside the asset list', async () => {
    const js = await h.http.get('/graphiql/assets/graphiql.min.js').expect(200);
    expect(js.text).toContain('createFetcher');
    await h.http.get('/graphiql/assets/..%2Fpackage.json').expect(404);
    await h.http.get('/graphiql/assets/constructor').expect(404);
  });

  it('is off unless asked for', async () => {
    const opened = await openStore(memoryDatabase());
    const off = await buildApp({ store: opened.store, logger: false });
    await off.ready();
    try {
      await supertest(off.server).get('/graphiql').expect(404);
    } finally {
      await off.close();
      await opened.close();
    }
  });
});
