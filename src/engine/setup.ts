/**
 * Starting a match: the deal is a function of the seed (opaque instance ids, shuffles, first
 * player), so replaying MatchCreated rebuilds exactly the same decks.
 */
import { CELL_COUNT } from './board.js';
import { validateDeck, type CardSet } from './cards.js';
import type { RulesConfig } from './config.js';
import type { EventOf, GameEvent } from './events.js';
import { sha256Hex } from './hash.js';
import { nextInt, randomId, seedRng, shuffle } from './rng.js';
import type { CardInstance, GameState, Seat } from './state.js';
import { advance } from './flow.js';
import { openTx } from './tx.js';
import { ENGINE_VERSION, rulesHash } from './version.js';

export function seedCommitment(seed: string): string {
  return sha256Hex(seed);
}

interface Deal {
  cards: Record<string, CardInstance>;
  decks: Record<Seat, string[]>;
  first: Seat;
}

function deal(seed: string, decks: Record<Seat, string[]>, config: RulesConfig): Deal {
  const rng = seedRng(seed);
  const cards: Record<string, CardInstance> = {};
  const out: Record<Seat, string[]> = { p1: [], p2: [] };
  for (const seat of ['p1', 'p2'] as const) {
    for (const def of decks[seat]) {
      let id = randomId(rng);
      while (cards[id]) id = randomId(rng);
      cards[id] = { def, owner: seat };
      out[seat].push(id);
    }
  }
  shuffle(rng, out.p1);
  shuffle(rng, out.p2);
  const first: Seat = config.firstPlayer === 'RANDOM' ? (nextInt(rng, 2) === 0 ? 'p1' : 'p2') : config.firstPlayer;
  return { cards, decks: out, first };
}

export function emptyState(
  cardSet: CardSet,
  config: RulesConfig,
  seed: string,
  cards: Record<string, CardInstance>,
  first: Seat,
  deckLists: Record<Seat, string[]> | null,
): GameState {
  return {
    cardSet,
    config,
    cards,
    seed,
    seedCommitment: seedCommitment(seed),
    deckLists,
    first,
    board: Array<null>(CELL_COUNT).fill(null),
    decks: { p1: [], p2: [] },
    hands: { p1: [], p2: [] },
    graveyards: { p1: [], p2: [] },
    removed: [],
    credits: { p1: config.startingCredits, p2: config.startingCredits },
    turn: 0,
    active: first,
    step: 'setup',
    revealDue: [],
    played: false,
    stack: [],
    stalled: 0,
    result: null,
  };
}

/** The state a MatchCreated event describes (before the opening hands are dealt). */
export function stateFromMatchCreated(e: EventOf<'MatchCreated'>, cardSet: CardSet, dealt?: Deal): GameState {
  if (e.cardSetHash !== cardSet.hash) throw new Error(`match was created with card set ${e.cardSetId}@${e.cardSetHash.slice(0, 12)}, not ${cardSet.id}@${cardSet.hash.slice(0, 12)}`);
  const d = dealt ?? deal(e.seed, e.decks, e.config);
  const s = emptyState(cardSet, e.config, e.seed, d.cards, e.first, e.decks);
  s.decks = d.decks;
  return s;
}

export interface CreateGameOptions {
  cardSet: CardSet;
  config: RulesConfig;
  decks: Record<Seat, string[]>;
  /** From a cryptographic source, chosen by the caller (the engine has no randomness of its own). */
  seed: string;
}

export type CreateResult = { ok: true; state: GameState; events: GameEvent[] } | { ok: false; errors: string[] };

/** Validates both decks, deals, and plays the automatic steps up to the first decision. */
export function createGame(o: CreateGameOptions): CreateResult {
  const errors: string[] = [];
  for (const seat of ['p1', 'p2'] as const) {
    const r = validateDeck(o.cardSet, o.decks[seat]);
    if (!r.ok) errors.push(...r.errors.map((e) => `${seat} deck: ${e}`));
  }
  if (!o.seed) errors.push('seed: must not be empty');
  if (errors.length) return { ok: false, errors };
  const dealt = deal(o.seed, o.decks, o.config);
  const first = dealt.first;
  const created: EventOf<'MatchCreated'> = {
    type: 'MatchCreated',
    engineVersion: ENGINE_VERSION,
    rulesHash: rulesHash(o.config, o.cardSet),
    cardSetId: o.cardSet.id,
    cardSetHash: o.cardSet.hash,
    config: o.config,
    seed: o.seed,
    seedCommitment: seedCommitment(o.seed),
    decks: { p1: [...o.decks.p1], p2: [...o.decks.p2] },
    first,
  };
  const s = stateFromMatchCreated(created, o.cardSet, dealt);
  const tx = openTx(s);
  tx.events.push(created);
  advance(tx);
  return { ok: true, state: s, events: tx.events };
}
