/**
 * Playing one seat of one match through the client. `playMatch` is driven by the match's live
 * stream: wait until the match waits for this seat (EvonsClient.waitForMyTurn sleeps on the
 * stream, so a correspondence match can take days), then play the seat's decisions. `SeatPlayer`
 * plays the decisions: catch up the event log, ask for the legal actions, let the strategy
 * choose, act, for as long as the match waits for this seat (a turn holds several decisions); the
 * account-feed mode (listen.ts) calls it when the feed says "your turn". A 409 means the match
 * moved meanwhile (a clock ran out, the other seat resigned, another device acted): read it again
 * and decide again. The match's game (Evons, UniVersus) is the strategy's to know: the view and
 * the actions pass through as the API gives them.
 */
import {
  EvonsProblem,
  type Action,
  type EvonsClient,
  type MatchEvent,
  type MatchView,
  type TurnResult,
} from '../../clients/typescript/src/index.js';
import { gamesOf, type AnyStrategy } from './strategy.js';

export interface PlayOptions {
  signal?: AbortSignal;
  /** Told about each decision (for a progress line). */
  onDecision?: (decision: number, action: { type: string }) => void;
}

const waitsFor = (m: MatchView): boolean => m.status === 'active' && !!m.seat && m.game?.pending?.seat === m.seat;

/** One seat of one match: its event log so far (what the strategy observes) and its decisions. */
export class SeatPlayer {
  private readonly events: MatchEvent[] = [];
  decisions = 0;

  constructor(
    private readonly client: EvonsClient,
    readonly matchId: string,
    private readonly strategy: AnyStrategy,
    private readonly opts: PlayOptions = {},
  ) {}

  /**
   * Plays this seat's decisions while the match waits for it; returns the match as it then is
   * (finished, or waiting for the other seat). `view`: a fresh read, if the caller has one.
   */
  async playWhileMine(view?: MatchView): Promise<MatchView> {
    const { client, matchId } = this;
    let m = view ?? (await client.getMatch(matchId, this.signal()));
    for (;;) {
      if (this.opts.signal?.aborted || !waitsFor(m)) return m;
      if (!m.game || !gamesOf(this.strategy).includes(m.gameId))
        throw new Error(`match ${matchId} is a game of ${m.gameId}; ${this.strategy.name} plays ${gamesOf(this.strategy).join(', ')}`);
      // The log so far, as this seat may see it: only what is new since the last decision.
      for (
        let page = await client.eventPage(matchId, { after: this.events.at(-1)?.seq ?? 0 });
        ;
        page = await client.eventPage(matchId, { after: page.next })
      ) {
        this.events.push(...page.events);
        if (!page.hasMore) break;
      }
      const legal = await client.legalActions(matchId);
      // Moved between the two reads (the view and the list must describe the same position).
      if (legal.version !== m.version || legal.actions.length === 0) {
        m = await client.getMatch(matchId, this.signal());
        continue;
      }
      const action = this.strategy.choose({ game: m.gameId, view: m.game, legal: legal.actions.map((a) => a.action), events: this.events });
      try {
        // If-Match: the version read above, so a decision on a stale position is refused.
        m = (await client.act(matchId, action as Action, { version: m.version, view: true, ...this.signal() })).match;
        this.decisions++;
        this.opts.onDecision?.(this.decisions, action);
      } catch (err) {
        if (!(err instanceof EvonsProblem && err.conflict)) throw err;
        m = await client.getMatch(matchId, this.signal());
      }
    }
  }

  private signal(): { signal?: AbortSignal } {
    return this.opts.signal ? { signal: this.opts.signal } : {};
  }
}

/** Plays this client's seat of `matchId` to the end, waiting on the match's stream; returns the final match. */
export async function playMatch(client: EvonsClient, matchId: string, strategy: AnyStrategy, opts: PlayOptions = {}): Promise<MatchView> {
  const seat = new SeatPlayer(client, matchId, strategy, opts);
  for (;;) {
    const turn: TurnResult = await client.waitForMyTurn(matchId, opts.signal ? { signal: opts.signal } : {});
    if (!turn.myTurn) return turn.match;
    const after = await seat.playWhileMine(turn.match);
    if (after.status === 'finished') return after;
  }
}
