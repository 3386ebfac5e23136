/**
 * What one seat may know of an Evons game, as an engine state it can simulate on: its "belief".
 *
 * Built only from what the server gives that seat, never from hidden information:
 * - the seat's view (GET /v1/matches/{id}): the board (its own covered cards named, the other
 *   seat's covered cards not), its own hand, graveyards, removed cards, credits, turn, step;
 * - its redacted event log (the stream, or GET …/events): the turn's bookkeeping the view does
 *   not carry, all of it public (the chain of activations with the arrows already used, the
 *   covered cards still to reveal, whether the turn's card was played, stalled passes, which
 *   cards moved this turn).
 * What the seat cannot know is filled with a stand-in: the other seat's hand and covered cards,
 * and both decks (their order is secret to everyone), are copies of one middling monster of the
 * card set. Within the seat's own turn nothing draws from a deck or plays from the other hand,
 * so the stand-ins only matter where an effect reads a hidden card's DEF (Firestorm).
 *
 * The result is loaded with the engine's own position loader (evons-position/1, the format the
 * sandbox and docs/positions.md use), so the engine checks it like any position.
 */
import { stateFromPosition, type CardSet, type GameState, type PositionData, type Seat } from '../../src/games/evons/index.js';
import type { GameView, MatchEvent } from '../../clients/typescript/src/index.js';
import { turnFacts } from './turn-facts.js';

/** The stand-in for cards the seat cannot know: a monster of middling DEF (then cost). */
export function standIn(cardSet: CardSet): string {
  const monsters = [...cardSet.byId.values()].flatMap((d) => (d.kind === 'monster' ? [d] : []));
  monsters.sort((a, b) => a.def - b.def || a.cost - b.cost || a.id.localeCompare(b.id));
  return monsters[Math.floor(monsters.length / 2)]!.id;
}

/**
 * The seat's belief: an engine state equal to the real one in everything the seat may know.
 * Throws when the view is not an Evons game in progress or the engine rejects the position.
 */
export function beliefState(view: GameView, events: readonly MatchEvent[], cardSet: CardSet): GameState {
  const seat = view.viewer;
  if (seat === 'spectator') throw new Error('a belief is a seat’s: this view is a spectator’s');
  if (view.cardSetHash !== cardSet.hash)
    throw new Error(`the match plays card set ${view.cardSetId}@${view.cardSetHash.slice(0, 12)}, not ${cardSet.id}`);
  const other: Seat = seat === 'p1' ? 'p2' : 'p1';
  const facts = turnFacts(events);
  const unknown = standIn(cardSet);
  const cards: Record<string, { def: string; owner: Seat }> = {};
  const known = (id: string, def: string, owner: Seat) => {
    cards[id] = { def, owner };
    return id;
  };
  const hidden = (owner: Seat, zone: string, n: number) =>
    Array.from({ length: n }, (_, i) => known(`?${owner}-${zone}-${i}`, unknown, owner));

  const board: PositionData['board'] = {};
  for (const { cell, card } of view.board) {
    if (!card) continue;
    known(card.id, card.defId ?? unknown, card.owner);
    board[cell] = {
      id: card.id,
      facing: card.facing,
      covered: card.covered,
      growth: card.growthPlaced,
      damage: card.damage,
      moved: facts.moved.has(card.id),
    };
  }
  const onBoard = new Set(Object.values(board).map((b) => b.id));
  const mine = view.seats[seat];
  const theirs = view.seats[other];
  const hands = {
    [seat]: (mine.hand ?? []).map((c) => known(c.id, c.defId, seat)),
    [other]: hidden(other, 'hand', theirs.handCount),
  } as Record<Seat, string[]>;
  const decks = { p1: hidden('p1', 'deck', view.seats.p1.deckCount), p2: hidden('p2', 'deck', view.seats.p2.deckCount) };
  const graveyards = {
    p1: view.seats.p1.graveyard.map((c) => known(c.id, c.defId, 'p1')),
    p2: view.seats.p2.graveyard.map((c) => known(c.id, c.defId, 'p2')),
  };
  const removed = view.removed.map((c) => known(c.id, c.defId, facts.removedOwner.get(c.id) ?? seat));

  // Bookkeeping about cards no longer on the board would end by itself at the next automatic
  // step (an activation whose card left, a stale trigger or reveal), so it is left out.
  const position: PositionData = {
    format: 'evons-position/1',
    cardSetId: view.cardSetId,
    config: view.config,
    first: view.first,
    turn: view.turn,
    active: view.active,
    step: view.step as PositionData['step'],
    credits: { p1: view.seats.p1.credits, p2: view.seats.p2.credits },
    cards,
    board,
    decks,
    hands,
    graveyards,
    removed,
    revealDue: facts.revealDue.filter((id) => onBoard.has(id)),
    played: facts.played,
    stack: facts.stack
      .filter((f) => onBoard.has(f.card))
      .map((f) => ({
        ...f,
        triggers: f.triggers!.filter((id) => onBoard.has(id)),
        conflicts: f.conflicts ? f.conflicts.filter((id) => onBoard.has(id)) : null,
      })),
    stalled: facts.stalled,
  };
  const r = stateFromPosition(position, cardSet, 'belief');
  if (!r.ok) throw new Error(`belief rejected by the engine: ${r.errors.join('; ')}`);
  // Positions do not carry the turn's ability count (maxTurnAbilities): the events do.
  r.state.turnAbilities = facts.turnAbilities;
  return r.state;
}
