// UniVersus' part of the watch page (GET /watch/{id}), loaded by the page's script (src/http/watch/
// watch.js) for UniVersus matches: how the reader's view is laid out and its events in words.
// The contract is `WatchScript` in ../game-module.ts. Plain browser module with no imports and
// no DOM: it reads only the view and events the API sent this reader (a unit test runs it in Node).

/**
 * @typedef {import('../game-module.js').WatchScript} WatchScript
 * @typedef {import('../game-module.js').WatchWordHelpers} Helpers
 */

const BLOCK_WORDS = /** @type {Record<string, string>} */ ({
  FULL: 'blocks fully',
  HALF: 'blocks half the damage',
  NONE: 'does not block',
});

/** The game's events (src/games/universus/events.ts) in words. @param {any} e @param {Helpers} h */
function words(e, h) {
  const { seat, def, learn, learned, count } = h;
  if (typeof e.id === 'string' && typeof e.card === 'string') learn(e.id, e.card);
  if (Array.isArray(e.cards)) for (const c of e.cards) learn(c.id, c.card);
  /** A card instance by what this reader knows of it. */
  const inst = (/** @type {unknown} */ id) => {
    const d = learned(id);
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
    case 'GameDrawn':
      return `Game over: a draw (${e.reason})`;
    case 'CardPlacedInPool':
    case 'MomentumChoice':
    case 'CardPoolCleared':
    case 'TurnEnded':
    case 'CombatResumed':
      return null;
    default:
      return undefined;
  }
}

/** @type {WatchScript} */
export default {
  turn: (/** @type {any} */ g) => g.turnNumber,
  toMove: (/** @type {any} */ g) => g.pending ?? null,
  seatFacts(/** @type {any} */ g, seat, cardName) {
    const p = g.players[seat];
    return [
      ['Character', cardName(p.character)],
      ['Health', String(p.health)],
      ['Hand', String(p.handCount)],
      ['Deck', String(p.deckCount)],
      ['Momentum', String(p.momentumCount)],
      ['Stage', p.stage.map((/** @type {any} */ s) => `${cardName(s.card)}${s.committed ? ' (committed)' : ''}`).join(', ') || '–'],
      ['Card pool', p.cardPool.map((/** @type {any} */ c) => cardName(c.card)).join(', ') || '–'],
    ];
  },
  hand(/** @type {any} */ g, seat, cardName) {
    const cards = g.players[seat]?.hand;
    return Array.isArray(cards) ? cards.map((/** @type {any} */ c) => cardName(c.card)) : null;
  },
  words,
};
