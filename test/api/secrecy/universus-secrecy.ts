/**
 * Leak oracle for UniVersus responses, from the server's true state and its raw event log.
 *
 * Unlike Evons, UniVersus cards move back from public zones into hidden ones (cycling shuffles
 * the discard into the deck, U-CYCLE-1), so "this id must never appear" only holds for ids the
 * viewer never legitimately saw. Two levels:
 * - everything (views, events, legal actions, errors): no id the viewer was never shown, no
 *   seed before the end, and no redacted event carrying its hidden part (another seat's drawn
 *   cards, a cycled deck's order, the deal, a position's true state);
 * - views (the current state only): no id now in a deck, removed, in momentum (face down,
 *   U-MOMENTUM-2) or in another seat's hand, whether or not it was once public.
 * What counts as shown comes from docs/universus.md (event visibility), not from the code.
 */
import type { App } from '../../../src/app.js';
import type { Seat, Viewer } from '../../../src/core/ruleset.js';
import type { UniversusEvent, UniversusState } from '../../../src/games/universus/index.js';
import { isOpening } from '../../../src/service/match/match-log.js';
import { quotedIn } from './quoted.js';

const SEATS = ['p1', 'p2'] as const;
/** Event types the rules document keeps from some or all viewers (the rest are public). */
const NOT_PUBLIC = new Set(['GameStarted', 'DeckCycled', 'PositionLoaded', 'CardsDrawn']);

export interface UvsSecrets {
  viewer: Viewer;
  /** Ids the viewer was never shown: must not appear in any response. */
  neverShown: Set<string>;
  /** Ids now in a hidden zone for the viewer: must not appear in a view of the current state. */
  hiddenNow: Set<string>;
  /** The seed while the game runs; null once the game is over. */
  seed: string | null;
}

/** A stored event as the store returns it (the opening record included). */
interface RawRecord {
  seq: number;
  source: 'game' | 'match';
  type: string;
  payload: unknown;
}

/** Ids in a state's public zones, plus `seat`'s own hand. */
function visibleIn(state: UniversusState, viewer: Viewer): string[] {
  const ids: string[] = [];
  for (const s of SEATS) {
    const p = state.players[s];
    ids.push(...p.discard, ...p.cardPool.map((e) => e.id), ...p.stage.map((e) => e.id));
    if (s === viewer) ids.push(...p.hand);
  }
  if (state.check) ids.push(state.check.id);
  if (state.attack) ids.push(state.attack.id);
  return ids;
}

/** Every id `viewer` has legitimately been shown, by the raw log (the rules' visibility, not the server's). */
export function shownTo(log: readonly RawRecord[], viewer: Viewer): Set<string> {
  const known = new Set<string>();
  for (const r of log) {
    if (isOpening(r)) continue;
    const e = r.payload as UniversusEvent;
    if (e.type === 'PositionLoaded') visibleIn(e.state, viewer).forEach((id) => known.add(id));
    else if (e.type === 'CardsDrawn') {
      if (e.seat === viewer) e.cards.forEach((c) => known.add(c.id));
    } else if (!NOT_PUBLIC.has(e.type)) {
      const o = e as unknown as Record<string, unknown>;
      for (const k of ['id', 'ids', 'toDiscard', 'toStage', 'eligible']) {
        const v = o[k];
        if (typeof v === 'string') known.add(v);
        if (Array.isArray(v)) v.forEach((x) => typeof x === 'string' && known.add(x));
      }
    }
  }
  return known;
}

export function uvsSecretsFor(state: UniversusState, log: readonly RawRecord[], viewer: Viewer): UvsSecrets {
  const shown = shownTo(log, viewer);
  const neverShown = new Set(Object.keys(state.cards).filter((id) => !shown.has(id)));
  const hiddenNow = new Set<string>();
  for (const s of SEATS) {
    const p = state.players[s];
    [...p.deck, ...p.removed, ...p.momentum].forEach((id) => hiddenNow.add(id));
    if (s !== viewer) p.hand.forEach((id) => hiddenNow.add(id));
  }
  return { viewer, neverShown, hiddenNow, seed: state.phase === 'OVER' ? null : state.seed };
}

function excerpt(text: string, needle: string): string {
  const i = text.indexOf(needle);
  return text.slice(Math.max(0, i - 160), i + 80);
}

/** A redacted event (anywhere in a response) that still carries its hidden part. */
function eventLeak(o: Record<string, unknown>, viewer: Viewer): string | null {
  switch (o.type) {
    case 'CardsDrawn':
      return o.seat !== viewer && o.cards !== undefined ? `another seat's drawn cards` : null;
    case 'DeckCycled':
      return o.deck !== undefined ? 'the order of a cycled deck (U-CYCLE-1)' : null;
    case 'GameStarted':
      return o.decks !== undefined || o.seed !== undefined ? 'the deal or the seed' : null;
    case 'PositionLoaded':
      return o.state !== undefined ? "the position's true state" : null;
    default:
      return null;
  }
}

/**
 * Checks one response (JSON text or value) for `s.viewer`. `view: true` when it is a view of the
 * current state (no events in it): then ids now hidden must not appear either.
 */
export function assertUvsNoLeak(json: unknown, s: UvsSecrets, label: string, opts: { view: boolean }): void {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  if (s.seed && text.includes(s.seed)) throw new Error(`${label}: the seed leaked to ${s.viewer} before the end`);
  const quoted = quotedIn(text);
  for (const id of s.neverShown) {
    if (quoted(id)) throw new Error(`${label}: card ${id}, never shown to ${s.viewer}, appears: ${excerpt(text, id)}`);
  }
  if (opts.view) {
    for (const id of s.hiddenNow) {
      if (quoted(id))
        throw new Error(`${label}: card ${id} (deck, removed, momentum or another hand) in a view for ${s.viewer}: ${excerpt(text, id)}`);
    }
  }
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const leak = eventLeak(o, s.viewer);
    if (leak) throw new Error(`${label}: an event shows ${s.viewer} ${leak}: ${JSON.stringify(o).slice(0, 300)}`);
    Object.values(o).forEach(walk);
  };
  walk(typeof json === 'string' ? JSON.parse(json) : json);
}

/** The true state and raw log of a match, straight from the server (the oracle). */
export async function uvsTruth(
  service: App['service'],
  id: string,
): Promise<{ state: UniversusState; log: RawRecord[]; secrets(viewer: Viewer): UvsSecrets }> {
  const state = (await service.load(id, undefined)).state as UniversusState;
  const log = await service.store.loadEvents(id);
  return { state, log, secrets: (viewer) => uvsSecretsFor(state, log, viewer) };
}

export const otherSeat = (s: Seat): Seat => (s === 'p1' ? 'p2' : 'p1');
