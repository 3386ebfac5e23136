/**
 * What one caller may read of a match: the match view (the game's view for that seat or a
 * spectator), the legal actions with their words, and the event log, each redacted by the
 * game's own rules.
 */
import type { Seat, Viewer } from '../../core/ruleset.js';
import type { AnyAction } from '../../games/registry.js';
import type { EventSource, MatchStatus, MatchStore } from '../../persistence/types.js';
import { isMatchRecord, publicRecord } from './match-log.js';
import { deadlineOf, remainingAt } from '../../core/clock.js';
import { sortKeys } from '../../core/hash.js';
import type { ActionSummary, ClockView, EventDto, LegalActionDto, LoadedMatch, MatchOutcome, MatchView } from './types.js';

/** How the match ended, if it has: the match's own ending (time, abort) or the game's result. */
export function outcomeOf(m: Pick<LoadedMatch, 'ruleset' | 'state' | 'end'>): MatchOutcome | null {
  if (m.end) return { winner: m.end.winner, reason: m.end.reason, seat: m.end.seat };
  const outcome = m.state ? m.ruleset.outcome(m.state) : null;
  return outcome ? { winner: outcome.winner, reason: outcome.reason } : null;
}

/** The clock at the read (a stopped clock, once the match is over, shows what was left). */
function clockView(m: LoadedMatch): ClockView | null {
  if (!m.clock) return null;
  const deadline = deadlineOf(m.clock);
  return {
    remainingMs: remainingAt(m.clock, m.at),
    running: m.clock.running?.seat ?? null,
    deadline: deadline === null ? null : new Date(deadline).toISOString(),
  };
}

/**
 * A game view whose settings are in one key order, whichever way the state was built: a match
 * replayed from PostgreSQL has its settings back from jsonb (keys reordered), one created here has
 * them as parsed. The same match at the same version then serialises to the same bytes (an
 * idempotent retry answers byte for byte from a view rebuilt from the log).
 */
function withSortedConfig<V>(view: V): V {
  const config = (view as { config?: unknown }).config;
  return config === undefined ? view : { ...view, config: sortedOnce(config) };
}

/** Sorted configs by the config object every state of a loaded match shares: sorted once per match, not per view. */
const SORTED_CONFIGS = new WeakMap<object, unknown>();

function sortedOnce(config: unknown): unknown {
  if (config === null || typeof config !== 'object') return config;
  let sorted = SORTED_CONFIGS.get(config);
  if (sorted === undefined) {
    sorted = sortKeys(config);
    SORTED_CONFIGS.set(config, sorted);
  }
  return sorted;
}

function statusOf(m: LoadedMatch, outcome: MatchOutcome | null): MatchStatus {
  return m.state || m.end ? (outcome ? 'finished' : m.row.status === 'waiting' ? 'waiting' : 'active') : 'waiting';
}

export function matchView(m: LoadedMatch): MatchView {
  const outcome = outcomeOf(m);
  const status = statusOf(m, outcome);
  return {
    id: m.row.id,
    gameId: m.ruleset.id,
    version: m.version,
    status,
    winner: outcome?.winner ?? null,
    seat: m.seat,
    seats: (['p1', 'p2'] as const).map((s) => {
      const r = m.row.seats.find((x) => x.seat === s);
      return { seat: s, handle: r?.handle ?? null, joined: !!r?.tokenHash, verified: !!r?.playerId, bot: r?.bot ?? false };
    }),
    sandbox: m.sandbox,
    engineVersion: m.row.engineVersion,
    rulesHash: m.row.rulesHash,
    cardSetId: m.row.cardSetId,
    createdAt: m.row.createdAt.toISOString(),
    timeControl: m.timeControl,
    rated: m.row.rated,
    clock: clockView(m),
    outcome,
    seed: outcome ? m.row.seed : null,
    rematch: rematchView(m),
    rematchOf: m.rematchOf ?? null,
    game: m.state ? withSortedConfig(m.ruleset.view(m.state, m.viewer)) : null,
  } as MatchView;
}

/** The last rematch offer as of the read: an unanswered one past its time shows as expired. */
export function rematchView(m: Pick<LoadedMatch, 'rematch' | 'at'>): MatchView['rematch'] {
  const r = m.rematch;
  if (!r) return null;
  const status = r.answer ?? (m.at >= r.expiresAt ? 'expired' : 'offered');
  return { offeredBy: r.offeredBy, status, expiresAt: new Date(r.expiresAt).toISOString(), matchId: r.matchId };
}

/**
 * An action's lean answer: the same status, winner, outcome and pending decision the match view
 * shows (pendingOf of it), without building the view.
 */
export function summaryOf(m: LoadedMatch, events: EventDto[]): ActionSummary {
  const outcome = outcomeOf(m);
  return {
    version: m.version,
    events,
    status: statusOf(m, outcome),
    winner: outcome?.winner ?? null,
    outcome,
    pending: waitingFor(outcome, () => (m.state ? m.ruleset.pendingView(m.state) : null)),
  };
}

/** The decision a match waits for: its game's, except that a match ended by a clock or an abort waits for nobody, whatever its game's state says. */
function waitingFor<P>(outcome: MatchOutcome | null, gamePending: () => P | null | undefined): P | null {
  return outcome ? null : (gamePending() ?? null);
}

/** waitingFor, read from a match view. */
export function pendingOf(view: MatchView): NonNullable<MatchView['game']>['pending'] | null {
  return waitingFor(view.outcome, () => view.game?.pending);
}

/** The caller's legal actions now; empty unless it is their decision in a running game. */
export function legalActions(m: LoadedMatch, opts: { text: boolean }): LegalActionDto[] {
  if (!m.state || !m.seat || outcomeOf(m) || m.row.status === 'waiting') return [];
  const actions = m.ruleset.legalActions(m.state, m.seat) as AnyAction[];
  if (!opts.text) return actions.map((action) => ({ action }));
  // Named only as far as this seat's own view names the cards.
  const describe = m.ruleset.actionDescriber(m.state, m.viewer);
  return actions.map((action) => ({ action, text: describe(action) }));
}

interface Logged {
  seq: number;
  source: EventSource;
  type: string;
  payload: unknown;
  actingSeat: Seat | string | null;
}

/** A stored record as `viewer` may see it; null when they see nothing of it. */
export function redact(m: Pick<LoadedMatch, 'ruleset'>, e: Logged, viewer: Viewer): EventDto | null {
  if (isMatchRecord(e)) {
    const r = publicRecord(e);
    return r && { seq: e.seq, actingSeat: (e.actingSeat as Seat | null) ?? null, source: 'match', event: r };
  }
  const r = m.ruleset.redactEvent(e.payload, viewer);
  if (r === null || r === undefined) return null;
  return { seq: e.seq, actingSeat: (e.actingSeat as Seat | null) ?? null, source: 'game', event: r as EventDto['event'] };
}

/** Events after `after`, redacted for the caller. `next` is the seq to pass as `after` next time. */
export async function eventPage(
  store: MatchStore,
  m: LoadedMatch,
  after: number,
  limit: number,
): Promise<{ events: EventDto[]; next: number; hasMore: boolean }> {
  // Up to the match's version only: a past view (time travel, version N) lists the events up to N.
  const upTo = Math.max(0, m.version - after);
  if (upTo === 0) return { events: [], next: after, hasMore: false };
  const stored = await store.loadEvents(m.row.id, { afterSeq: after, limit: Math.min(limit, upTo) + 1 });
  if (stored.length > upTo) stored.length = upTo;
  const hasMore = stored.length > limit;
  const page = stored.slice(0, limit);
  const events: EventDto[] = [];
  for (const e of page) {
    const d = redact(m, e, m.viewer);
    if (d) events.push(d);
  }
  return { events, next: page.at(-1)?.seq ?? after, hasMore };
}
