/**
 * The bystander: its own registered player, on its own loopback address, playing its own match
 * as fast as it can, one operation at a time. Each round it reads the match view with its seat
 * token (timed: "read"), asks for the legal actions of the seat to move (not timed) and posts a
 * random one that is not a resignation (timed: "move"); a finished match is replaced by a new one.
 *
 * Two variants: `ai` plays against the computer (level 1) and also times the computer's answer
 * (from its move's answer to the view showing the computer's decision: "ai"); `webhooks` gives
 * both seats a webhook to a fast receiver and times each delivery from the move's answer to its
 * arrival ("delivery").
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Samples } from '../../bench/lib/stats.js';
import { type Client, pause } from './client.js';
import { DECKS } from './fixtures.js';
import type { Receiver } from './receiver.js';

export interface PhaseFigures {
  read: Samples;
  move: Samples;
  ai: Samples;
  delivery: Samples;
  /** Operations that did not answer 2xx: "GET view 503", … */
  failed: string[];
  /**
   * The p99 delay of this (the test) process's event loop over the phase, ms: the attacker's
   * client shares it with the bystander's, so a large one means part of a slowdown is ours.
   */
  clientLoopP99: number;
}

type Seat = 'p1' | 'p2';
type View = { version: number; status: string; game: { pending: { seat: Seat } | null } };
interface Match {
  id: string;
  tokens: Partial<Record<Seat, string>>;
  mine: Seat;
}

export interface BystanderOptions {
  ai?: boolean;
  receiver?: Receiver;
}

export class Bystander {
  private match: Match | null = null;
  private playerToken = '';
  /** Move answers by `${matchId}:${version}` (performance.now), for the delivery delays. */
  private readonly acks = new Map<string, number>();

  constructor(
    readonly api: Client,
    private readonly opts: BystanderOptions = {},
  ) {}

  async init(handle: string): Promise<void> {
    this.playerToken = (await this.api.must<{ token: string }>('POST', '/v1/players', 201, { body: { handle } })).token;
  }

  private async newMatch(): Promise<Match> {
    if (this.opts.ai) {
      const r = await this.api.must<{ id: string; seat: Seat; token: string }>('POST', '/v1/matches', 201, {
        token: this.playerToken,
        body: { ai: { level: 1 }, decks: { p1: DECKS.p1 } },
      });
      return { id: r.id, tokens: { [r.seat]: r.token }, mine: r.seat };
    }
    const r = await this.api.must<{ id: string; tokens: Record<Seat, string> }>('POST', '/v1/matches', 201, {
      token: this.playerToken,
      body: { opponentHandle: 'bystander-friend', decks: DECKS },
    });
    const rx = this.opts.receiver;
    if (rx) {
      for (const seat of ['p1', 'p2'] as const) {
        await this.api.must('POST', `/v1/matches/${r.id}/webhooks`, 201, {
          token: r.tokens[seat],
          body: { url: rx.url(`/fast/${r.id}/${seat}`), events: ['your-turn'] },
        });
      }
    }
    return { id: r.id, tokens: r.tokens, mine: 'p1' };
  }

  /** Plays for `ms`, timing every operation. */
  async phase(ms: number): Promise<PhaseFigures> {
    const f: PhaseFigures = {
      read: new Samples(),
      move: new Samples(),
      ai: new Samples(),
      delivery: new Samples(),
      failed: [],
      clientLoopP99: Number.NaN,
    };
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const rx = this.opts.receiver;
    const firstArrival = rx?.fast.length ?? 0;
    const end = performance.now() + ms;
    while (performance.now() < end) {
      if (!this.match) this.match = await this.newMatch();
      const m = this.match;
      const read = await this.api.call('GET', `/v1/matches/${m.id}`, { token: m.tokens[m.mine] });
      if (read.status !== 200) {
        f.failed.push(`GET /v1/matches/{id} ${read.status} ${read.text.slice(0, 200)}`);
        await pause(50);
        continue;
      }
      f.read.add(read.ms);
      const v = read.body as View;
      const seat = v.game.pending?.seat;
      if (v.status !== 'active' || !seat) {
        this.match = null;
        continue;
      }
      const token = m.tokens[seat];
      if (!token) {
        // The computer's turn (a move of ours answered before its decision): wait for it.
        await pause(20);
        continue;
      }
      const legal = await this.api.call('GET', `/v1/matches/${m.id}/legal-actions`, { token });
      const actions = ((legal.body as { actions?: { action: { type: string } }[] } | null)?.actions ?? []).filter(
        (a) => a.action.type !== 'resign',
      );
      if (legal.status !== 200 || actions.length === 0) {
        if (legal.status !== 200) f.failed.push(`GET /v1/matches/{id}/legal-actions ${legal.status} ${legal.text.slice(0, 200)}`);
        this.match = null;
        continue;
      }
      const action = actions[Math.floor(Math.random() * actions.length)]!.action;
      const move = await this.api.call('POST', `/v1/matches/${m.id}/actions`, { token, body: { action } });
      if (move.status !== 200) {
        f.failed.push(`POST /v1/matches/{id}/actions ${move.status} ${move.text.slice(0, 200)}`);
        this.match = null;
        continue;
      }
      const acked = performance.now();
      f.move.add(move.ms);
      const version = (move.body as { version: number }).version;
      this.acks.set(`${m.id}:${version}`, acked);
      if (this.opts.ai) await this.awaitComputer(m, version, acked, f);
    }
    loop.disable();
    f.clientLoopP99 = Math.round(loop.percentile(99) / 1e5) / 10;
    if (rx) {
      // Deliveries of the phase's last moves: a moment to arrive.
      await pause(1_000);
      for (const a of rx.fast.slice(firstArrival)) {
        const acked = this.acks.get(`${a.matchId}:${a.version}`);
        if (acked !== undefined) f.delivery.add(Math.max(0, a.at - acked));
      }
    }
    return f;
  }

  /** After our move: until the computer has decided (the decision is ours again, or the match is over). */
  private async awaitComputer(m: Match, version: number, acked: number, f: PhaseFigures): Promise<void> {
    for (let i = 0; i < 2_000; i++) {
      const r = await this.api.call('GET', `/v1/matches/${m.id}`, { token: m.tokens[m.mine] });
      if (r.status !== 200) {
        f.failed.push(`GET /v1/matches/{id} (waiting for the computer) ${r.status} ${r.text.slice(0, 200)}`);
        return;
      }
      const v = r.body as View;
      if (v.status !== 'active') return;
      if (v.game.pending?.seat === m.mine) {
        // Our own decision still (a move that keeps it ours): nothing for the computer to answer.
        if (v.version > version) f.ai.add(performance.now() - acked);
        return;
      }
      await pause(15);
    }
    f.failed.push('the computer did not answer within 2,000 polls');
  }
}
