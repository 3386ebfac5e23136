/**
 * One match as a `match-replay/1` file (src/replay) for the caller: every event as the caller may
 * see it and, once the match is over, the seed, the deck lists and the actions, so that anyone can
 * re-deal and replay it (`npm run verify`). The actions are recovered from the stored log.
 */
import { LRUCache } from 'lru-cache';
import type { Seat } from '../../core/ruleset.js';
import type { MatchStore } from '../../persistence/types.js';
import { buildReplay, recoverActions, type LoggedEvent } from '../../replay/build.js';
import { ReplayFileSchema, type ReplayFile } from '../../replay/replay-file.js';
import { ServiceError } from '../errors.js';
import { gameRecords, openingOf } from './match-log.js';
import { outcomeOf } from './reads.js';
import type { LoadedMatch } from './types.js';

export async function exportMatch(store: MatchStore, m: LoadedMatch): Promise<ReplayFile> {
  const stored = await store.loadEvents(m.row.id, { limit: m.version });
  const log: LoggedEvent[] = stored.map((e) => ({
    seq: e.seq,
    source: e.source,
    actingSeat: (e.actingSeat as Seat | null) ?? null,
    event: e.payload as LoggedEvent['event'],
  }));
  const outcome = outcomeOf(m);
  let actions: ReturnType<typeof recoverActions> = { ok: true, actions: [] };
  if (outcome && m.state) {
    actions = recoverActions(m.ruleset, log);
    if (!actions.ok) {
      throw new ServiceError({
        kind: 'unavailable',
        code: 'export-unavailable',
        title: 'Export unavailable',
        detail: `The actions of this match could not be recovered (${actions.reason}).`,
      });
    }
  }
  const opening = openingOf(stored);
  const firstGameEvent = gameRecords(stored)[0]?.payload as { type?: string; position?: unknown } | undefined;
  const position = m.sandbox ? (opening?.position ?? m.ruleset.positions.toPosition(m.ruleset.replay([firstGameEvent]))) : undefined;
  // An ending outside the game (a timeout, an abort) carries its own time: a timeout found after
  // downtime ended at its deadline, not when it was written.
  const lastAt = m.end ? new Date(m.end.at) : (stored.at(-1)?.createdAt ?? m.row.updatedAt);
  return buildReplay({
    ruleset: m.ruleset,
    config: m.row.config,
    seed: m.row.seed,
    decks: m.sandbox ? null : m.row.decks,
    ...(position !== undefined ? { position } : {}),
    actions: actions.ok ? actions.actions : [],
    log,
    reader: m.viewer,
    players: m.row.seats.map((s) => ({ seat: s.seat, handle: s.handle, verified: !!s.playerId })),
    createdAt: m.row.createdAt.toISOString(),
    finishedAt: outcome ? lastAt.toISOString() : null,
    outcome: outcome
      ? { winner: outcome.winner, reason: outcome.reason, ...(outcome.seat !== undefined ? { seat: outcome.seat } : {}) }
      : null,
    timeControl: m.timeControl,
    rulesHash: m.row.rulesHash,
    engineVersion: m.row.engineVersion,
  });
}

/** Bytes of finished matches' exports kept in memory per node. */
export const EXPORT_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Finished matches' exports as JSON text, by match, version and viewer: once a match is over its
 * file cannot change, and building one replays and re-checks every action (hundreds of times the
 * cost of a match view), so each is built once per node and viewer. Kept up to EXPORT_CACHE_BYTES.
 */
export class FinishedExports {
  private readonly texts = new LRUCache<string, string>({ maxSize: EXPORT_CACHE_BYTES, sizeCalculation: (t) => Math.max(1, t.length) });

  private keyOf(m: LoadedMatch): string | null {
    return outcomeOf(m) ? `${m.row.id}\0${m.version}\0${m.viewer}` : null;
  }

  /** The cached text, when this match is finished and its file was built here before. */
  cached(m: LoadedMatch): string | undefined {
    const key = this.keyOf(m);
    return key === null ? undefined : this.texts.get(key);
  }

  /** The file as JSON text (as the schema serialises it: its key order), kept when the match is finished. */
  async text(store: MatchStore, m: LoadedMatch): Promise<string> {
    const hit = this.cached(m);
    if (hit !== undefined) return hit;
    const text = JSON.stringify(ReplayFileSchema.parse(await exportMatch(store, m)));
    const key = this.keyOf(m);
    if (key !== null) this.texts.set(key, text);
    return text;
  }
}
