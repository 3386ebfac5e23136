/**
 * GraphiQL at /graphiql, served entirely by this app: Mercurius's built-in page loads React and
 * GraphiQL from unpkg.com and is blank offline, so the page here loads the same UMD bundles
 * (graphiql 3.8.3, react/react-dom 18, fonts inlined in the stylesheet) from node_modules.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

const JS = 'text/javascript; charset=utf-8';

/** Asset name (as served under /graphiql/assets/) → package, file in it, content type. */
const ASSETS: Record<string, { pkg: string; file: string; type: string }> = {
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
  'react.production.min.js': { pkg: 'react', file: 'umd/react.production.min.js', type: JS },
  'react-dom.production.min.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: JS },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: JS },
};

// React's "exports" map hides umd/, so locate each package by its package.json.
const assetPath = (a: { pkg: string; file: string }) => join(dirname(require.resolve(`${a.pkg}/package.json`)), a.file);

// Headers are not persisted: a seat token typed into the header editor stays out of localStorage.
// Subscriptions go over WebSocket to the same path (graphql-transport-ws; the graphql-ws client is
// in GraphiQL's bundle); the header editor's headers become the connection_init payload, so an
// Authorization header there authenticates the subscription as it does a query.
const MAIN_JS = `'use strict';
const url = new URL('/graphql', window.location.href);
const subscriptionUrl = new URL(url);
subscriptionUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
const fetcher = GraphiQL.createFetcher({ url: url.href, subscriptionUrl: subscriptionUrl.href });
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, { fetcher, headerEditorEnabled: true, shouldPersistHeaders: false, defaultEditorToolsVisibility: true }),
);
`;

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Evons GraphiQL</title>
  <meta name="robots" content="noindex">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/graphiql/assets/graphiql.min.css">
  <style>body { margin: 0; } #graphiql { height: 100vh; }</style>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="/graphiql/assets/react.production.min.js"></script>
  <script src="/graphiql/assets/react-dom.production.min.js"></script>
  <script src="/graphiql/assets/graphiql.min.js"></script>
  <script src="/graphiql/main.js"></script>
</body>
</html>
`;

export async function graphiqlRoutes(app: FastifyInstance): Promise<void> {
  const cache = new Map<string, Buffer>(); // a few MB, read once on first use
  const hide = { schema: { hide: true } };

  app.get('/graphiql', hide, async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/graphiql/main.js', hide, async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(MAIN_JS));
  app.get<{ Params: { name: string } }>('/graphiql/assets/:name', hide, async (req, reply) => {
    const asset = Object.hasOwn(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
    if (!asset) return reply.callNotFound();
    let body = cache.get(req.params.name);
    if (!body) {
      body = await readFile(assetPath(asset));
      cache.set(req.params.name, body);
    }
    // The bundles change only with a package upgrade, which restarts the server.
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(body);
  });
}
