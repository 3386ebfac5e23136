// The move list of the watch page in words: one short sentence per event worth reading, from the
// events exactly as the API sent them to this reader (a seat or a spectator). Nothing here knows
// more than those events: a card is named only when an event named it to this reader (its
// definition id, looked up in the game's public card list), else by where it is.
// Plain ES module with no DOM, so the page imports it and a unit test runs it in Node.

/**
 * @typedef {{ seq: number, actingSeat: string | null, event: { type: string, [k: string]: any } }} ApiEvent
 * @typedef {{ game: string, cardName: (id: string) => string | undefined, seatLabel: (seat: string) => string }} NarratorContext
 */

const ABILITY_WORDS = /** @type {Record<string, string>} */ ({ activation: 'activates', reactivation: 'reactivates' });
const BLOCK_WORDS = /** @type {Record<string, string>} */ ({ FULL: 'blocks fully', HALF: 'blocks half the damage', NONE: 'does not block' });

/** "3 cards", "1 card". */
const count = (/** @type {number} */ n, /** @type {string} */ what) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Spaced words from an event type nobody taught us yet: "SomethingNew" → "Something new". */
function fallback(/** @type {string} */ type) {
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A narrator for one reader's events, fed in seq order: it remembers which card each instance
 * id turned out to be (from events that named it) to name it later.
 * @param {NarratorContext} ctx
 * @returns {(e: ApiEvent) => string | null} the sentence, or null for bookkeeping events (steps, phases).
 */
export function createNarrator(ctx) {
  /** Instance id → card definition id, as events named them. */
  const known = new Map();
  const learn = (/** @type {unknown} */ id, /** @type {unknown} */ def) => {
    if (typeof id === 'string' && typeof def === 'string') known.set(id, def);
  };
  const seat = (/** @type {unknown} */ s) => (typeof s === 'string' ? ctx.seatLabel(s) : 'nobody');
  const def = (/** @type {unknown} */ d) => (typeof d === 'string' ? (ctx.cardName(d) ?? d) : null);
  /** A card instance by what this reader knows of it, else by its cell. */
  const card = (/** @type {unknown} */ id, /** @type {unknown} */ cell) => {
    const d = typeof id === 'string' ? known.get(id) : undefined;
    if (d !== undefined) return def(d);
    return typeof cell === 'string' ? `the card at ${cell}` : 'a card';
  };
  const narrate = ctx.game === 'universus' ? universus : evons;
  return (ev) => {
    const e = ev.event;
    const common = matchRecord(e, seat);
    if (common !== undefined) return common;
    return narrate(e, { seat, def, card, learn, known });
  };
}

/** The match's own records (src/service/match-log.ts), in every game. */
function matchRecord(/** @type {any} */ e, /** @type {(s: unknown) => string} */ seat) {
  switch (e.type) {
    case 'ClockSet':
      return null;
    case 'MatchEnded':
      if (e.reason === 'timed-out') return `${seat(e.seat)} ran out of time${e.winner ? `: ${seat(e.winner)} wins` : ''}`;
      if (e.reason === 'aborted') return e.seat ? `${seat(e.seat)} aborted the match` : 'The match was called off (nobody moved in time)';
      return `The match ended (${String(e.reason)})`;
    default:
      return undefined;
  }
}

/**
 * @typedef {{ seat: (s: unknown) => string, def: (d: unknown) => string | null, card: (id: unknown, cell?: unknown) => string,
 *   learn: (id: unknown, def: unknown) => void, known: Map<string, string> }} Helpers
 */

/** Evons (src/games/evons/events.ts). @param {any} e @param {Helpers} h */
function evons(e, h) {
  const { seat, def, card, learn } = h;
  if (typeof e.card === 'string' && typeof e.defId === 'string') learn(e.card, e.defId);
  switch (e.type) {
    case 'MatchCreated':
      return `Cards dealt; ${seat(e.first)} goes first`;
    case 'PositionLoaded':
      return 'The match starts from a set position';
    case 'TurnStarted':
      return `Turn ${e.turn}: ${seat(e.seat)}`;
    case 'CreditsGained':
      return `${seat(e.seat)} gains ${count(e.amount, 'credit')} (${e.total})`;
    case 'CardDrawn':
      return typeof e.defId === 'string' ? `${seat(e.seat)} draws ${def(e.defId)}` : null;
    case 'DrawSkipped':
      return `${seat(e.seat)} has no card left to draw`;
    case 'CardRevealed':
      return `${seat(e.seat)} reveals ${def(e.defId)} at ${e.cell} (pays ${e.paid})`;
    case 'RevealDeferred':
      return `${seat(e.seat)} leaves the card at ${e.cell} covered`;
    case 'CardPlayed':
      return e.covered
        ? `${seat(e.seat)} plays ${typeof e.defId === 'string' ? def(e.defId) : 'a card'} covered on ${e.cell}`
        : `${seat(e.seat)} plays ${def(e.defId)} on ${e.cell} (pays ${e.paid})`;
    case 'Passed':
      return `${seat(e.seat)} passes${e.auto ? ' (nothing to play)' : ''}`;
    case 'ActivationStarted':
      return `${card(e.card, e.cell)} ${ABILITY_WORDS[e.kind] ?? 'activates'} at ${e.cell}`;
    case 'AbilityUsed':
      return `${card(e.card)} uses ${e.ability} on ${e.target}`;
    case 'CardGrown':
      return `${seat(e.seat)} grows a covered card on ${e.cell}`;
    case 'BlockPlaced':
      return `${seat(e.seat)} places ${def(e.defId)} as a Block on ${e.cell}`;
    case 'CardRevived':
      return `${seat(e.seat)} revives ${def(e.defId)} on ${e.cell}`;
    case 'CardMoved':
      return `${card(e.card, e.from)} moves from ${e.from} to ${e.to} (${e.cause})`;
    case 'CardsSwapped':
      return `The cards at ${e.from} and ${e.to} swap places`;
    case 'FirestormDamage':
      return `Firestorm deals ${e.amount} damage to ${card(e.card, e.cell)}`;
    case 'ConflictsFixed':
      return e.defenders.length ? `${card(e.card)} attacks ${e.defenders.map((/** @type {string} */ d) => card(d)).join(', ')}` : null;
    case 'ConflictResolved':
      return `${card(e.attacker)} and ${card(e.defender)} fight: ${e.defenderDamage} and ${e.attackerDamage} damage`;
    case 'CardDestroyed':
      return `${def(e.defId)} (${seat(e.owner)}) is destroyed at ${e.cell}`;
    case 'CardRemovedFromGame':
      return `${def(e.defId)} (${seat(e.owner)}) is removed from the game`;
    case 'CardFlipped':
      return `${card(e.card, e.cell)} at ${e.cell} turns to ${seat(e.to)}`;
    case 'CardDiscarded':
      return `${seat(e.seat)} discards ${def(e.defId)}`;
    case 'Resigned':
      return `${seat(e.seat)} resigns`;
    case 'GameEnded':
      return `Game over: ${e.winner ? `${seat(e.winner)} wins` : 'a draw'} (${e.reason}), ${e.scores.p1}–${e.scores.p2}`;
    case 'SeedRevealed':
      return 'The seed is published: the deal can be verified';
    case 'StepStarted':
    case 'PhaseStarted':
    case 'TriggersQueued':
    case 'TriggerDropped':
    case 'ActivationEnded':
    case 'TurnEnded':
      return null;
    default:
      return fallback(e.type);
  }
}

/** UniVersus (src/games/universus/events.ts). @param {any} e @param {Helpers} h */
function universus(e, h) {
  const { seat, def, learn, known } = h;
  if (typeof e.id === 'string' && typeof e.card === 'string') learn(e.id, e.card);
  if (Array.isArray(e.cards)) for (const c of e.cards) learn(c.id, c.card);
  const inst = (/** @type {unknown} */ id) => {
    const d = typeof id === 'string' ? known.get(id) : undefined;
    return d === undefined ? 'a card' : def(d);
  };
  switch (e.type) {
    case 'GameStarted':
      return `Game on: ${seat('p1')} plays ${def(e.characters?.p1)}, ${seat('p2')} plays ${def(e.characters?.p2)}; ${seat(e.firstPlayer)} goes first`;
    case 'PositionLoaded':
      return 'The match starts from a set position';
    case 'CardsDrawn':
      return Array.isArray(e.cards)
        ? `${seat(e.seat)} draws ${e.cards.map((/** @type {{card: string}} */ c) => def(c.card)).join(', ')}`
        : `${seat(e.seat)} draws ${count(e.count, 'card')}`;
    case 'TurnStarted':
      return `Turn ${e.turnNumber}: ${seat(e.seat)}`;
    case 'StageReadied':
      return e.ids.length ? `${seat(e.seat)} readies ${count(e.ids.length, 'foundation')}` : null;
    case 'PlayAttempted':
      return `${seat(e.seat)} tries to play ${def(e.card)} (difficulty ${e.difficulty})`;
    case 'BlockAttempted':
      return `${seat(e.seat)} tries to block with ${def(e.card)} (difficulty ${e.difficulty})`;
    case 'CheckRevealed':
      return `Check: ${def(e.card)} shows ${e.value} against ${e.difficulty}`;
    case 'FoundationsCommitted':
      return `${seat(e.seat)} commits ${count(e.ids.length, 'foundation')}`;
    case 'CheckPassed':
      return `${seat(e.seat)} passes the check`;
    case 'CheckFailed':
      return `${seat(e.seat)} fails the check`;
    case 'AwaitingCommit':
      return `${seat(e.seat)} is ${e.shortfall} short: commit or decline`;
    case 'CardDiscarded':
      return `${seat(e.seat)} discards ${inst(e.id)}`;
    case 'FoundationBuilt':
      return `${seat(e.seat)} builds ${inst(e.id)} as a foundation`;
    case 'AttackStarted':
      return `${seat(e.seat)} attacks with ${inst(e.id)}: ${e.zone}, speed ${e.speed}, damage ${e.damage}`;
    case 'BlockResolved':
      return `${seat(e.seat)} ${BLOCK_WORDS[e.outcome] ?? e.outcome}`;
    case 'DamageDealt':
      return `${seat(e.seat)} takes ${e.amount} damage`;
    case 'HealthChanged':
      return `${seat(e.seat)} is at ${e.health} health`;
    case 'MovedToMomentum':
      return `${seat(e.seat)} moves ${count(e.ids.length, 'card')} to momentum`;
    case 'DeckCycled':
      return `${seat(e.seat)} cycles the deck (${count(e.deckSize, 'card')}, ${e.removedCount} removed)`;
    case 'PlayerExhausted':
      return `${seat(e.seat)} is exhausted`;
    case 'GameWon':
      return `Game over: ${seat(e.winner)} wins (${e.reason})`;
    case 'CardPlacedInPool':
    case 'MomentumChoice':
    case 'CardPoolCleared':
    case 'TurnEnded':
    case 'CombatResumed':
      return null;
    default:
      return fallback(e.type);
  }
}
