/** Deck validation and the deal (U-SETUP-1..4). */
import { sha256Hex } from '../../core/hash.js';
import { ID_WORDS, keyedStream, nextInt, randomId, shuffle } from '../../core/random.js';
import type { CreateOptions, CreateResult, Seat } from '../../core/ruleset.js';
import { CARD_BY_ID } from './cards/index.js';
import { configSchema, storedConfig, type UniversusConfig } from './config.js';
import { startTurnOpening } from './opening.js';
import type { Instance, UniversusEvent } from './events.js';
import { startState } from './evolve.js';
import type { UniversusState } from './state.js';
import { issueLines } from '../../core/issues.js';

export const SEATS: readonly Seat[] = ['p1', 'p2'];

/** A deck list: exactly one character plus at least `minDeckSize` attacks/foundations (U-SETUP-1). */
export function validateDeck(cards: readonly string[], config: UniversusConfig): string[] {
  const errors: string[] = [];
  const unknown = [...new Set(cards.filter((c) => !CARD_BY_ID.has(c)))];
  if (unknown.length) errors.push(`Unknown card id(s): ${unknown.slice(0, 5).join(', ')}`);
  const chars = cards.filter((c) => CARD_BY_ID.get(c)?.type === 'CHARACTER');
  if (chars.length !== 1) errors.push(`A deck needs exactly one character (found ${chars.length}).`);
  const rest = cards.filter((c) => {
    const t = CARD_BY_ID.get(c)?.type;
    return t === 'ATTACK' || t === 'FOUNDATION';
  });
  if (rest.length < config.minDeckSize)
    errors.push(`A deck needs at least ${config.minDeckSize} attacks and foundations (found ${rest.length}).`);
  return errors;
}

export const sha256 = sha256Hex;

/** Shared by create() and positions: the opening from explicit, already ordered decks. */
export function openingFrom(
  config: UniversusConfig,
  seed: string,
  first: Seat,
  characters: Record<Seat, string>,
  decks: Record<Seat, Instance[]>,
): CreateResult<UniversusState, UniversusEvent> {
  const started: Extract<UniversusEvent, { type: 'GameStarted' }> = {
    type: 'GameStarted',
    rng: 'chacha20',
    config,
    seed,
    seedCommitment: sha256(seed),
    firstPlayer: first,
    characters,
    decks,
  };
  return startTurnOpening(stateFromStart(started), started);
}

export function stateFromStart(e: Extract<UniversusEvent, { type: 'GameStarted' }>): UniversusState {
  const stat = (seat: Seat) => {
    const c = CARD_BY_ID.get(e.characters[seat]);
    if (!c || c.type !== 'CHARACTER') throw new Error('not a character');
    return c;
  };
  return startState(e, { p1: stat('p1').handSize, p2: stat('p2').handSize }, { p1: stat('p1').health, p2: stat('p2').health });
}

export function create(opts: CreateOptions<unknown>): CreateResult<UniversusState, UniversusEvent> {
  const cfg = configSchema.safeParse(opts.config ?? {});
  if (!cfg.success) return { ok: false, errors: issueLines(cfg.error.issues, 'config') };
  const config = storedConfig(opts.config, cfg.data);
  const errors = SEATS.flatMap((s) => validateDeck(opts.decks[s] ?? [], config).map((m) => `${s}: ${m}`));
  if (errors.length) return { ok: false, errors };
  // Streams told about how many words they give (one cipher call each): an id per card, a shuffle a word per card.
  const ids = keyedStream(opts.seed, 'ids', (opts.decks.p1.length + opts.decks.p2.length) * ID_WORDS + 8);
  const used = new Set<string>();
  const fresh = (): string => {
    let id = randomId(ids);
    while (used.has(id)) id = randomId(ids);
    used.add(id);
    return id;
  };
  const characters = {} as Record<Seat, string>;
  const decks = {} as Record<Seat, Instance[]>;
  for (const s of SEATS) {
    const list = opts.decks[s];
    characters[s] = list.find((c) => CARD_BY_ID.get(c)?.type === 'CHARACTER') as string;
    // Ids are drawn in list order, then the instances are shuffled by another stream: ids say nothing about order.
    const instances = list.filter((c) => CARD_BY_ID.get(c)?.type !== 'CHARACTER').map((card) => ({ id: fresh(), card }));
    decks[s] = shuffle(keyedStream(opts.seed, `deal:${s}`, instances.length + 4), instances); // U-SETUP-2
  }
  const first: Seat = nextInt(keyedStream(opts.seed, 'first', 4), 2) === 0 ? 'p1' : 'p2'; // U-SETUP-3
  return openingFrom(config, opts.seed, first, characters, decks);
}
