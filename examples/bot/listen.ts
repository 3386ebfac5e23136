/**
 * The bot on its account feed (GET /v1/me/events, through EvonsClient.feed): one connection for
 * everything, with a player token (a bot account). It accepts the challenges of the games it has
 * a deck for (Evons, UniVersus: the strategy must play them) and declines the others with a reason key; it plays every match the feed says waits for it
 * (`your-turn`, and in the snapshot the running matches with `yourTurn`) and reads each one the
 * feed says ended (`match-ended`); it accepts rematch offers of those games. The feed resumes by itself after a cut, so the bot runs until its signal aborts.
 */
import {
  EvonsProblem,
  type Challenge,
  type DeclineReason,
  type DeckSpec,
  type EvonsClient,
  type MatchView,
} from '../../clients/typescript/src/index.js';
import { SeatPlayer } from './play.js';
import type { AnyStrategy } from './strategy.js';

export interface ListenOptions {
  /** The strategy for a new match (one per match: its dice are its own). */
  strategy: (matchId: string) => AnyStrategy;
  /** The deck it accepts a challenge of each game with (by gameId); a game without one is declined. */
  decks: Partial<Record<string, DeckSpec>>;
  /** Stops the bot: the feed closes; the decisions under way finish first. */
  signal?: AbortSignal;
  /** One line per thing the bot does (accepted, declined, a match over). */
  log?: (line: string) => void;
  /** Told once the first snapshot is answered: from then on every challenge reaches the bot as an entry. */
  onReady?: () => void;
  /** Told when a match it played is over, with the final match. */
  onMatchEnd?: (match: MatchView) => void;
}

/** Why a challenge is declined (a lichess reason key), or null when the bot accepts it. */
export function declineReason(c: Challenge, decks: ListenOptions['decks']): DeclineReason | null {
  if (!decks[c.game]) return 'variant'; // a game it was given no deck (nor strategy) for
  // A live clock: the greedy strategy thinks for seconds in a long chain, and a feed answers in
  // its own time; correspondence and untimed matches are safe.
  if (c.timeControl.kind === 'live') return 'tooFast';
  return null;
}

/** Runs the bot on `client`'s account feed (the client must hold a player token) until `opts.signal` aborts. */
export async function listen(client: EvonsClient, opts: ListenOptions): Promise<void> {
  const log = opts.log ?? (() => undefined);
  const seats = new Map<string, SeatPlayer>();
  /** Per match: the run under way, and whether the feed said "your turn" again meanwhile. */
  const running = new Map<string, { again: boolean; done: Promise<void> }>();
  const answered = new Set<string>();
  /** Matches whose end was reported (the bot's own last move, and then the feed's match-ended, both see it). */
  const over = new Set<string>();
  let ready = false;

  /** Plays `matchId` while it waits for this bot; a your-turn arriving during a run makes it look again. */
  const wake = (matchId: string): void => {
    const run = running.get(matchId);
    if (run) {
      run.again = true;
      return;
    }
    const state = { again: true, done: Promise.resolve() };
    running.set(matchId, state);
    state.done = (async () => {
      try {
        let seat = seats.get(matchId);
        if (!seat)
          seats.set(matchId, (seat = new SeatPlayer(client, matchId, opts.strategy(matchId), opts.signal ? { signal: opts.signal } : {})));
        while (state.again && !opts.signal?.aborted) {
          state.again = false;
          const m = await seat.playWhileMine();
          if (m.status === 'finished') {
            seats.delete(matchId);
            if (over.has(matchId)) break;
            over.add(matchId);
            opts.onMatchEnd?.(m);
            log(
              `match ${matchId} over: ${m.winner === null ? 'drawn' : m.winner === m.seat ? 'won' : 'lost'} (${m.outcome?.reason ?? 'finished'}) after ${seat.decisions} decisions`,
            );
            break;
          }
        }
      } catch (err) {
        // One match failing (another game, a network outage longer than the retries) does not stop
        // the bot: the next your-turn of that match tries again.
        if (!opts.signal?.aborted) log(`match ${matchId}: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        running.delete(matchId);
      }
    })();
  };

  const answer = async (c: Challenge): Promise<void> => {
    // The snapshot and an entry may both show one challenge: answer it once.
    if (answered.has(c.id)) return;
    answered.add(c.id);
    const reason = declineReason(c, opts.decks);
    try {
      if (reason) {
        await client.declineChallenge(c.id, reason);
        log(`declined challenge ${c.id} from ${c.challenger.handle} (${reason})`);
      } else {
        const { match } = await client.acceptChallenge(c.id, { deck: opts.decks[c.game]! });
        log(`accepted challenge ${c.id} from ${c.challenger.handle}: match ${match.id}, playing ${match.seat}`);
        // The feed's your-turn says when to move; nothing to do until then.
      }
    } catch (err) {
      // Cancelled, declined or expired meanwhile: nothing to answer any more.
      if (err instanceof EvonsProblem && err.code === 'challenge-closed') log(`challenge ${c.id} closed before the answer`);
      else throw err;
    }
  };

  try {
    for await (const m of client.feed(opts.signal ? { signal: opts.signal } : {})) {
      switch (m.type) {
        case 'snapshot':
          for (const c of m.data.challenges.in) await answer(c);
          for (const x of m.data.matches) if (x.yourTurn) wake(x.matchId);
          if (!ready) opts.onReady?.();
          ready = true;
          break;
        case 'challenge-received':
          if (m.data.status === 'open') await answer(m.data);
          break;
        case 'your-turn':
          wake(m.data.matchId);
          break;
        case 'match-ended':
          // Ended by the other seat's move, a resignation or a clock: read it once to see how.
          if (!over.has(m.data.matchId)) wake(m.data.matchId);
          break;
        case 'rematch-offered':
          if (opts.decks[m.data.game]) {
            try {
              const joined = await client.acceptRematch(m.data.matchId);
              log(
                `accepted a rematch of ${m.data.matchId} from ${m.data.opponent ?? 'the opponent'}: match ${joined.id}, playing ${joined.seat}`,
              );
            } catch (err) {
              if (!(err instanceof EvonsProblem && err.conflict)) throw err;
            }
          }
          break;
        default:
          break;
      }
    }
  } finally {
    // Stopped (or the feed failed): let the decisions under way finish or see the abort.
    await Promise.all([...running.values()].map((r) => r.done));
  }
}
