/**
 * The pending decision of the state last asked about (or last made by a transaction). One move
 * asks for it several times (pending, the random player, apply's check), each a walk over arrows
 * and hands. A state handed out never changes again, except through the public `evolve`, which
 * forgets it here. One entry, compared by identity: cheaper than a map of states, and what one
 * move needs. Shared object: callers must not modify it.
 */
import type { Decision } from './decisions.js';
import type { GameState } from './state.js';

let state: GameState | null = null;
let decision: Decision | null = null;
/**
 * An ability decision's legal choices (legal.ts's AbilityChoice[]), once listed for the state
 * remembered. Untyped here: naming the type would import the ability modules, which import the
 * transaction and evolve, which import this (a cycle).
 */
let choices: readonly unknown[] | null = null;

/** The remembered decision of `s`, or undefined when `s` is not the state remembered. */
export function rememberedDecision(s: GameState): Decision | null | undefined {
  return s === state ? decision : undefined;
}

export function rememberDecision(s: GameState, d: Decision | null): void {
  state = s;
  decision = d;
  choices = null;
}

/** The ability choices listed for `s` (when `s` is the state remembered and they were listed). */
export function rememberedChoices<C>(s: GameState): C[] | null {
  return s === state ? (choices as C[] | null) : null;
}

/** Remembers `s`'s ability choices, when `s` is the state whose decision is remembered. */
export function rememberChoices(s: GameState, c: readonly unknown[]): void {
  if (s === state) choices = c;
}

/** `s` is about to change. */
export function forgetDecision(s: GameState): void {
  if (s === state) state = null;
}
