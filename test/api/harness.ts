/**
 * The real app (buildApp) on a real store for the API suites: `useHarness(backend, opts)` inside
 * a describe opens a fresh database on `backend`, builds the app on it and listens on a local
 * port before the suite's tests, and closes all of it after them. The suites read the handle's
 * fields (h.app, h.http, h.store, h.baseUrl()…) in their tests and hooks.
 *
 * PostgreSQL is skipped, loudly, when unreachable (backend.skipReason): the describe around
 * useHarness stays `describe.skipIf(backend.skipReason !== null)`, and its hooks never run.
 *
 * startOn / startApp / secondApp are the same thing by hand, for a test that starts (or
 * restarts) its own app and closes it itself.
 */
import supertest from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { buildApp, type App, type BuildAppOptions } from '../../src/app.js';
import { openStore } from '../../src/persistence/index.js';
import type { DatabaseConfig } from '../../src/persistence/database.js';
import type { MatchStore } from '../../src/persistence/types.js';
import { backends, type Backend } from '../persistence/backends.js';

export { backends, type Backend };

/** The in-memory PGlite backend (never skipped): for suites whose subject does not depend on the database. */
export const pglite: Backend = backends.find((b) => b.name === 'pglite')!;

export type Http = ReturnType<typeof supertest>;

export interface HarnessOptions extends Omit<BuildAppOptions, 'store' | 'now'> {
  /**
   * An injected clock every service of the app reads (h.t.now, epoch ms; tests only move it
   * forward): `true` starts it at 2030-01-01, `'now'` at the wall clock when the app starts.
   */
  clock?: true | 'now';
  /** The store the app is given, made from the opened one (one that fails on cue); h.store stays the opened one. */
  wrapStore?: (store: MatchStore) => MatchStore;
  /** A new app and database for every test (beforeEach/afterEach) instead of one for the describe. */
  perTest?: boolean;
}

export interface Harness {
  app: App;
  /** Supertest on the app, already listening (see localHttp). */
  http: Http;
  /** The store as opened (not the wrapped one, with wrapStore). */
  store: MatchStore;
  config: DatabaseConfig;
  /** http://127.0.0.1:PORT */
  baseUrl(): string;
}

export interface Clocked extends Harness {
  /** The fake clock every service in this harness reads (epoch ms); tests only move it forward. */
  t: { now: number };
}

/** Options with a clock: the harness is Clocked. */
export type ClockedOptions = HarnessOptions & { clock: true | 'now' };

export interface Started extends Harness {
  close(): Promise<void>;
}

/** A second node: its own app (its own MatchService) on a harness's database. */
export interface Node {
  app: App;
  http: Http;
  baseUrl(): string;
}

/**
 * Supertest on `app`, listening on a local port first: given a server that is not listening,
 * supertest binds a new port for every request and closes it after (measured: binding was the
 * largest single cost of the API suites' CPU).
 */
export async function localHttp(app: App): Promise<Http> {
  await baseUrlOf(app);
  return supertest(app.server);
}

/** The app's base URL, listening on a free local port first if it is not yet. */
export async function baseUrlOf(app: App): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return listeningUrl(app);
}

function listeningUrl(app: App): string {
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${addr.port}`;
}

/** The app on a store opened from `config`, ready and listening; close() closes both. */
export async function startApp(config: DatabaseConfig, opts: ClockedOptions): Promise<Clocked & Started>;
export async function startApp(config: DatabaseConfig, opts?: HarnessOptions): Promise<Started>;
export async function startApp(config: DatabaseConfig, opts?: HarnessOptions): Promise<Started & Partial<Clocked>> {
  const { clock, wrapStore, perTest: _perTest, ...build } = opts ?? {};
  const opened = await openStore(config);
  const t = clock ? { now: clock === 'now' ? Date.now() : Date.UTC(2030, 0, 1) } : undefined;
  try {
    const app = await buildApp({
      logger: false,
      ...build,
      store: wrapStore ? wrapStore(opened.store) : opened.store,
      ...(t ? { now: () => t.now } : {}),
    });
    try {
      await app.ready();
      const started: Started & Partial<Clocked> = {
        app,
        http: await localHttp(app),
        store: opened.store,
        config,
        baseUrl: () => listeningUrl(app),
        close: async () => {
          await app.close();
          await opened.close();
        },
      };
      if (t) started.t = t;
      return started;
    } catch (e) {
      await app.close();
      throw e;
    }
  } catch (e) {
    await opened.close();
    throw e;
  }
}

/** A fresh database on `backend` plus the app on it (startApp); close() also drops the database. */
export async function startOn(backend: Backend, opts: ClockedOptions): Promise<Clocked & Started>;
export async function startOn(backend: Backend, opts?: HarnessOptions): Promise<Started>;
export async function startOn(backend: Backend, opts?: HarnessOptions): Promise<Started & Partial<Clocked>> {
  const db = await backend.migrated();
  let h: Started & Partial<Clocked>;
  try {
    h = await startApp(db.config, opts);
  } catch (e) {
    await db.dispose();
    throw e;
  }
  const close = h.close;
  h.close = async () => {
    await close();
    await db.dispose();
  };
  return h;
}

/**
 * A second app (its own MatchService) on the same database as `h`, and on its clock when it has
 * one. PGlite allows one connection to a database (in memory: one store per process), so on
 * PGlite it shares h's store; on PostgreSQL it opens its own.
 */
export async function secondApp(
  h: Harness & Partial<Clocked>,
  opts: Omit<BuildAppOptions, 'store' | 'now'> = {},
): Promise<Node & { close(): Promise<void> }> {
  const opened = h.config.kind === 'pglite' ? { store: h.store, close: async () => {} } : await openStore(h.config);
  const t = h.t;
  const app = await buildApp({ logger: false, ...opts, store: opened.store, ...(t ? { now: () => t.now } : {}) });
  await app.ready();
  return {
    app,
    http: await localHttp(app),
    baseUrl: () => listeningUrl(app),
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
}

/** Fields of `target()` as getters that throw a clear error while there is none (before the hook ran, after it closed). */
function handle<T extends object>(what: string, fields: readonly (keyof T & string)[], target: () => T | undefined): T {
  const out = {} as T;
  for (const field of fields) {
    Object.defineProperty(out, field, {
      enumerable: true,
      get() {
        const current = target();
        if (!current)
          throw new Error(
            `${what}.${field} was read outside the tests: it exists from the describe's beforeAll (or beforeEach) until its afterAll (or afterEach)`,
          );
        return current[field];
      },
    });
  }
  return out;
}

const HARNESS_FIELDS = ['app', 'http', 'store', 'config', 't'] as const;

/**
 * Registers, in the calling describe, a beforeAll that starts the app on a fresh database on
 * `backend` (startOn) and an afterAll that closes both; returns a handle whose fields are the
 * running harness's. Hooks the describe registers after this one run after it starts, and their
 * afterAll before it closes (vitest's default `sequence.hooks: 'stack'`).
 */
export function useHarness(backend: Backend, opts: ClockedOptions): Clocked;
export function useHarness(backend: Backend, opts?: HarnessOptions): Harness;
export function useHarness(backend: Backend, opts?: HarnessOptions): Harness & Partial<Clocked> {
  let current: (Started & Partial<Clocked>) | undefined;
  const [before, after] = opts?.perTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    if (backend.skipReason !== null) {
      throw new Error(
        `useHarness: ${backend.name} is not available (${backend.skipReason}); wrap the describe in describe.skipIf(backend.skipReason !== null)`,
      );
    }
    current = await startOn(backend, opts);
  });
  after(async () => {
    const h = current;
    current = undefined;
    await h?.close();
  });
  const fields = HARNESS_FIELDS.filter((f) => f !== 't' || opts?.clock);
  const h = handle<Harness & Partial<Clocked>>(`useHarness(${backend.name})`, fields, () => current);
  h.baseUrl = () => {
    if (!current)
      throw new Error(
        `useHarness(${backend.name}).baseUrl() was called outside the tests: the app listens from the describe's beforeAll until its afterAll`,
      );
    return current.baseUrl();
  };
  return h;
}

/**
 * Registers a second node on `h`'s database (secondApp) for the calling describe: started after
 * h in beforeAll, closed before it in afterAll. Call it after useHarness (not with perTest).
 */
export function useSecondApp(h: Harness, opts: Omit<BuildAppOptions, 'store' | 'now'> = {}): Node {
  let current: (Node & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    current = await secondApp(h, opts);
  });
  afterAll(async () => {
    const n = current;
    current = undefined;
    await n?.close();
  });
  const n = handle<Node>('useSecondApp', ['app', 'http'], () => current);
  n.baseUrl = () => {
    if (!current) throw new Error('useSecondApp.baseUrl() was called outside the tests');
    return current.baseUrl();
  };
  return n;
}
