/**
 * Hidden information for computer players (Ruleset.hiddenInformation): full states sampled from
 * what one seat knows, and the heuristic a search evaluates its leaves with.
 *
 * What the seat is taken to know (docs/rules-decisions.md, "What a computer player knows"):
 * - its view: both characters, health, hand sizes, its own hand, pools, stages, discards, the
 *   check and attack in progress, and counts of every hidden zone;
 * - the events it may see: the settings (GameStarted's public form; without it, the defaults),
 *   the shuffle count (DeckCycled), and which cards went face down to momentum (their ids and,
 *   seen in the pool before, their names);
 * - not the deck lists (secret in this service, its own included): each seat's deck is modelled
 *   as the starter deck of its character (else the one that explains most of its cards seen),
 *   minus the cards seen; cards beyond the model's are drawn from the whole set.
 * Hidden, and drawn: the other hand, both decks (contents and order), removed cards, momentum
 * cards not seen, and the seed (future reshuffles draw from it).
 */
import { nextInt, shuffle, type RandomSource } from '../../core/random.js';
import { otherSeat, type HiddenInformation, type Seat, type SeatEvent } from '../../core/ruleset.js';
import { instanceOf, withInstances } from '../../core/card-instances.js';
import { CARD_BY_ID, CARDS, starterDecks } from './cards/index.js';
import { configSchema, defaultConfig, type UniversusConfig } from './config.js';
import type { PlayerState, UniversusState } from './state.js';
import type { UniversusView } from './view.js';

const HEX = '0123456789abcdef';
type Counts = Map<string, number>;

interface Facts {
  config: UniversusConfig;
  shuffles: number;
  /** Names of cards the seat saw, by id. */
  seen: Map<string, string>;
  /** Momentum ids per seat, in order. */
  momentum: Record<Seat, string[]>;
}

function foldFacts(events: readonly SeatEvent[]): Facts {
  const f: Facts = { config: defaultConfig, shuffles: 0, seen: new Map(), momentum: { p1: [], p2: [] } };
  for (const e of events) {
    switch (e.type) {
      case 'GameStarted': {
        const c = configSchema.safeParse(e.config);
        if (c.success) f.config = c.data;
        break;
      }
      case 'PlayAttempted':
      case 'BlockAttempted':
      case 'CheckRevealed':
        f.seen.set(e.id as string, e.card as string);
        break;
      case 'CardsDrawn':
        for (const c of (e.cards as { id: string; card: string }[] | undefined) ?? []) f.seen.set(c.id, c.card);
        break;
      case 'MovedToMomentum':
        f.momentum[e.seat as Seat].push(...(e.ids as string[]));
        break;
      case 'DeckCycled':
        f.shuffles = (e.shuffle as number) + 1;
        break;
    }
  }
  return f;
}

export const sampler: HiddenInformation<UniversusState, UniversusView>['sampler'] = (v, seat, events) => {
  if (v.viewer !== seat) throw new Error(`the view is ${v.viewer}'s, not ${seat}'s`);
  const opp = otherSeat(seat);
  const facts = foldFacts(events);
  const known = new Map<string, string>();
  const knownOf: Record<Seat, Counts> = { p1: new Map(), p2: new Map() };
  const know = (s: Seat, id: string, card: string) => {
    if (known.has(id)) return;
    known.set(id, card);
    knownOf[s].set(card, (knownOf[s].get(card) ?? 0) + 1);
  };
  for (const s of ['p1', 'p2'] as const) {
    const p = v.players[s];
    for (const c of p.hand ?? []) know(s, c.id, c.card);
    for (const c of p.discard) know(s, c.id, c.card);
    for (const c of p.cardPool) know(s, c.id, c.card);
    for (const c of p.stage) know(s, c.id, c.card);
  }
  if (v.check) know(v.check.seat, v.check.id, v.check.card);
  // Momentum cards the seat saw go down; the rest of each momentum pile is drawn.
  const momentumKnown: Record<Seat, string[]> = { p1: [], p2: [] };
  for (const s of ['p1', 'p2'] as const) {
    const ids = facts.momentum[s].filter((id) => facts.seen.has(id));
    if (facts.momentum[s].length !== v.players[s].momentumCount) continue; // the log does not explain the pile
    for (const id of ids) {
      know(s, id, facts.seen.get(id)!);
      momentumKnown[s].push(id);
    }
  }
  const models = starterDecks.map((d) => ({
    character: d.cards.find((e) => CARDS.find((c) => c.id === e.card)?.type === 'CHARACTER')?.card,
    counts: new Map(d.cards.map((e) => [e.card, e.count])),
  }));
  const modelsOf = (s: Seat): Counts[] => {
    const own = models.filter((m) => m.character === v.players[s].character);
    if (own.length > 0) return own.map((m) => m.counts);
    const overlap = (m: Counts) => [...knownOf[s]].reduce((n, [d, k]) => n + Math.min(k, m.get(d) ?? 0), 0);
    const best = Math.max(0, ...models.map((m) => overlap(m.counts)));
    return models.filter((m) => overlap(m.counts) === best).map((m) => m.counts);
  };
  const candidates = { p1: modelsOf('p1'), p2: modelsOf('p2') };
  const playable = CARDS.filter((c) => c.type !== 'CHARACTER').map((c) => c.id);

  return (rng: RandomSource): UniversusState => {
    const instances = new Map(known);
    const pool = (s: Seat, n: number): string[] => {
      const list = candidates[s];
      const model = list.length > 0 ? list[nextInt(rng, list.length)]! : new Map<string, number>();
      const rest: string[] = [];
      for (const [d, k] of model) if (d !== v.players[s].character) for (let i = knownOf[s].get(d) ?? 0; i < k; i++) rest.push(d);
      while (rest.length < n) rest.push(playable[nextInt(rng, playable.length)]!);
      return shuffle(rng, rest);
    };
    const invent = (s: Seat, zone: string, n: number, defs: string[]): string[] =>
      Array.from({ length: n }, (_, i) => {
        const id = `?${s}${zone}${i}`;
        instances.set(id, defs.pop()!);
        return id;
      });
    const player = (s: Seat): PlayerState => {
      const p = v.players[s];
      const hiddenHand = s === opp ? p.handCount : 0;
      const momentumHidden = p.momentumCount - momentumKnown[s].length;
      const defs = pool(s, hiddenHand + p.deckCount + p.removedCount + momentumHidden);
      return {
        character: p.character,
        health: p.health,
        handSize: p.handSize,
        hand: s === opp ? invent(s, 'h', hiddenHand, defs) : (p.hand ?? []).map((c) => c.id),
        deck: invent(s, 'd', p.deckCount, defs),
        discard: p.discard.map((c) => c.id),
        removed: invent(s, 'r', p.removedCount, defs),
        cardPool: p.cardPool.map((e) => ({ id: e.id, role: e.role, dealtDamage: e.dealtDamage, built: e.built })),
        stage: p.stage.map((e) => ({ id: e.id, committed: e.committed })),
        momentum: [...momentumKnown[s], ...invent(s, 'm', momentumHidden, defs)],
      };
    };
    const players = { p1: player('p1'), p2: player('p2') };
    // The seed is published once the game has ended; until then it is drawn.
    let seed = v.seed ?? 'sample-';
    if (v.seed === null) for (let i = 0; i < 16; i++) seed += HEX[nextInt(rng, 16)];
    const state: Omit<UniversusState, 'cards'> = {
      config: facts.config,
      seed,
      seedCommitment: v.seedCommitment,
      players,
      turnPlayer: v.turnPlayer,
      turnNumber: v.turnNumber,
      phase: v.phase,
      pending: v.pending ? { ...v.pending } : null,
      check: v.check ? { seat: v.check.seat, purpose: v.check.purpose, id: v.check.id, difficulty: v.check.difficulty } : null,
      attack: v.attack ? { ...v.attack } : null,
      shuffles: facts.shuffles,
      winner: v.winner,
      winReason: v.winReason,
    };
    return withInstances(state, instances) as UniversusState;
  };
};

/**
 * The leaf value for `seat`: the health lead, an attack in flight counted at half its damage (it
 * may be blocked), foundations (ready ones on the stage pay for checks; ones built this turn go
 * there at the end of it) and cards in hand. A finished game is ±1000.
 */
export function evaluate(s: UniversusState, seat: Seat): number {
  const opp = otherSeat(seat);
  if (s.phase === 'OVER') return s.winner === null ? 0 : s.winner === seat ? 1000 : -1000;
  const side = (p: PlayerState): number => {
    let v = p.health + 0.1 * p.hand.length;
    for (const f of p.stage) v += f.committed ? 0.3 : 0.5;
    for (const e of p.cardPool) if (e.built) v += 0.4;
    return v;
  };
  let value = side(s.players[seat]) - side(s.players[opp]);
  if (s.attack) value += (s.attack.attacker === seat ? 0.5 : -0.5) * s.attack.damage;
  // A check waiting for foundations: as good as passed when the stage can pay the shortfall.
  const p = s.pending;
  if (p?.kind === 'AWAIT_COMMIT' && s.check) {
    const ready = s.players[p.seat].stage.filter((f) => !f.committed).length;
    const card = CARD_BY_ID.get(instanceOf(s, s.check.id) ?? '');
    if (card && ready >= p.shortfall) {
      const gain = (card.type === 'ATTACK' && s.check.purpose === 'PLAY' ? 0.5 * card.damage : 0.4) - 0.2 * p.shortfall;
      value += p.seat === seat ? gain : -gain;
    }
  }
  return value;
}
