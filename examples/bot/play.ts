/**
 * Playing one seat of one match through the client, driven by the live stream: wait until the
 * match waits for this seat (EvonsClient.waitForMyTurn sleeps on the stream, so a
 * correspondence match can take days), catch up the event log, ask for the legal actions, let
 * the strategy choose, act. A 409 means the match moved meanwhile (a clock ran out, the other
 * seat resigned, another device acted): read it again and decide again.
 */
import { EvonsProblem, type EvonsAction, type EvonsClient, type MatchEvent, type MatchView, type TurnResult } from '../../clients/typescript/src/index.js';
import type { Strategy } from './strategy.js';

export interface PlayOptions {
  signal?: AbortSignal;
  /** Told about each decision (for a progress line). */
  onDecision?: (decision: number, action: { type: string }) => void;
}

/** Plays this client's seat of `matchId` to the end; returns the final match. */
export async function playMatch(client: EvonsClient, matchId: string, strategy: Strategy, opts: PlayOptions = {}): Promise<MatchView> {
  const events: MatchEvent[] = [];
  let decisions = 0;
  // The match as the last action left it: when it is still this seat's decision (a turn holds
  // several), there is nothing to wait for.
  let known: MatchView | null = null;
  const stillMine = (m: MatchView | null): m is MatchView => m?.status === 'active' && m.game?.pending?.seat === m.seat;
  for (;;) {
    const turn: TurnResult = stillMine(known) ? { myTurn: true, match: known } : await client.waitForMyTurn(matchId, opts.signal ? { signal: opts.signal } : {});
    known = null;
    if (!turn.myTurn) return turn.match;
    if (turn.match.gameId !== 'evons' || !turn.match.game) throw new Error(`match ${matchId} is a game of ${turn.match.gameId}; this bot plays Evons`);
    // The log so far, as this seat may see it: only what is new since the last decision.
    for (let page = await client.eventPage(matchId, { after: events.at(-1)?.seq ?? 0 }); ; page = await client.eventPage(matchId, { after: page.next })) {
      events.push(...page.events);
      if (!page.hasMore) break;
    }
    const legal = await client.legalActions(matchId);
    // Moved between the two reads (the view and the list must describe the same position).
    if (legal.version !== turn.match.version || legal.actions.length === 0) continue;
    const action = strategy.choose({ view: turn.match.game, legal: legal.actions.map((a) => a.action as EvonsAction), events });
    try {
      // If-Match: the version read above, so a decision on a stale position is refused.
      known = (await client.act(matchId, action, { version: turn.match.version })).match;
      opts.onDecision?.(++decisions, action);
    } catch (err) {
      if (err instanceof EvonsProblem && err.conflict) continue;
      throw err;
    }
  }
}
