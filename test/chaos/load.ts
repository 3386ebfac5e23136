/**
 * Load for the chaos suite: workers that create hot-seat matches and play random legal moves
 * (picked from legal-actions) with an Idempotency-Key each, retrying a failed move with the same
 * key and body; every acknowledged move is recorded for the checks afterwards.
 */
export interface Ack {
  match: string;
  token: string;
  key: string;
  body: string;
  version: number;
}

export interface LoadFigures {
  acknowledged: number;
  statuses: Record<string, number>;
  retryAfterOn503: boolean;
}

const STARTERS = ['starter-verdant-quake', 'starter-ember-tide'];

export class Load {
  acks: Ack[] = [];
  statuses: Record<string, number> = {};
  retryAfterMissing = 0;
  /** Start times of requests that got no answer (connection refused/reset). */
  unanswered: number[] = [];
  private running = false;
  private workers: Promise<void>[] = [];
  private n = 0;

  constructor(private base: () => string) {}

  private async call(
    method: string,
    path: string,
    token?: string,
    body?: string,
    key?: string,
  ): Promise<{ status: number; json: unknown; headers: Headers } | null> {
    const started = Date.now();
    try {
      const r = await fetch(this.base() + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(key ? { 'idempotency-key': key } : {}),
        },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      const text = await r.text();
      this.statuses[r.status] = (this.statuses[r.status] ?? 0) + 1;
      if (r.status === 503 && !r.headers.get('retry-after')) this.retryAfterMissing++;
      return { status: r.status, json: text ? JSON.parse(text) : null, headers: r.headers };
    } catch {
      this.statuses.network = (this.statuses.network ?? 0) + 1;
      this.unanswered.push(started);
      return null;
    }
  }

  private async worker(w: number): Promise<void> {
    type M = { id: string; tokens: Record<string, string> };
    let m = null as M | null;
    while (this.running) {
      if (!m) {
        const r = await this.call(
          'POST',
          '/v1/matches',
          undefined,
          JSON.stringify({ handle: `w${w}`, opponentHandle: 'bot', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } }),
        );
        if (r?.status === 201) m = r.json as M;
        else await pause(100);
        continue;
      }
      const view = await this.call('GET', `/v1/matches/${m.id}`);
      const pending = (view?.json as { game?: { pending?: { seat?: string }; result?: unknown } } | undefined)?.game;
      if (view?.status !== 200) {
        await pause(100);
        continue;
      }
      if (!pending?.pending?.seat) {
        m = null; // finished
        continue;
      }
      const token = m.tokens[pending.pending.seat]!;
      const legal = await this.call('GET', `/v1/matches/${m.id}/legal-actions`, token);
      const actions = (legal?.json as { actions?: { action: unknown }[] } | undefined)?.actions;
      if (legal?.status !== 200 || !actions?.length) {
        await pause(100);
        continue;
      }
      const body = JSON.stringify({ action: actions[Math.floor(Math.random() * actions.length)]!.action });
      const key = `k-${w}-${++this.n}`;
      // Retry the same key and body until it is answered one way or the other.
      for (let attempt = 0; attempt < 60; attempt++) {
        const r = await this.call('POST', `/v1/matches/${m.id}/actions`, token, body, key);
        if (r?.status === 200) {
          this.acks.push({ match: m.id, token, key, body, version: Number(r.headers.get('etag')?.replace(/"/g, '')) });
          break;
        }
        if (r && r.status !== 503 && r.status !== 429) break; // e.g. 409/422 after a race with ourselves: move on
        if (!this.running) break; // stopping: an unanswered move is not acknowledged, so not checked
        await pause(200);
      }
    }
  }

  start(workers = 4): void {
    this.running = true;
    for (let w = 0; w < workers; w++) this.workers.push(this.worker(w));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
    this.workers = [];
  }

  /** Every acknowledged move present; a retry with its key replays, applying nothing twice. */
  async verify(): Promise<{ lost: number; doubleApplied: number }> {
    let lost = 0;
    let doubleApplied = 0;
    for (const a of this.acks) {
      const before = await this.call('GET', `/v1/matches/${a.match}`);
      const v0 = (before?.json as { version?: number } | undefined)?.version ?? -1;
      if (v0 < a.version) lost++;
      const again = await this.call('POST', `/v1/matches/${a.match}/actions`, a.token, a.body, a.key);
      const after = await this.call('GET', `/v1/matches/${a.match}`);
      const v1 = (after?.json as { version?: number } | undefined)?.version ?? -1;
      if (again?.status !== 200 || again.headers.get('idempotent-replayed') !== 'true') lost++;
      if (v1 !== v0) doubleApplied++;
    }
    return { lost, doubleApplied };
  }
}

export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
