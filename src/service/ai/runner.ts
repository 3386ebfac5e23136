/**
 * Plays the computer's seats, on every node, off the request path: claim a decision that waits
 * for a computer player (the database hands each to one node, for a lease), build what that seat
 * may know (its view, its legal actions, the events it may see: never the full state), have a
 * worker decide, and append the decision as that seat with the claimed version expected, so a
 * decision is applied once whatever happens. A worker that fails or hangs gives the decision back
 * at once; after `maxAttempts` claims of one decision the computer resigns rather than stall the
 * match. A node killed mid-decision loses its claim when the lease runs out, and another node (or
 * the restarted one) takes it.
 */
import type { Seat } from '../../core/ruleset.js';
import type { AiClaim, AiStore } from '../../persistence/types.js';
import type { LiveUpdates } from '../live/live.js';
import type { MatchLoader, MatchEntry } from '../match/match-loader.js';
import { ClaimLoop } from '../claim-loop.js';
import { ServiceError } from '../errors.js';
import type { EventDto } from '../match/types.js';
import { aiLevelOf, AI_PLAYER_IDS, type AiLevel } from './players.js';

/** What a computer seat may know when it decides: no full state reaches a decider. */
export interface AiJob {
  game: string;
  seat: Seat;
  level: AiLevel;
  /**
   * The decision's own seed (src/service/ai/seed.ts: from the match's secret seed, its id and the
   * version): the same input decides the same way, and nobody can foresee it before the end.
   */
  seed: string;
  /** The game's view for this seat (ruleset.view(state, seat)). */
  view: unknown;
  /** The seat's legal actions now (never empty: it is the seat to move). */
  legal: unknown[];
  /** Every event of the match as this seat may see it, oldest first. */
  events: EventDto[];
}

export interface Decider {
  /** The action to play; rejects when the worker failed, hung past its limit, or was stopped. */
  decide(job: AiJob): Promise<unknown>;
  close(): Promise<void>;
}

export interface AiRunnerDeps {
  ai: AiStore;
  loader: MatchLoader;
  live: LiveUpdates;
  /** The seat's view, legal actions and events, from the match as loaded. */
  jobFor(entry: MatchEntry, seat: Seat, level: AiLevel): Promise<AiJob>;
  /** Appends `action` as the computer's seat, `version` expected (an idempotent retry by key). */
  play(matchId: string, seat: Seat, action: unknown, version: number): Promise<void>;
}

export interface AiRunnerOptions {
  /** This node's name in the claims (logs). */
  node: string;
  /** Decisions in flight at once on this node (the worker pool's size). */
  concurrency: number;
  /** How long a claim holds (more than the longest decision: a killed node's claims return after it). */
  leaseMs: number;
  /** Claims of one decision before the computer resigns instead (a worker crashed or hung each time). */
  maxAttempts: number;
  /** A look for due decisions this often, besides the appends' notifications (0: none). */
  pollMs: number;
  /** Live claims one owner may hold (AiStore.claim's perOwner; default: no cap). */
  perOwner?: number;
}

export interface AiLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export class AiRunner {
  private inFlight = 0;
  /** Claims (one at a time) and the decisions they started. */
  private readonly loop = new ClaimLoop(() => this.claimDue());
  private unwatch: (() => void) | null = null;
  /** Decisions made, resignations, failures on this node (tests and metrics). */
  readonly stats = { decided: 0, resigned: 0, failed: 0 };

  constructor(
    private readonly deps: AiRunnerDeps,
    private readonly decider: Decider,
    private readonly opts: AiRunnerOptions,
    private readonly log?: AiLog,
  ) {}

  async start(): Promise<void> {
    // Every append may leave a computer seat to move; the claim query is indexed and cheap.
    this.unwatch = await this.deps.live.watchAll(() => this.kick());
    this.loop.poll(this.opts.pollMs);
    this.kick();
  }

  /** Claim what is due, up to the free room (coalesced: one claim at a time). */
  kick(): void {
    this.loop.kick();
  }

  private async claimDue(): Promise<void> {
    const room = this.opts.concurrency - this.inFlight;
    if (room <= 0) return;
    let claims: AiClaim[];
    try {
      claims = await this.deps.ai.claim(AI_PLAYER_IDS, room, this.opts.leaseMs, this.opts.node, this.opts.perOwner);
    } catch (err) {
      this.log?.warn({ err }, 'computer players: claim failed');
      return;
    }
    for (const c of claims) this.run(c);
  }

  private run(c: AiClaim): void {
    this.inFlight++;
    this.loop.track(
      this.decideOne(c)
        .catch((err: unknown) => this.log?.warn({ err, matchId: c.matchId, version: c.version }, 'computer player: decision failed'))
        .finally(() => {
          this.inFlight--;
          this.kick();
        }),
    );
  }

  private async decideOne(c: AiClaim): Promise<void> {
    const level = aiLevelOf(c.playerId);
    const entry = await this.deps.loader.current(c.matchId);
    if (level === null || entry.version !== c.version || entry.row.status !== 'active' || entry.row.toMove !== c.seat) {
      await this.deps.ai.release(c.matchId, c.version);
      return;
    }
    if (c.attempts > this.opts.maxAttempts) {
      // Failed each time: end the match rather than leave the opponent waiting for ever.
      this.log?.warn(
        { matchId: c.matchId, version: c.version, attempts: c.attempts },
        'computer player resigns: no decision after repeated failures',
      );
      await this.deps.play(c.matchId, c.seat, { type: 'resign' }, c.version);
      this.stats.resigned++;
      await this.deps.ai.release(c.matchId, c.version);
      return;
    }
    let action: unknown;
    try {
      action = await this.decider.decide(await this.deps.jobFor(entry, c.seat, level));
    } catch (err) {
      if (this.loop.stopped) {
        // This node is stopping (the pool rejected the job): the decision goes back as it was.
        await this.deps.ai.release(c.matchId, c.version);
        return;
      }
      this.stats.failed++;
      this.log?.warn(
        { err, matchId: c.matchId, version: c.version, attempt: c.attempts },
        'computer player: the worker failed; the decision is claimed again',
      );
      // Give the claim back at once (its lease would hold it for nothing): the next claim counts one more attempt.
      await this.deps.ai.expire(c.matchId, c.version);
      this.kick();
      return;
    }
    try {
      await this.deps.play(c.matchId, c.seat, action, c.version);
    } catch (err) {
      // Moved on meanwhile (a resignation, a timeout): nothing to do. Refused: one attempt spent.
      const now = await this.deps.loader.current(c.matchId);
      if (now.version !== c.version) await this.deps.ai.release(c.matchId, c.version);
      else await this.deps.ai.expire(c.matchId, c.version);
      throw redacted(err);
    }
    this.stats.decided++;
    await this.deps.ai.release(c.matchId, c.version);
  }

  /** Resolves once nothing is claimed or deciding on this node. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  async stop(): Promise<void> {
    this.loop.stop();
    this.unwatch?.();
    this.unwatch = null;
    // Decisions in flight are rejected and given back, not waited for.
    await this.decider.close();
    await this.idle();
  }
}

/**
 * What the log may say of a refused decision: the problem's code, never its detail or errors,
 * which quote the action (a decider's action may carry what its seat sees, its own hand).
 */
function redacted(err: unknown): Error {
  if (err instanceof ServiceError) return new Error(`the computer's action was refused: ${err.code}`);
  // A database error's message may quote the statement's values, the action among them.
  const code = (err as { code?: unknown } | null)?.code;
  return new Error(
    `the computer's action could not be appended (${err instanceof Error ? err.name : typeof err}${typeof code === 'string' ? ` ${code}` : ''})`,
  );
}
