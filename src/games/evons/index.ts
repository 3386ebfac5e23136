/**
 * The Evons rules engine: pure, deterministic, no I/O. Same events in, same state out.
 *
 *   const { state, events } = createGame({ cardSet, config, decks, seed });
 *   legalActions(state, 'p1');            // what p1 may do now
 *   const r = apply(state, 'p1', action); // { ok, state, events } or { ok: false, error }
 *   replay(allEvents, cardSet);           // deep-equals the live state
 *   view(state, 'p2'); redactEvent(e, 'spectator');
 */
export { ENGINE_VERSION, RULES_VERSION, CURRENT_GENERATOR, rulesHash } from './version.js';
export type { GeneratorId } from '../../core/random.js';
export * from './board.js';
export { loadCardSet, validateDeck, expandDeckList, CardSetSchema, DECK_SIZE, MAX_COPIES, ELEMENTS, ABILITIES, ARROW_TYPES } from './cards.js';
export type { CardSet, CardDef, MonsterDef, BlockCardDef, CardSetFile, Arrow, ArrowType, Ability, Element, DeckList } from './cards.js';
export { RulesConfigSchema, DEFAULT_CONFIG, parseConfig } from './config.js';
export type { RulesConfig, RulesConfigInput } from './config.js';
export { ActionSchema } from './actions.js';
export type { Action, ActionType } from './actions.js';
export type { GameEvent, EventType, DestroyCause } from './events.js';
export type { Decision } from './decisions.js';
export type { GameState, Seat, Step, GameResult, EndReason, BoardCard, Frame, CardInstance } from './state.js';
export { SEATS, other } from './state.js';
export { ERROR_CODES } from './errors.js';
export type { ErrorCode, RuleError } from './errors.js';
export { createGame, dealCards, seedCommitment } from './setup.js';
export type { CreateGameOptions, CreateResult, Deal } from './setup.js';
export { apply } from './apply.js';
export type { ApplyResult } from './apply.js';
export { legalActions } from './legal.js';
export { pendingDecision } from './flow.js';
export { replay } from './replay.js';
export { evolve } from './evolve.js';
export { cloneState } from './clone.js';
export { view } from './view.js';
export type { GameView, SeatView, CellView, BoardCardView, CardFaceView, CardRefView } from './view.js';
export { cardFace } from './view.js';
export { redactEvent, eventVisibility } from './visibility.js';
export type { Viewer, Visibility } from './visibility.js';
export { PositionSchema, toPosition, stateFromPosition, createFromPosition } from './position.js';
export type { Position, PositionData } from './position.js';
export { scores } from './stats.js';
export { actionDescriber, describeAction } from './describe.js';
export { randomPlayer, seededPick, RANDOM_PLAYER_CHAIN_LIMIT } from './random-player.js';
export { defaultCardSet, set00 } from './data/index.js';
