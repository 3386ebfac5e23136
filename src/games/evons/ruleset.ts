/**
 * Evons as a hosted game: the engine's functions behind the game-agnostic Ruleset contract
 * (src/core/ruleset.ts), so generic code (registry, conformance tests, later the service) can
 * drive it like any other game. Nothing here adds rules; it only adapts names and shapes.
 */
import type { CardSetInfo, Ruleset, StarterDeck } from '../../core/ruleset.js';
import { ActionSchema, type Action } from './actions.js';
import { validateDeck, type CardDef } from './cards.js';
import { RulesConfigSchema, type RulesConfig } from './config.js';
import { defaultCardSet } from './data/index.js';
import { actionDescriber } from './describe.js';
import { cloneState } from './clone.js';
import { evolveOwned } from './evolve.js';
import type { GameEvent } from './events.js';
import { pendingDecision } from './flow.js';
import { legalActions } from './legal.js';
import { apply } from './apply.js';
import { createFromPosition, toPosition } from './position.js';
import { randomPlayer } from './random-player.js';
import { replay } from './replay.js';
import { evaluate, sampler } from './sample.js';
import { createGame } from './setup.js';
import type { GameState } from './state.js';
import { ENGINE_VERSION, RULES_VERSION, CURRENT_GENERATOR, rulesHash } from './version.js';
import { view, type GameView } from './view.js';
import { eventVisibility, redactEvent } from './visibility.js';

const cardSet = defaultCardSet();

const cardSetInfo: CardSetInfo<CardDef> = {
  id: cardSet.id,
  name: cardSet.name,
  hash: cardSet.hash,
  placeholder: cardSet.placeholder,
  cards: [...cardSet.byId.values()],
};

const starterDecks: StarterDeck[] = cardSet.file.starterDecks.map((d) => ({ id: d.id, name: d.name, cards: d.cards }));

export const evons: Ruleset<GameState, Action, GameEvent, GameView, RulesConfig> = {
  id: 'evons',
  name: 'Evons',
  rulesVersion: RULES_VERSION,
  engineVersion: ENGINE_VERSION,
  generator: CURRENT_GENERATOR,
  configSchema: RulesConfigSchema,
  actionSchema: ActionSchema,
  cardSet: cardSetInfo,
  starterDecks,
  validateDeck: (cards) => {
    const r = validateDeck(cardSet, cards);
    return r.ok ? [] : r.errors;
  },
  create: ({ config, decks, seed, generator }) => createGame({ cardSet, config, decks, seed, rng: generator ?? CURRENT_GENERATOR }),
  rulesHash: (config, generator) => rulesHash(config, cardSet, generator === undefined ? CURRENT_GENERATOR : generator),
  positions: {
    format: 'evons-position/1',
    fromPosition: (position, seed) => createFromPosition(cardSet, position, seed),
    toPosition,
  },
  pending: (state) => {
    const d = pendingDecision(state);
    return d ? { seat: d.seat, kind: d.kind } : null;
  },
  outcome: (state) => (state.result ? { winner: state.result.winner, reason: state.result.reason } : null),
  legalActions,
  apply: (state, seat, action) => apply(state, seat, action),
  replay: (events) => replay(events, cardSet),
  evolve: (state, events) => {
    const next = cloneState(state);
    const owned = new Set<object>(); // the copy shares its lists and board cards with `state`
    for (const e of events) evolveOwned(next, e, owned);
    return next;
  },
  view,
  pendingView: (state) => pendingDecision(state),
  eventVisibility,
  redactEvent,
  actionDescriber,
  randomPlayer,
  hiddenInformation: { sampler: sampler(cardSet), evaluate },
};
