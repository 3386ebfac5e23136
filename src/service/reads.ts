/**
 * What one caller may read of a match: the match view (the game's view for that seat or a
 * spectator), the legal actions with their words, and the event log, each redacted by the
 * game's own rules.
 */
import type { Seat, Viewer } from '../core/ruleset.js';
import type { AnyAction } from '../games/registry.js';
import type { MatchStatus, MatchStore } from '../persistence/types.js';
import { isOpening } from './match-log.js';
import type { EventDto, LegalActionDto, LoadedMatch, MatchView } from './types.js';

export function matchView(m: LoadedMatch): MatchView {
  const outcome = m.state ? m.ruleset.outcome(m.state) : null;
  const status: MatchStatus = m.state ? (outcome ? 'finished' : m.row.status === 'waiting' ? 'waiting' : 'active') : 'waiting';
  return {
    id: m.row.id,
    gameId: m.ruleset.id,
    version: m.version,
    status,
    winner: outcome?.winner ?? null,
    seat: m.seat,
    seats: (['p1', 'p2'] as const).map((s) => {
      const r = m.row.seats.find((x) => x.seat === s);
      return { seat: s, handle: r?.handle ?? null, joined: !!r?.tokenHash };
    }),
    sandbox: m.sandbox,
    engineVersion: m.row.engineVersion,
    rulesHash: m.row.rulesHash,
    cardSetId: m.row.cardSetId,
    createdAt: m.row.createdAt.toISOString(),
    game: m.state ? m.ruleset.view(m.state, m.viewer) : null,
  } as MatchView;
}

/** The caller's legal actions now; empty unless it is their decision in a running game. */
export function legalActions(m: LoadedMatch, opts: { text: boolean }): LegalActionDto[] {
  if (!m.state || !m.seat || m.ruleset.outcome(m.state) || m.row.status === 'waiting') return [];
  const actions = m.ruleset.legalActions(m.state, m.seat) as AnyAction[];
  if (!opts.text) return actions.map((action) => ({ action }));
  // Named only as far as this seat's own view names the cards.
  const describe = m.ruleset.actionDescriber(m.state, m.viewer);
  return actions.map((action) => ({ action, text: describe(action) }));
}

interface Logged {
  seq: number;
  type: string;
  payload: unknown;
  actingSeat: Seat | string | null;
}

/** A stored record as `viewer` may see it; null when they see nothing of it. */
export function redact(m: Pick<LoadedMatch, 'ruleset'>, e: Logged, viewer: Viewer): EventDto | null {
  if (isOpening(e)) return null;
  const r = m.ruleset.redactEvent(e.payload, viewer);
  if (r === null || r === undefined) return null;
  return { seq: e.seq, actingSeat: (e.actingSeat as Seat | null) ?? null, event: r as EventDto['event'] };
}

/** Events after `after`, redacted for the caller. `next` is the seq to pass as `after` next time. */
export async function eventPage(store: MatchStore, m: LoadedMatch, after: number, limit: number): Promise<{ events: EventDto[]; next: number; hasMore: boolean }> {
  const stored = await store.loadEvents(m.row.id, { afterSeq: after, limit: limit + 1 });
  const hasMore = stored.length > limit;
  const page = stored.slice(0, limit);
  const events: EventDto[] = [];
  for (const e of page) {
    const d = redact(m, e, m.viewer);
    if (d) events.push(d);
  }
  return { events, next: page.at(-1)?.seq ?? after, hasMore };
}
