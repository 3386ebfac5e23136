/**
 * WsSeat against the real service: a whole match played over one GraphQL WebSocket per seat
 * (each move one submitAction with the last version seen and a fresh idempotency key), an answer
 * lost with its connection resent on a new one with the same key (applied once, replayed), and
 * errors thrown as EvonsProblem with the service's codes. Node 20 has no global WebSocket: the
 * tests pass the `ws` package's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EvonsProblem, WsSeat, type WebSocketConstructor, type WsLegalAction } from '../src/index.js';
import { openAndJoin as openAndJoinAt, serve, type Served } from './server.js';

const webSocket = WebSocket as unknown as WebSocketConstructor;

/** A `ws` socket that loses the connection, once, when the answer to an action arrives (the server applied it). */
function losingFirstAnswer(): { impl: WebSocketConstructor; lost: () => number } {
  let armed = true;
  let lost = 0;
  class Lossy {
    private readonly ws: WebSocket;
    private dead = false;
    constructor(url: string, protocols?: string | string[]) {
      this.ws = new WebSocket(url, protocols);
    }
    get readyState(): number {
      return this.ws.readyState;
    }
    send(data: string): void {
      this.ws.send(data);
    }
    close(code?: number, reason?: string): void {
      this.ws.close(code, reason);
    }
    addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (e: never) => void): void {
      if (type !== 'message') {
        this.ws.addEventListener(type, listener as () => void);
        return;
      }
      this.ws.addEventListener('message', (e) => {
        // Nothing more arrives on a lost connection (what was already buffered included).
        if (this.dead) return;
        if (armed && String(e.data).includes('"submitAction"')) {
          armed = false;
          lost++;
          this.dead = true;
          this.ws.terminate();
          return;
        }
        (listener as (e: { data: unknown }) => void)(e);
      });
    }
  }
  return { impl: Lossy as unknown as WebSocketConstructor, lost: () => lost };
}

describe('WsSeat: playing over one GraphQL WebSocket per seat', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  const openAndJoin = () => openAndJoinAt(s.baseUrl);

  it('plays a whole match: one request per move, legal actions from the answer or from the other seat', async () => {
    const { id, clients } = await openAndJoin();
    const seats = { p1: clients.p1.connectWs(id, { webSocket }), p2: clients.p2.connectWs(id, { webSocket }) };
    try {
      const first = await seats.p1.decision();
      let seat = first.pending!.seat;
      let options: WsLegalAction[] = seat === 'p1' ? first.legalActions : (await seats.p2.decision()).legalActions;
      let status = first.status;
      let x = 7;
      const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
      // Uniformly random legal actions (resigning past 1,000, as a bound).
      for (let n = 0; status === 'active' && n < 1000; n++) {
        const choice = options[Math.floor(rand() * options.length)]!;
        const r = await seats[seat].act(choice.action);
        expect(r.replayed).toBe(false);
        expect(seats[seat].version).toBe(r.version);
        status = r.status;
        if (status !== 'active') {
          expect(r.pending).toBeNull();
          expect(r.outcome).not.toBeNull();
          break;
        }
        if (r.pending!.seat === seat) options = r.legalActions;
        else {
          expect(r.legalActions).toEqual([]);
          seat = r.pending!.seat;
          const d = await seats[seat].decision();
          expect(d.version).toBe(r.version);
          options = d.legalActions;
        }
      }
      if (status === 'active') status = (await seats[seat].resign()).status;
      expect(status).toBe('finished');
      expect((await clients.p1.getMatch(id)).status).toBe('finished');
      expect(seats.p1.connections).toBe(1);
      expect(seats.p2.connections).toBe(1);
    } finally {
      seats.p1.close();
      seats.p2.close();
    }
  });

  it('an answer lost with its connection: the action is sent again on a new connection with the same key, applied once', async () => {
    const { id, clients } = await openAndJoin();
    const lossy = losingFirstAnswer();
    const d = await clients.p1.connectWs(id, { webSocket }).decision();
    const seat = d.pending!.seat;
    const ws = clients[seat].connectWs(id, { webSocket: lossy.impl });
    try {
      const options = (await ws.decision()).legalActions;
      const r = await ws.act(options[0]!.action);
      expect(lossy.lost()).toBe(1);
      expect(ws.connections).toBe(2);
      expect(r.replayed).toBe(true);
      // Applied once: the match is at the answer's version.
      expect((await clients[seat].getMatch(id)).version).toBe(r.version);
    } finally {
      ws.close();
    }
  });

  it('errors are EvonsProblems with the service codes: version-conflict (the version learnt), an illegal action, a refused token', async () => {
    const { id, clients } = await openAndJoin();
    const p1 = clients.p1.connectWs(id, { webSocket });
    const p2 = clients.p2.connectWs(id, { webSocket });
    try {
      const d = await p1.decision();
      const seat = d.pending!.seat;
      const mover = seat === 'p1' ? p1 : p2;
      const other = seat === 'p1' ? p2 : p1;
      const options = (await mover.decision()).legalActions;
      // The other seat sends the deciding seat's action: the engine's reason, an illegal action.
      const illegal = await other.act(options[0]!.action).catch((e: unknown) => e);
      expect(illegal).toBeInstanceOf(EvonsProblem);
      expect((illegal as EvonsProblem).illegal).toBe(true);
      expect((illegal as EvonsProblem).status).toBe(422);
      const moved = await mover.act(options[0]!.action);
      // At a stale version: 409 version-conflict, and the seat learns the current version.
      const stale = await mover.act({ type: 'resign' }, { version: d.version }).catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(EvonsProblem);
      expect((stale as EvonsProblem).code).toBe('version-conflict');
      expect((stale as EvonsProblem).conflict).toBe(true);
      expect((stale as EvonsProblem).version).toBe(moved.version);
      expect(mover.version).toBe(moved.version);
      const refused = await new WsSeat({ baseUrl: s.baseUrl, matchId: id, token: 'not-a-token', webSocket })
        .decision()
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(EvonsProblem);
      expect(refused).toMatchObject({ status: 403, code: 'invalid-token' });
    } finally {
      p1.close();
      p2.close();
    }
  });
});
