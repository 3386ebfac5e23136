// Evons' part of the watch page (GET /watch/{id}), loaded by the page's script (src/http/watch/
// watch.js) for Evons matches: how the reader's view is laid out and its events in words.
// The contract is `WatchScript` in ../game-module.ts. Plain browser module with no imports and
// no DOM: it reads only the view and events the API sent this reader (a unit test runs it in Node).

/**
 * @typedef {import('../game-module.js').WatchScript} WatchScript
 * @typedef {import('../game-module.js').WatchWordHelpers} Helpers
 */

const ABILITY_WORDS = /** @type {Record<string, string>} */ ({ activation: 'activates', reactivation: 'reactivates' });

/** The game's events (src/games/evons/events.ts) in words. @param {any} e @param {Helpers} h */
function words(e, h) {
  const { seat, def, learn, learned, count } = h;
  if (typeof e.card === 'string' && typeof e.defId === 'string') learn(e.card, e.defId);
  /** A card instance by what this reader knows of it, else by its cell. */
  const card = (/** @type {unknown} */ id, /** @type {unknown} */ cell) => {
    const d = learned(id);
    if (d !== undefined) return def(d);
    return typeof cell === 'string' ? `the card at ${cell}` : 'a card';
  };
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
      return undefined;
  }
}

/** @type {WatchScript} */
export default {
  turn: (/** @type {any} */ g) => g.turn,
  toMove: (/** @type {any} */ g) => g.pending ?? null,
  seatFacts(/** @type {any} */ g, seat) {
    const s = g.seats[seat];
    return [
      ['Score', String(s.score)],
      ['Credits', String(s.credits)],
      ['Hand', String(s.handCount)],
      ['Deck', String(s.deckCount)],
      ['Graveyard', s.graveyard.length ? `${s.graveyard.length} (top: ${s.graveyard[s.graveyard.length - 1].name})` : '0'],
    ];
  },
  hand(/** @type {any} */ g, seat) {
    const cards = g.seats[seat]?.hand;
    return Array.isArray(cards) ? cards.map((/** @type {any} */ c) => c.name) : null;
  },
  words,
};
