/** UniVersus (attack → block → damage) as a hosted game: the Ruleset the service registry lists. */
import { canonicalJson, sha256Hex } from '../../core/hash.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { UniversusAction } from './actions.js';
import { actionSchema } from './actions.js';
import { apply } from './apply.js';
import { cardSet, starterDecks } from './cards/index.js';
import { configSchema, storedConfig, type UniversusConfig } from './config.js';
import { describeAction } from './describe.js';
import type { UniversusEvent } from './events.js';
import { cloneState, evolveDraft } from './evolve.js';
import { legalActions } from './legal.js';
import { fromPosition, POSITION_FORMAT, toPosition } from './position.js';
import { randomPlayer } from './random-player.js';
import { evaluate, sampler } from './sample.js';
import { create, stateFromStart, validateDeck } from './setup.js';
import type { UniversusState } from './state.js';
import { eventVisibility, redactEvent, view, type UniversusView } from './view.js';

export const RULES_VERSION = '1.0.0';
export const ENGINE_VERSION = '1.0.0';

export function replay(events: readonly UniversusEvent[]): UniversusState {
  const first = events[0];
  if (!first) throw new Error('replay: no events');
  // One private draft, then every event folded into it in place: copying the state per event
  // (what `evolve` does for a caller's state) made replay cost as much as playing the game.
  // stateFromStart builds a new state; a position's state belongs to its event, so it is copied.
  let draft: UniversusState;
  if (first.type === 'GameStarted') draft = stateFromStart(first);
  else if (first.type === 'PositionLoaded') draft = cloneState(first.state);
  else throw new Error('replay: the first event must open the game');
  // A dealt state is all its own; a position's copy shares its lists with the event's state.
  const owned = first.type === 'GameStarted' ? undefined : new Set<object>();
  for (let i = 1; i < events.length; i++) evolveDraft(draft, events[i]!, owned); // no copy of the log
  return draft;
}

export const universus: Ruleset<UniversusState, UniversusAction, UniversusEvent, UniversusView, UniversusConfig> = {
  id: 'universus',
  name: 'UniVersus (combat core)',
  rulesVersion: RULES_VERSION,
  engineVersion: ENGINE_VERSION,
  generator: 'chacha20',
  configSchema,
  actionSchema,
  cardSet,
  starterDecks,
  validateDeck,
  create,
  // A config stored before maxTurns hashes without it, as it did (storedConfig).
  rulesHash: (config) =>
    sha256Hex(
      canonicalJson({
        game: 'universus',
        rules: RULES_VERSION,
        config: storedConfig(config, configSchema.parse(config)),
        cards: cardSet.hash,
      }),
    ),
  positions: { format: POSITION_FORMAT, fromPosition, toPosition },
  pending: (s) => (s.pending ? { seat: s.pending.seat, kind: s.pending.kind } : null),
  outcome: (s) => (s.phase === 'OVER' ? { winner: s.winner, reason: s.winReason ?? 'UNKNOWN' } : null),
  legalActions,
  apply,
  replay,
  evolve: (state, events) => {
    const next = cloneState(state);
    const owned = new Set<object>(); // the copy shares its lists with `state`
    for (const e of events) evolveDraft(next, e, owned);
    return next;
  },
  view,
  pendingView: (s) => (s.pending ? { ...s.pending } : null),
  eventVisibility,
  redactEvent,
  actionDescriber: (state, viewer) => (action) => describeAction(state, viewer, action),
  randomPlayer,
  hiddenInformation: { sampler, evaluate },
};

export type { UniversusAction, UniversusConfig, UniversusEvent, UniversusState, UniversusView };
export { UniversusActionSchema, UniversusViewSchema } from './view-schema.js';
export { configSchema as UniversusConfigSchema } from './config.js';
export { positionSchema as UniversusPositionSchema } from './position.js';
