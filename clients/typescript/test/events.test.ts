/**
 * Live events: the iterator over GET /v1/matches/{id}/stream resumes from the last seq it
 * delivered when the server cuts the connection or shuts down (a second node on the same
 * database takes over), so the caller sees the same events as the log, once each; it ends with
 * the game. The transport seam is tested with a fake one (what an SSE transport plugs into).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../../src/app.js';
import { openStore } from '../../../src/persistence/index.js';
import {
  EvonsClient,
  EvonsProblem,
  SseTransport,
  lines,
  type LiveItem,
  type LiveTransport,
  type MatchEvent,
  type OpenRequest,
  type Seat,
} from '../src/index.js';
import { serve, STARTERS, type Served } from './server.js';
import { memoryDatabase } from '../../../test/persistence/pglite-template.js';

async function hotSeat(baseUrl: string) {
  const p1 = new EvonsClient({ baseUrl, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
  const created = await p1.createMatch({
    handle: 'ann',
    opponentHandle: 'ben',
    decks: { p1: { starter: STARTERS[1] }, p2: { starter: STARTERS[2] } },
  });
  const p2 = new EvonsClient({ baseUrl, retry: { baseDelayMs: 5, maxDelayMs: 50 } }).useSeat(created.id, created.tokens.p2!, 'p2');
  return { id: created.id, clients: { p1, p2 } as Record<Seat, EvonsClient> };
}

/** The deciding seat takes its first legal action, `n` times. */
async function play(id: string, clients: Record<Seat, EvonsClient>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const v = await clients.p1.getMatch(id);
    if (v.status !== 'active') return;
    const seat = v.game!.pending!.seat;
    const legal = await clients[seat].legalActions(id);
    await clients[seat].act(id, legal.actions[0]!.action);
  }
}

/** Reads the iterator until it has delivered `seq` (or ended). */
async function readUntil(it: AsyncIterator<MatchEvent>, into: MatchEvent[], seq: number): Promise<void> {
  while ((into.at(-1)?.seq ?? 0) < seq) {
    const r = await it.next();
    if (r.done) return;
    into.push(r.value);
  }
}

async function fullLog(client: EvonsClient, id: string): Promise<MatchEvent[]> {
  const out: MatchEvent[] = [];
  for (let after = 0; ;) {
    const page = await client.eventPage(id, { after });
    out.push(...page.events);
    if (!page.hasMore) return out;
    after = page.next;
  }
}

describe('events(): the live stream, resumed', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('reconnects after the server drops the connection, from the last seq, and ends with the game', async () => {
    const { id, clients } = await hotSeat(s.baseUrl);
    const afters: number[] = [];
    const stream = clients.p1.events(id, { onConnect: (after) => afters.push(after) });
    const it = stream[Symbol.asyncIterator]();
    const got: MatchEvent[] = [];

    await play(id, clients, 3);
    await readUntil(it, got, (await clients.p1.getMatch(id)).version);
    const cut = got.at(-1)!.seq;
    expect(s.dropConnections()).toBeGreaterThan(0); // the stream's connection among them

    await play(id, clients, 3);
    await readUntil(it, got, (await clients.p1.getMatch(id)).version);
    expect(stream.connections).toBeGreaterThanOrEqual(2);
    expect(afters[0]).toBe(0);
    expect(afters[1]).toBe(cut); // resumed where it was cut

    await clients.p2.resign(id);
    for (let r = await it.next(); !r.done; r = await it.next()) got.push(r.value);
    // Every event of the log, once, in order: nothing lost at the cut, nothing repeated.
    expect(got).toEqual(await fullLog(clients.p1, id));
    expect(got.map((e) => e.event.type)).toContain('GameEnded');
  });

  it('over Server-Sent Events too: resumed after a cut from the last seq, the whole log once, ending with the game', async () => {
    const { id, clients } = await hotSeat(s.baseUrl);
    const sse = new EvonsClient({
      baseUrl: s.baseUrl,
      transport: (api) => new SseTransport(api),
      retry: { baseDelayMs: 5, maxDelayMs: 50 },
    });
    const stream = sse.events(id);
    const it = stream[Symbol.asyncIterator]();
    const got: MatchEvent[] = [];
    await play(id, clients, 3);
    await readUntil(it, got, (await clients.p1.getMatch(id)).version);
    expect(s.dropConnections()).toBeGreaterThan(0);
    await play(id, clients, 3);
    await readUntil(it, got, (await clients.p1.getMatch(id)).version);
    expect(stream.connections).toBeGreaterThanOrEqual(2);
    await clients.p2.resign(id);
    for (let r = await it.next(); !r.done; r = await it.next()) got.push(r.value);
    // A spectator's stream: the spectator's log (nobody's hand), whole and once.
    expect(got).toEqual(await fullLog(sse, id));
    // A finished match with nothing newer: the server's 204 ends the iteration at once.
    const rest = sse.events(id, { after: got.at(-1)!.seq });
    const after = await rest[Symbol.asyncIterator]().next();
    expect(after.done).toBe(true);
  });

  it('starts after `after`, and a refused stream is a typed problem', async () => {
    const { id, clients } = await hotSeat(s.baseUrl);
    await play(id, clients, 2);
    const version = (await clients.p1.getMatch(id)).version;
    const it = clients.p1.events(id, { after: version - 2 })[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value?.seq).toBe(version - 1);
    await it.return?.();

    const refused = clients.p1.events('no-such-match');
    const err = await refused[Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvonsProblem);
    expect(err).toMatchObject({ status: 404, code: 'match-not-found' });
  });

  it('an aborted signal ends the iteration quietly', async () => {
    const { id, clients } = await hotSeat(s.baseUrl);
    const ac = new AbortController();
    const got: number[] = [];
    for await (const e of clients.p1.events(id, { signal: ac.signal })) {
      got.push(e.seq);
      if (got.length === 3) ac.abort();
    }
    expect(got).toEqual([1, 2, 3]);
  });
});

describe('events(): a node shutting down hands the stream to another', () => {
  it('reconnects after {"end":"shutdown"} to the node that is still up, from the last seq', async () => {
    // Two nodes on one database; a client whose "load balancer" sends it to the live one.
    const opened = await openStore(memoryDatabase());
    const nodes = [await buildApp({ store: opened.store, logger: false }), await buildApp({ store: opened.store, logger: false })];
    const urls: string[] = [];
    for (const n of nodes) {
      await n.listen({ port: 0, host: '127.0.0.1' });
      urls.push(`http://127.0.0.1:${(n.server.address() as AddressInfo).port}`);
    }
    let live = 0;
    const balanced = (request: Request) => globalThis.fetch(new Request(request.url.replace(/^http:\/\/[^/]+/, urls[live]!), request));
    try {
      const { id, clients } = await hotSeat(urls[0]!);
      const watcher = new EvonsClient({ baseUrl: urls[0]!, fetch: balanced, retry: { baseDelayMs: 5, maxDelayMs: 50 } }).useSeat(
        id,
        clients.p1.tokenFor(id)!,
      );
      const afters: number[] = [];
      const stream = watcher.events(id, { onConnect: (a) => afters.push(a) });
      const it = stream[Symbol.asyncIterator]();
      const got: MatchEvent[] = [];
      await play(id, clients, 2);
      await readUntil(it, got, (await clients.p1.getMatch(id)).version);

      live = 1;
      await nodes[0]!.close(); // its streams end with {"end":"shutdown"}
      const other = {
        p1: new EvonsClient({ baseUrl: urls[1]! }).useSeat(id, clients.p1.tokenFor(id)!),
        p2: new EvonsClient({ baseUrl: urls[1]! }).useSeat(id, clients.p2.tokenFor(id)!),
      };
      await play(id, other, 2);
      await other.p2.resign(id);
      for (let r = await it.next(); !r.done; r = await it.next()) got.push(r.value);

      expect(afters).toHaveLength(2);
      expect(afters[1]).toBeGreaterThan(0);
      expect(got).toEqual(await fullLog(other.p1, id));
    } finally {
      for (const n of nodes) await n.close();
      await opened.close();
    }
  });
});

describe('EventStream over any transport', () => {
  const event = (seq: number): MatchEvent => ({ seq, actingSeat: null, source: 'game', event: { type: 'DrawSkipped', seat: 'p1' } });

  /** A scripted transport: each connection plays the next script; 'hang' never answers again. */
  function scripted(scripts: (LiveItem | 'hang' | 'throw')[][]) {
    const opened: OpenRequest[] = [];
    const transport: LiveTransport = {
      async *open(req) {
        opened.push(req);
        for (const step of scripts[opened.length - 1] ?? []) {
          if (step === 'throw') throw new TypeError('fetch failed');
          if (step === 'hang') {
            await new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason), { once: true }));
          } else yield step;
        }
      },
    };
    return { transport, opened };
  }

  const client = (transport: LiveTransport, extra: { streamIdleTimeoutMs?: number; streamReconnects?: number } = {}) =>
    new EvonsClient({ baseUrl: 'http://unused.invalid', transport: () => transport, retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...extra });

  it('resumes after a silent connection (no keep-alive), a network error and a retryable problem line; skips repeats', async () => {
    const retryable = {
      type: 'urn:evons:problem:database-unavailable',
      title: 'Database unavailable',
      status: 503,
      code: 'database-unavailable',
    };
    const { transport, opened } = scripted([
      [{ kind: 'event', event: event(1) }, { kind: 'keep-alive' }, { kind: 'event', event: event(2) }, 'hang'],
      [{ kind: 'event', event: event(2) }, { kind: 'event', event: event(3) }, 'throw'],
      [
        { kind: 'event', event: event(4) },
        { kind: 'error', problem: retryable },
      ],
      [
        { kind: 'event', event: event(5) },
        { kind: 'end', reason: 'finished' },
      ],
    ]);
    const got: number[] = [];
    for await (const e of client(transport, { streamIdleTimeoutMs: 30 }).events('m')) got.push(e.seq);
    expect(got).toEqual([1, 2, 3, 4, 5]);
    expect(opened.map((o) => o.after)).toEqual([0, 2, 3, 4]);
  });

  it('gives up after the configured reconnects when nothing arrives, and never retries a refusal', async () => {
    const dead = scripted([['throw'], ['throw'], ['throw']]);
    await expect(client(dead.transport, { streamReconnects: 2 }).events('m')[Symbol.asyncIterator]().next()).rejects.toThrow(
      'fetch failed',
    );
    expect(dead.opened).toHaveLength(3);

    const refused = scripted([
      [
        {
          kind: 'error',
          problem: { type: 'urn:evons:problem:invalid-token', title: 'Invalid seat token', status: 401, code: 'invalid-token' },
        },
      ],
    ]);
    await expect(client(refused.transport).events('m')[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: 'invalid-token' });
    expect(refused.opened).toHaveLength(1);
  });

  it('lines() splits NDJSON across chunk boundaries and CRLF', async () => {
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const part of ['{"a":', '1}\r\n\n{"b"', ':2}\n{"c":3}']) c.enqueue(enc.encode(part));
        c.close();
      },
    });
    const out: string[] = [];
    for await (const l of lines(body)) out.push(l);
    expect(out).toEqual(['{"a":1}', '', '{"b":2}', '{"c":3}']);
  });
});
