/**
 * The Evons rules engine: pure, deterministic, no I/O. Same events in, same state out.
 *
 *   const { state, events } = createGame({ cardSet, config, decks, seed });
 *   legalActions(state, 'p1');            // what p1 may do now
 *   const r = apply(state, 'p1', action); // { ok, state, events } or { ok: false, error }
 *   replay(allEvents, cardSet);           // deep-equals the live state
 *   view(state, 'p2'); redactEvent(e, 'spectator');
 *
 * This is the surface callers use; board geometry is grouped as `board`, and the rest of the
 * folder (flow, sequence, abilities, tx) is internal.
 */
export { evons } from './ruleset.js';
export { ENGINE_VERSION, RULES_VERSION, CURRENT_GENERATOR, rulesHash } from './version.js';
export type { GeneratorId } from '../../core/random.js';
export * as board from './board.js';

// Cards, decks and settings.
export { loadCardSet, validateDeck, expandDeckList } from './cards.js';
export type { CardSet, CardDef, DeckList } from './cards.js';
export { defaultCardSet } from './data/index.js';
export { RulesConfigSchema, DEFAULT_CONFIG, parseConfig } from './config.js';
export type { RulesConfig, RulesConfigInput } from './config.js';

// Playing: create, decide, apply, replay.
export { ActionSchema } from './actions.js';
export type { Action } from './actions.js';
export type { GameEvent } from './events.js';
export type { Decision } from './decisions.js';
export type { GameState, Seat } from './state.js';
export type { ErrorCode, RuleError } from './errors.js';
export { createGame, dealCards, seedCommitment } from './setup.js';
export { apply } from './apply.js';
export { legalActions } from './legal.js';
export { pendingDecision } from './flow.js';
export { replay } from './replay.js';
/** For catch-up: folding newer events into a cached state (a copy, never the cached one). */
export { evolve } from './evolve.js';
export { cloneState } from './clone.js';

// What each viewer may see.
export { view, cardFace } from './view.js';
export type { GameView } from './view.js';
export { redactEvent, eventVisibility } from './visibility.js';
export type { Viewer } from './visibility.js';
export { actionDescriber, describeAction } from './describe.js';

// Positions and players.
export { PositionSchema, toPosition, stateFromPosition, createFromPosition } from './position.js';
export type { PositionData } from './position.js';
export { randomPlayer, seededPick } from './random-player.js';
