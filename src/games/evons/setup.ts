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
import { withInstances } from '../../core/card-instances.js';
import { idDictionary } from '../../core/dictionary.js';
import { sha256HexOf } from '../../core/sha256.js';
import { ID_WORDS, keyedStream, nextInt, randomId, sfc32Stream, shuffle, type GeneratorId, type RandomSource } from '../../core/random.js';
import type { CardInstance, GameState, Seat } from './state.js';
import { advance } from './flow.js';
import { openTx } from './tx.js';
import { CURRENT_GENERATOR, ENGINE_VERSION, rulesHash } from './version.js';

/** sha256 of the seed, in hex; computed here (core/sha256.ts), not by a node:crypto object: every replay recomputes it. */
export function seedCommitment(seed: string): string {
  return sha256HexOf(seed);
}

export interface Deal {
  cards: Record<string, CardInstance>;
  decks: Record<Seat, string[]>;
  first: Seat;
}

/** A deal as the engine keeps it: instances in a Map (core/card-instances.ts says why). */
interface DealtInstances {
  instances: Map<string, CardInstance>;
  decks: Record<Seat, string[]>;
  first: Seat;
}

/** The legacy sfc32 stream's seed prefix (kept so old matches re-deal identically). */
const LEGACY_PREFIX = 'evons-rng:';

/** `first`: the first player when already known (a replayed MatchCreated records it): no stream is drawn for it. */
function deal(seed: string, decks: Record<Seat, string[]>, config: RulesConfig, rng: GeneratorId, first?: Seat): DealtInstances {
  const legacy = rng === 'sfc32' ? sfc32Stream(seed, LEGACY_PREFIX) : null;
  // Each keyed stream is told about how many words it gives (one cipher call each): an id per card, a deck's shuffle a word per card.
  const stream = (purpose: string, words: number): RandomSource => legacy ?? keyedStream(seed, purpose, words);
  const ids = stream('ids', (decks.p1.length + decks.p2.length) * ID_WORDS + 8);
  const instances = new Map<string, CardInstance>();
  const out: Record<Seat, string[]> = { p1: [], p2: [] };
  for (const seat of ['p1', 'p2'] as const) {
    for (const def of decks[seat]) {
      let id = randomId(ids);
      while (instances.has(id)) id = randomId(ids);
      instances.set(id, { def, owner: seat });
      out[seat].push(id);
    }
  }
  shuffle(stream('deal:p1', out.p1.length + 4), out.p1);
  shuffle(stream('deal:p2', out.p2.length + 4), out.p2);
  // The draw comes last (after both shuffles, also in the legacy single stream), so skipping it
  // changes no other draw.
  first ??= config.firstPlayer === 'RANDOM' ? (nextInt(stream('first', 4), 2) === 0 ? 'p1' : 'p2') : config.firstPlayer;
  return { instances, decks: out, first };
}

/**
 * The deal of a match: public so anyone holding the revealed seed and deck lists (SeedRevealed)
 * can recompute it with the generator the match recorded.
 */
export function dealCards(seed: string, decks: Record<Seat, string[]>, config: RulesConfig, rng: GeneratorId): Deal {
  const d = deal(seed, decks, config, rng);
  const cards = idDictionary<CardInstance>();
  for (const [id, c] of d.instances) cards[id] = c;
  return { cards, decks: d.decks, first: d.first };
}

/**
 * CELL_COUNT empty cells, packed (not `Array(n).fill`, which stays holey: the board is scanned at
 * every step), by a loop (Array.from with a callback cost a few per cent of a replay).
 */
function emptyBoard(): null[] {
  const board: null[] = [];
  for (let i = 0; i < CELL_COUNT; i++) board.push(null);
  return board;
}

export function emptyState(
  cardSet: CardSet,
  config: RulesConfig,
  seed: string,
  instances: ReadonlyMap<string, CardInstance>,
  first: Seat,
  deckLists: Record<Seat, string[]> | null,
  rng: GeneratorId | null,
  /** The seed's commitment when the caller has just computed it (a new match): not hashed twice. */
  commitment = seedCommitment(seed),
): GameState {
  return withInstances(
    {
      cardSet,
      config,
      seed,
      seedCommitment: commitment,
      rng,
      deckLists,
      first,
      board: emptyBoard(),
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
      turnAbilities: 0,
      result: null,
    },
    instances,
  );
}

/** The state a MatchCreated event describes (before the opening hands are dealt). */
export function stateFromMatchCreated(e: EventOf<'MatchCreated'>, cardSet: CardSet, dealt?: DealtInstances): GameState {
  if (e.cardSetHash !== cardSet.hash)
    throw new Error(
      `match was created with card set ${e.cardSetId}@${e.cardSetHash.slice(0, 12)}, not ${cardSet.id}@${cardSet.hash.slice(0, 12)}`,
    );
  const rng = e.rng ?? 'sfc32';
  const d = dealt ?? deal(e.seed, e.decks, e.config, rng, e.first);
  // A replayed event's commitment is recomputed from its seed; a new match's was just computed.
  const s = emptyState(cardSet, e.config, e.seed, d.instances, e.first, e.decks, rng, dealt ? e.seedCommitment : undefined);
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
  const dealt = deal(o.seed, o.decks, o.config, rng);
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
  const tx = openTx(s, undefined); // a new state: all its own
  tx.events.push(created);
  advance(tx);
  return { ok: true, state: s, events: tx.events };
}
