/**
 * Leak checks: given the server's true state, what a viewer must never see in any response —
 * deck cards (identity and order), the other seat's hand, the identity of covered cards they do
 * not own, and the seed before the game has ended.
 */
import { expect } from 'vitest';
import type { GameState, Viewer } from '../../../src/games/evons/index.js';
import { quotedIn } from './quoted.js';

export interface Secrets {
  viewer: Viewer;
  /** Card instance ids that must not appear at all. */
  hiddenIds: Set<string>;
  /** Covered cards on the board whose identity must not appear next to their id. */
  covered: Set<string>;
  /** The seed while the game runs; null once it has been published. */
  seed: string | null;
}

export function secretsFor(state: GameState, viewer: Viewer): Secrets {
  const hiddenIds = new Set<string>([...state.decks.p1, ...state.decks.p2]);
  for (const seat of ['p1', 'p2'] as const) if (seat !== viewer) for (const id of state.hands[seat]) hiddenIds.add(id);
  const covered = new Set<string>();
  for (const bc of state.board) {
    if (bc && bc.covered && state.cards[bc.id]?.owner !== viewer) covered.add(bc.id);
  }
  return { viewer, hiddenIds, covered, seed: state.result ? null : state.seed };
}

export function assertNoLeak(json: unknown, s: Secrets, label: string): void {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  if (s.seed) expect(text.includes(s.seed), `${label}: the seed leaked to ${s.viewer}`).toBe(false);
  const quoted = quotedIn(text);
  for (const id of s.hiddenIds) {
    if (quoted(id)) {
      throw new Error(`${label}: hidden card ${id} (deck or other hand) appears in a response to ${s.viewer}: ${excerpt(text, id)}`);
    }
  }
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const ref = [o.id, o.card].find((x) => typeof x === 'string' && s.covered.has(x));
    if (ref !== undefined) {
      const known = (k: string) => o[k] !== undefined && o[k] !== null;
      const leaks = known('defId') || known('name') || known('face');
      if (leaks) throw new Error(`${label}: identity of covered card ${String(ref)} shown to ${s.viewer}: ${JSON.stringify(o)}`);
    }
    Object.values(o).forEach(walk);
  };
  walk(typeof json === 'string' ? JSON.parse(json) : json);
}

function excerpt(text: string, needle: string): string {
  const i = text.indexOf(needle);
  return text.slice(Math.max(0, i - 120), i + 80);
}

/** Card ids an action refers to. */
function refs(action: unknown): string[] {
  if (!action || typeof action !== 'object') return [];
  const a = action as Record<string, unknown>;
  return [a.card, a.defender].filter((x): x is string => typeof x === 'string');
}

/**
 * A text shown to `s.viewer` about `action` (a legal action's text, an error message): it must
 * not carry a hidden id the caller did not send, nor name a card the action refers to whose
 * identity is hidden from the caller (the FLIP_OWNERSHIP leak: "Reveal Night Reaper" for a
 * covered card the caller controls but may not identify).
 */
export function assertTextSafe(state: GameState, s: Secrets, action: unknown, text: string, label: string): void {
  const sent = JSON.stringify(action ?? null);
  for (const id of s.hiddenIds) {
    if (text.includes(id) && !sent.includes(id)) throw new Error(`${label}: hidden card ${id} named to ${s.viewer}: ${text}`);
  }
  if (s.seed && text.includes(s.seed)) throw new Error(`${label}: the seed in a text for ${s.viewer}`);
  for (const id of refs(action)) {
    const inst = state.cards[id];
    if (!inst || !(s.hiddenIds.has(id) || s.covered.has(id))) continue;
    const def = state.cardSet.byId.get(inst.def)!;
    if (text.includes(def.name) || (!sent.includes(def.id) && text.includes(def.id))) {
      throw new Error(`${label}: ${s.viewer} may not know ${id}, but the text names it: ${text}`);
    }
  }
}
