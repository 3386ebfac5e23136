/**
 * A GraphQL WebSocket (graphql-transport-ws, spoken by hand) from a chosen loopback address,
 * counting the bytes of every message it receives.
 */
import WebSocket from 'ws';

export interface WsMessage {
  type: string;
  id?: string;
  payload?: unknown;
  bytes: number;
}

export interface Socket {
  messages: WsMessage[];
  bytes(): number;
  closed: Promise<{ code: number; reason: string }>;
  isClosed(): boolean;
  send(msg: unknown): void;
  close(): void;
}

/** Opens the socket and completes connection_init (rejects when refused or closed first). */
export async function openSocket(base: string, localAddress: string, token?: string): Promise<Socket> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { localAddress });
  const messages: WsMessage[] = [];
  let total = 0;
  let closedFlag = false;
  const listeners: ((m: WsMessage) => void)[] = [];
  ws.on('message', (d: Buffer) => {
    total += d.length;
    const m = { ...(JSON.parse(String(d)) as Omit<WsMessage, 'bytes'>), bytes: d.length };
    messages.push(m);
    for (const l of listeners) l(m);
  });
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => {
      closedFlag = true;
      resolve({ code, reason: reason.toString() });
    }),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  const acked = new Promise<void>((resolve, reject) => {
    listeners.push((m) => m.type === 'connection_ack' && resolve());
    void closed.then((c) => reject(new Error(`closed before connection_ack: ${c.code} ${c.reason}`)));
  });
  ws.send(JSON.stringify({ type: 'connection_init', payload: token ? { authorization: `Bearer ${token}` } : {} }));
  await acked;
  return {
    messages,
    bytes: () => total,
    closed,
    isClosed: () => closedFlag,
    send: (msg) => ws.send(JSON.stringify(msg)),
    close: () => ws.close(1000),
  };
}

/** Resolves once `cond` holds (checked every 20 ms), or after `timeoutMs` (false then). */
export async function until(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
