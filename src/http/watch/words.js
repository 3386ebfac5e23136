// The move list of the watch page in words: one short sentence per event worth reading, from the
// events exactly as the API sent them to this reader (a seat or a spectator). Nothing here knows
// more than those events: a card is named only when an event named it to this reader (its
// definition id, looked up in the game's public card list), else by where it is.
// The match's own records are worded here; a game's events by its watch script's `words`
// (src/games/<game>/watch.js), which learns and names cards through the helpers given here.
// Plain ES module with no DOM, so the page imports it and a unit test runs it in Node.

/**
 * @typedef {{ seq: number, actingSeat: string | null, source?: 'game' | 'match', event: { type: string, [k: string]: any } }} ApiEvent
 * @typedef {import('../../games/game-module.js').WatchScript['words']} GameWords
 * @typedef {{ words: GameWords, cardName: (id: string) => string | undefined, seatLabel: (seat: string) => string }} NarratorContext
 */

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
  /** Instance id → card definition id, as events named them. @type {Map<string, string>} */
  const known = new Map();
  const seat = (/** @type {unknown} */ s) => (typeof s === 'string' ? ctx.seatLabel(s) : 'nobody');
  const helpers = {
    seat,
    def: (/** @type {unknown} */ d) => (typeof d === 'string' ? (ctx.cardName(d) ?? d) : null),
    learn: (/** @type {unknown} */ id, /** @type {unknown} */ def) => {
      if (typeof id === 'string' && typeof def === 'string') known.set(id, def);
    },
    learned: (/** @type {unknown} */ id) => (typeof id === 'string' ? known.get(id) : undefined),
    count,
  };
  return (ev) => {
    const e = ev.event;
    // The envelope, not the name, says whose an event is: a game may have its own MatchEnded.
    if (ev.source === 'match') return matchRecord(e, seat);
    const said = ctx.words(e, helpers);
    return said === undefined ? fallback(e.type) : said;
  };
}

/** The match's own records (src/service/match/match-log.ts, MatchRecord in the API), in every game. */
function matchRecord(/** @type {any} */ e, /** @type {(s: unknown) => string} */ seat) {
  switch (e.type) {
    case 'MatchEnded': {
      const end = e.end ?? {};
      if (end.reason === 'timed-out') return `${seat(end.seat)} ran out of time${end.winner ? `: ${seat(end.winner)} wins` : ''}`;
      if (end.reason === 'resigned') return `${seat(end.seat)} resigned${end.winner ? `: ${seat(end.winner)} wins` : ''}`;
      if (end.reason === 'aborted')
        return end.seat ? `${seat(end.seat)} aborted the match` : 'The match was called off (nobody moved in time)';
      return `The match ended (${String(end.reason)})`;
    }
    case 'RematchOffered':
      return `${seat(e.by)} offered a rematch`;
    case 'RematchDeclined':
      return `${seat(e.by)} declined the rematch`;
    case 'RematchAccepted':
      return `${seat(e.by)} accepted the rematch`;
    default:
      return null; // the clock (ClockSet), RematchOf and bookkeeping
  }
}
