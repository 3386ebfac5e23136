/**
 * Starting a match: the deal is a function of the seed (opaque instance ids, shuffles, first
 * player), so replaying MatchCreated rebuilds exactly the same decks.
 *
 * Generators (core/random.ts), recorded in MatchCreated.rng:
 * - 'chacha20' (new matches): one keyed stream per purpose: 'ids' for the public instance ids,
 *   'deal:p1' / 'deal:p2' for each deck's order, 'first' for the first player. The ids everyone
 *   sees come from a stream independent of the one that orders hidden cards.
 * - 'sfc32' (absent field; matches created before 0.2.0): one stream for everything, in the old
 *   order (ids, p1 shuffle, p2 shuffle, first), so those matches replay unchanged.
 */
import { CELL_COUNT } from './board.js';
import { validateDeck, type CardSet } from './cards.js';
import type { RulesConfig } from './config.js';
import type { EventOf, GameEvent } from './events.js';
import { idDictionary } from '../../core/dictionary.js';
import { sha256Hex } from '../../core/hash.js';
import { keyedStream, nextInt, randomId, sfc32Stream, shuffle, type GeneratorId, type RandomSource } from '../../core/random.js';
import type { CardInstance, GameState, Seat } from './state.js';
import { advance } from './flow.js';
import { openTx } from './tx.js';
import { CURRENT_GENERATOR, ENGINE_VERSION, rulesHash } from './version.js';

export function seedCommitment(seed: string): string {
  return sha256Hex(seed);
}

export interface Deal {
  cards: Record<string, CardInstance>;
  decks: Record<Seat, string[]>;
  first: Seat;
}

/** The legacy sfc32 stream's seed prefix (kept so old matches re-deal identically). */
const LEGACY_PREFIX = 'evons-rng:';

/**
 * The deal of a match: public so anyone holding the revealed seed and deck lists (SeedRevealed)
 * can recompute it with the generator the match recorded.
 */
export function dealCards(seed: string, decks: Record<Seat, string[]>, config: RulesConfig, rng: GeneratorId): Deal {
  const legacy = rng === 'sfc32' ? sfc32Stream(seed, LEGACY_PREFIX) : null;
  const stream = (purpose: string): RandomSource => legacy ?? keyedStream(seed, purpose);
  const ids = stream('ids');
  const cards = idDictionary<CardInstance>();
  const out: Record<Seat, string[]> = { p1: [], p2: [] };
  for (const seat of ['p1', 'p2'] as const) {
    for (const def of decks[seat]) {
      let id = randomId(ids);
      while (cards[id]) id = randomId(ids);
      cards[id] = { def, owner: seat };
      out[seat].push(id);
    }
  }
  shuffle(stream('deal:p1'), out.p1);
  shuffle(stream('deal:p2'), out.p2);
  const first: Seat = config.firstPlayer === 'RANDOM' ? (nextInt(stream('first'), 2) === 0 ? 'p1' : 'p2') : config.firstPlayer;
  return { cards, decks: out, first };
}

export function emptyState(
  cardSet: CardSet,
  config: RulesConfig,
  seed: string,
  cards: Record<string, CardInstance>,
  first: Seat,
  deckLists: Record<Seat, string[]> | null,
  rng: GeneratorId | null,
): GameState {
  return {
    cardSet,
    config,
    cards,
    seed,
    seedCommitment: seedCommitment(seed),
    rng,
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
  const rng = e.rng ?? 'sfc32';
  const d = dealt ?? dealCards(e.seed, e.decks, e.config, rng);
  const s = emptyState(cardSet, e.config, e.seed, d.cards, e.first, e.decks, rng);
  s.decks = d.decks;
  return s;
}

export interface CreateGameOptions {
  cardSet: CardSet;
  config: RulesConfig;
  decks: Record<Seat, string[]>;
  /** From a cryptographic source, chosen by the caller (the engine has no randomness of its own). */
  seed: string;
  /**
   * The generator to deal with (default: the current one). 'sfc32' only to re-create a match
   * dealt before keyed streams, e.g. an open seat opened then and joined now.
   */
  rng?: GeneratorId;
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
  const rng = o.rng ?? CURRENT_GENERATOR;
  const dealt = dealCards(o.seed, o.decks, o.config, rng);
  const first = dealt.first;
  const created: EventOf<'MatchCreated'> = {
    type: 'MatchCreated',
    engineVersion: ENGINE_VERSION,
    rulesHash: rulesHash(o.config, o.cardSet, rng),
    cardSetId: o.cardSet.id,
    cardSetHash: o.cardSet.hash,
    config: o.config,
    seed: o.seed,
    seedCommitment: seedCommitment(o.seed),
    decks: { p1: [...o.decks.p1], p2: [...o.decks.p2] },
    first,
    // Legacy sfc32 events carry no field; writing none keeps a re-created legacy match identical.
    ...(rng === 'sfc32' ? {} : { rng }),
  };
  const s = stateFromMatchCreated(created, o.cardSet, dealt);
  const tx = openTx(s);
  tx.events.push(created);
  advance(tx);
  return { ok: true, state: s, events: tx.events };
}
