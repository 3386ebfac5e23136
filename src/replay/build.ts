/**
 * Writing `match-replay/1` files from a match's stored log (src/replay/replay-file.ts), and
 * recovering the seats' actions from the log when they were not stored.
 */
import { canonicalJson, sha256Hex } from '../core/hash.js';
import type { TimeControl } from '../core/clock.js';
import type { GeneratorId } from '../core/random.js';
import type { AnyRuleset, Seat, Viewer } from '../core/ruleset.js';
import { isMatchRecord, publicRecord, type EventSource } from '../core/match-records.js';
import { REPLAY_FORMAT, type ReplayAction, type ReplayEvent, type ReplayFile, type ReplayOutcome } from './replay-file.js';

/** One stored record: a game event whole (as the engine produced it) or one of the match's own records. */
export interface LoggedEvent {
  seq: number;
  source: EventSource;
  actingSeat: Seat | null;
  event: { type: string; [k: string]: unknown };
}

export interface BuildReplayInput {
  ruleset: AnyRuleset;
  config: unknown;
  seed: string;
  /** Card ids per seat as dealt; null for a sandbox (then `position`). */
  decks: Record<Seat, string[]> | null;
  position?: unknown;
  /** The accepted actions in order (from the store, or recovered with `recoverActions`). */
  actions: ReplayAction[];
  /** The whole stored log, in seq order. */
  log: readonly LoggedEvent[];
  reader: Viewer;
  players: ReplayFile['players'];
  createdAt: string;
  finishedAt: string | null;
  outcome: ReplayOutcome | null;
  timeControl?: TimeControl;
  /** The hash the match was pinned to (default: recomputed from the config and the opening's generator). */
  rulesHash?: string;
  engineVersion?: string;
}

/** The generator the opening event names: absent means the legacy sfc32; a sandbox has none. */
export function generatorOf(opening: Record<string, unknown> | undefined): GeneratorId | null {
  if (!opening) return null;
  if (opening.type === 'PositionLoaded' && opening.rng === undefined) return null;
  const rng = opening.rng;
  return rng === 'chacha20' || rng === 'sfc32' ? rng : 'sfc32';
}

/** The log as `reader` may see it: game events redacted by the game, the match's own records in their public form. */
export function redactLog(ruleset: AnyRuleset, log: readonly LoggedEvent[], reader: Viewer): ReplayEvent[] {
  const out: ReplayEvent[] = [];
  for (const e of log) {
    const r = isMatchRecord(e)
      ? publicRecord({ source: e.source, type: e.event.type, payload: e.event })
      : ruleset.redactEvent(e.event, reader);
    // A JSON round trip, so the file holds what a reader of the API would get (no undefined fields).
    if (r)
      out.push({ seq: e.seq, actingSeat: e.actingSeat, source: e.source, event: JSON.parse(JSON.stringify(r)) as ReplayEvent['event'] });
  }
  return out;
}

/** A replay file for `reader`; the seed, decks, position and actions only when the match is over. */
export function buildReplay(i: BuildReplayInput): ReplayFile {
  const r = i.ruleset;
  const over = i.outcome !== null;
  const opening = i.log.find((e) => !isMatchRecord(e))?.event;
  const seedCommitment = typeof opening?.seedCommitment === 'string' ? opening.seedCommitment : '';
  return {
    format: REPLAY_FORMAT,
    game: r.id,
    rulesVersion: r.rulesVersion,
    engineVersion: i.engineVersion ?? (typeof opening?.engineVersion === 'string' ? opening.engineVersion : r.engineVersion),
    rulesHash: i.rulesHash ?? r.rulesHash(i.config, generatorOf(opening)),
    settings: i.config,
    timeControl: i.timeControl ?? { kind: 'none' },
    cardSet: { id: r.cardSet.id, hash: r.cardSet.hash },
    players: i.players,
    createdAt: i.createdAt,
    finishedAt: i.finishedAt,
    outcome: i.outcome,
    // Every opening carries it except a UniVersus sandbox's (inside its server-only state).
    seedCommitment: seedCommitment || sha256Hex(i.seed),
    seed: over ? i.seed : null,
    decks: over && i.decks ? { p1: [...i.decks.p1], p2: [...i.decks.p2] } : null,
    ...(over && i.position !== undefined && i.position !== null ? { position: i.position } : {}),
    actions: over ? i.actions.map((a) => ({ seat: a.seat, action: { ...a.action } })) : null,
    reader: i.reader,
    events: redactLog(r, i.log, i.reader),
  };
}

export type RecoverResult = { ok: true; actions: ReplayAction[] } | { ok: false; seq: number; reason: string };

/**
 * The actions that produced a stored log, for matches whose actions were not stored: from the
 * state before each run of a seat's events, the action among that seat's legal ones (and
 * `extraCandidates`, e.g. Evons' unlisted `resign`) whose events are the log's next events.
 * When several fit, the one accounting for the most events is taken. The verifier trusts none of
 * this: a wrong recovery only makes the file fail verification.
 */
export function recoverActions(
  ruleset: AnyRuleset,
  log: readonly LoggedEvent[],
  extraCandidates: readonly { type: string }[] = [{ type: 'resign' }],
): RecoverResult {
  const game = log.filter((e) => !isMatchRecord(e));
  let n = 0;
  while (n < game.length && game[n]?.actingSeat === null) n++;
  if (n === 0) return { ok: false, seq: game[0]?.seq ?? 0, reason: 'the log does not open the game' };
  let state: unknown = ruleset.replay(game.slice(0, n).map((e) => e.event));
  const actions: ReplayAction[] = [];
  const key = (e: unknown): string => canonicalJson(JSON.parse(JSON.stringify(e)));
  while (n < game.length) {
    const next = game[n] as LoggedEvent;
    const seat = next.actingSeat;
    if (seat === null) return { ok: false, seq: next.seq, reason: 'an event no action produced, after the deal' };
    let best: { action: { type: string }; state: unknown; count: number } | null = null;
    for (const action of [...(ruleset.legalActions(state, seat) as { type: string }[]), ...extraCandidates]) {
      const res = ruleset.apply(state, seat, action);
      if (!res.ok || res.events.length === 0 || n + res.events.length > game.length) continue;
      const fits = (res.events as unknown[]).every((e, k) => {
        const stored = game[n + k] as LoggedEvent;
        return stored.actingSeat === seat && key(e) === key(stored.event);
      });
      if (fits && (!best || res.events.length > best.count)) best = { action, state: res.state, count: res.events.length };
    }
    if (!best) return { ok: false, seq: next.seq, reason: `no action of ${seat} produces the events from seq ${next.seq}` };
    actions.push({ seat, action: JSON.parse(JSON.stringify(best.action)) as ReplayAction['action'] });
    state = best.state;
    n += best.count;
  }
  return { ok: true, actions };
}
