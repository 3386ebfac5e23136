/**
 * What the browser tests (and `npm run docs:screenshots`) share: Debian's Chromium driven by
 * playwright-core (no browser download), the real app listening on a free port over an
 * in-memory PGlite, and matches played through the HTTP API as a client would.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { buildApp, type App, type BuildAppOptions } from '../../src/app.js';
import { openStore } from '../../src/persistence/index.js';
import { memoryDatabase } from '../persistence/pglite-template.js';

/** CHROMIUM_PATH, else the Debian package's binary. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Null: run. A string: skip, saying why. Only a developer's machine may skip: under CI a missing
 * browser is a failure (launch then throws, naming the path), since .ci/run installs it.
 */
export function browserSkipReason(): string | null {
  if (existsSync(CHROMIUM) || process.env.CI) return null;
  return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH); CI=true makes this a failure`;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package (or set CHROMIUM_PATH).`);
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export interface Served {
  app: App;
  /** http://127.0.0.1:PORT */
  url: string;
  close(): Promise<void>;
}

/** The real app (buildApp, with `opts`) on a fresh in-memory database, listening on a free port. */
export async function serve(opts: Omit<BuildAppOptions, 'store' | 'logger'> = {}): Promise<Served> {
  const opened = await openStore(memoryDatabase());
  const app = await buildApp({ store: opened.store, logger: false, ...opts });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
}

export type Seat = 'p1' | 'p2';

export interface Match {
  id: string;
  tokens: Record<Seat, string>;
}

/** A JSON request to the API; throws on any non-2xx with the problem's body. */
export async function call<T = Record<string, unknown>>(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A hot-seat match of `game` between alice and bob (both tokens), with the game's first starter decks. */
export async function createMatch(base: string, game: 'evons' | 'universus', extra: Record<string, unknown> = {}): Promise<Match> {
  const { decks } = await call<{ decks: { id: string }[] }>(base, `/v1/games/${game}/decks`);
  const deck = (i: number) => ({ starter: (decks[i] ?? decks[0]!).id });
  const created = await call<{ id: string; tokens: Record<Seat, string> }>(base, '/v1/matches', {
    method: 'POST',
    body: { game, handle: 'alice', opponentHandle: 'bob', decks: { p1: deck(0), p2: deck(1) }, ...extra },
  });
  return { id: created.id, tokens: created.tokens };
}

/**
 * One decision by whoever is to move: a legal action picked by `pick` (default: the first),
 * through POST …/actions. Returns the version after it.
 */
export async function playOne(base: string, m: Match, pick: (n: number) => number = () => 0): Promise<number> {
  const view = await call<{ version: number; game: { pending: { seat: Seat } | null } | null }>(base, `/v1/matches/${m.id}`);
  const seat = view.game?.pending?.seat;
  if (!seat) throw new Error('nobody is to move');
  const { actions } = await call<{ actions: { action: unknown }[] }>(base, `/v1/matches/${m.id}/legal-actions`, { token: m.tokens[seat] });
  const choice = actions[Math.min(pick(actions.length), actions.length - 1)]!;
  const r = await call<{ version: number }>(base, `/v1/matches/${m.id}/actions`, {
    method: 'POST',
    body: { action: choice.action },
    token: m.tokens[seat],
  });
  return r.version;
}

/** Where screenshots go: $ARTIFACTS_DIR (CI collects it), else test-artifacts/ (gitignored). */
export const ARTIFACTS_DIR = process.env.ARTIFACTS_DIR || 'test-artifacts';
