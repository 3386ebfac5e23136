/**
 * Hidden information for computer players (Ruleset.hiddenInformation): full states sampled from
 * what one seat knows, and the heuristic a search evaluates its leaves with.
 *
 * What the seat is taken to know (docs/rules-decisions.md, "What a computer player knows"):
 * - its view: the board (its own covered cards named, the other seat's not), its hand, both
 *   graveyards, the removed cards, counts, credits, turn, step and the pending decision;
 * - the events it may see (redactEvent for that seat): the turn's bookkeeping the view leaves
 *   out (the chain of activations, arrows used, reveals due, the turn's play, stalled passes,
 *   cards moved this turn, owners of removed cards), all public, and the names of cards it saw
 *   face up (a card turned face down again keeps the name the seat saw);
 * - not the deck lists: they are secret in this service, its own included (the view does not
 *   carry it). Each seat's 60 cards are modelled as the public starter deck that best explains
 *   the cards of that seat seen so far (ties drawn at random); cards beyond the model's are drawn
 *   from the whole card set. An approximation of the real lists, never a peek at them.
 * Hidden, and drawn: the other seat's hand, both decks' order and contents, the other seat's
 * covered cards (monsters: Block cards are never covered). The seed is drawn too (it orders
 * nothing after the deal), and the commitment is copied from the view.
 *
 * Without events, the bookkeeping is rebuilt from the view alone: exact outside a chain (no
 * activation on the stack), an approximation inside one (a single frame for the pending card).
 */
import type { RandomSource } from '../../core/random.js';
import { nextInt, shuffle } from '../../core/random.js';
import type { HiddenInformation } from '../../core/ruleset.js';
import { CELL_COUNT, cellIndex, MAIN_ZONE } from './board.js';
import type { CardSet } from './cards.js';
import { LATER_SETTINGS, type RulesConfig } from './config.js';
import { pendingDecision } from './flow.js';
import { emptyState } from './setup.js';
import { other, type CardInstance, type GameState, type Seat, type Step } from './state.js';
import { scores } from './stats.js';
import { CURRENT_GENERATOR, rulesHash } from './version.js';
import type { GameView } from './view.js';
import { foldFacts, type Facts } from './turn-facts.js';
import type { GeneratorId } from '../../core/random.js';

/** The bookkeeping from the view alone (no events): see the header. */
function factsFromView(v: GameView): Facts {
  const f: Facts = {
    stack: [],
    revealDue: [],
    played: false,
    stalled: 0,
    turnAbilities: 0,
    moved: new Set(),
    removedOwner: new Map(),
    seen: new Map(),
  };
  const p = v.pending;
  f.played = v.step === 'activate' || v.step === 'discard' || v.step === 'end';
  if (p?.kind === 'reveal-order') f.revealDue = [...p.cards];
  if (p?.kind === 'ability')
    f.stack.push({
      card: p.card,
      kind: 'activation',
      phase: p.phase === 1 ? 'ability1' : 'ability2',
      used: [],
      revivedCost: 0,
      conflicts: null,
      triggers: [],
    });
  if (p?.kind === 'conflict-order')
    f.stack.push({
      card: p.card,
      kind: 'activation',
      phase: 'conflicts',
      used: [],
      revivedCost: 0,
      conflicts: [...p.defenders],
      triggers: [],
    });
  if (p?.kind === 'trigger-order')
    f.stack.push({
      card: p.cards[0]!,
      kind: 'activation',
      phase: 'ability2',
      used: [],
      revivedCost: 0,
      conflicts: null,
      triggers: [...p.cards],
    });
  return f;
}

/** A multiset of card definitions. */
type Counts = Map<string, number>;
const countOf = (defs: readonly string[]): Counts => {
  const m: Counts = new Map();
  for (const d of defs) m.set(d, (m.get(d) ?? 0) + 1);
  return m;
};

/** The generator and stored config whose rules hash the view shows (the view shows the config as shownConfig did). */
function configOf(v: GameView, cardSet: CardSet): { config: RulesConfig; rng: GeneratorId | null } {
  // A config stored before later settings lacks a tail of LATER_SETTINGS (its view shows them null).
  const configs: RulesConfig[] = [v.config];
  for (let i = LATER_SETTINGS.length - 1; i >= 0 && v.config[LATER_SETTINGS[i]!] === null; i--) {
    const rest: Partial<RulesConfig> = { ...v.config };
    for (const key of LATER_SETTINGS.slice(i)) delete rest[key];
    configs.push(rest as RulesConfig);
  }
  for (const config of configs)
    for (const rng of [CURRENT_GENERATOR, 'sfc32', null] as const)
      if (rulesHash(config, cardSet, rng) === v.rulesHash) return { config, rng };
  return { config: v.config, rng: CURRENT_GENERATOR };
}

const HEX = '0123456789abcdef';

export function sampler(cardSet: CardSet): HiddenInformation<GameState, GameView>['sampler'] {
  return (v, seat, events) => {
    if (v.viewer !== seat) throw new Error(`the view is ${v.viewer}'s, not ${seat}'s`);
    const opp = other(seat);
    const facts = events.length > 0 ? foldFacts(events) : factsFromView(v);
    const { config, rng: generator } = configOf(v, cardSet);
    const known = new Map<string, CardInstance>();
    const unknownCovered: Record<Seat, string[]> = { p1: [], p2: [] };
    for (const cell of v.board) {
      const c = cell.card;
      if (!c) continue;
      const def = c.defId ?? facts.seen.get(c.id);
      if (def && cardSet.byId.get(def)?.kind === 'monster') known.set(c.id, { def, owner: c.owner });
      else if (def && !c.covered) known.set(c.id, { def, owner: c.owner });
      else unknownCovered[c.owner].push(c.id);
    }
    for (const c of v.seats[seat].hand ?? []) known.set(c.id, { def: c.defId, owner: seat });
    for (const s of ['p1', 'p2'] as const) for (const c of v.seats[s].graveyard) known.set(c.id, { def: c.defId, owner: s });
    for (const c of v.removed) known.set(c.id, { def: c.defId, owner: facts.removedOwner.get(c.id) ?? seat });

    const monsters = [...cardSet.byId.values()].filter((d) => d.kind === 'monster').map((d) => d.id);
    const allDefs = [...cardSet.byId.keys()];
    const models = cardSet.file.starterDecks.map((d) => countOf(d.cards.flatMap((e) => Array<string>(e.count).fill(e.card))));
    const knownOf: Record<Seat, Counts> = { p1: new Map(), p2: new Map() };
    for (const inst of known.values()) knownOf[inst.owner].set(inst.def, (knownOf[inst.owner].get(inst.def) ?? 0) + 1);
    /** Starter decks by how many of the seat's known cards they explain, best first. */
    const ranked = (s: Seat): Counts[] => {
      const overlap = (m: Counts) => [...knownOf[s]].reduce((n, [d, k]) => n + Math.min(k, m.get(d) ?? 0), 0);
      const best = Math.max(0, ...models.map(overlap));
      return models.filter((m) => overlap(m) === best);
    };
    const candidates = { p1: ranked('p1'), p2: ranked('p2') };
    const hiddenHand = v.seats[opp].handCount;
    const deckCount = { p1: v.seats.p1.deckCount, p2: v.seats.p2.deckCount };
    const board = Array.from({ length: CELL_COUNT }, () => null) as GameState['board'];
    for (const cell of v.board) {
      const c = cell.card;
      if (c)
        board[cellIndex(cell.cell)!] = {
          id: c.id,
          facing: c.facing,
          covered: c.covered,
          growth: c.growthPlaced,
          damage: c.damage,
          moved: facts.moved.has(c.id),
        };
    }
    const result = v.result ? { ...v.result, scores: { ...v.result.scores } } : null;
    const step: Step = v.result ? 'over' : v.step;

    const draw = (rng: RandomSource): GameState => {
      const instances = new Map(known);
      /** The seat's unknown cards' definitions, in a random order: the model's rest, then any cards. */
      const pool = (s: Seat, n: number): string[] => {
        const list = candidates[s];
        const model = list.length > 0 ? list[nextInt(rng, list.length)]! : new Map<string, number>();
        const rest: string[] = [];
        for (const [d, k] of model) for (let i = knownOf[s].get(d) ?? 0; i < k; i++) rest.push(d);
        while (rest.length < n) rest.push(allDefs[nextInt(rng, allDefs.length)]!);
        return shuffle(rng, rest);
      };
      const decks: Record<Seat, string[]> = { p1: [], p2: [] };
      const hands: Record<Seat, string[]> = { p1: (v.seats.p1.hand ?? []).map((c) => c.id), p2: (v.seats.p2.hand ?? []).map((c) => c.id) };
      for (const s of ['p1', 'p2'] as const) {
        const covered = unknownCovered[s];
        const handN = s === opp ? hiddenHand : 0;
        const defs = pool(s, covered.length + handN + deckCount[s]);
        // Covered cards first, each the first monster left (Block cards are never covered).
        for (const id of covered) {
          const i = defs.findIndex((d) => cardSet.byId.get(d)?.kind === 'monster');
          const def = i >= 0 ? defs.splice(i, 1)[0]! : monsters[nextInt(rng, monsters.length)]!;
          instances.set(id, { def, owner: s });
        }
        // Invented ids ('?' is never in a dealt id), in zones whose ids the seat never sees.
        for (let i = 0; i < handN; i++) {
          const id = `?${s}h${i}`;
          instances.set(id, { def: defs.pop()!, owner: s });
          hands[s].push(id);
        }
        for (let i = 0; i < deckCount[s]; i++) {
          const id = `?${s}d${i}`;
          instances.set(id, { def: defs.pop()!, owner: s });
          decks[s].push(id);
        }
      }
      // The seed is published once the game has ended; until then it is drawn.
      let seed = v.seed ?? 'sample-';
      if (v.seed === null) for (let i = 0; i < 16; i++) seed += HEX[nextInt(rng, 16)];
      const s = emptyState(cardSet, config, seed, instances, v.first, null, generator, v.seedCommitment);
      s.board = board.map((b) => (b ? { ...b } : null));
      s.decks = decks;
      s.hands = hands;
      s.graveyards = { p1: v.seats.p1.graveyard.map((c) => c.id), p2: v.seats.p2.graveyard.map((c) => c.id) };
      s.removed = v.removed.map((c) => c.id);
      s.credits = { p1: v.seats.p1.credits, p2: v.seats.p2.credits };
      s.turn = v.turn;
      s.active = v.active;
      s.step = step;
      s.revealDue = [...facts.revealDue];
      s.played = facts.played;
      s.stack = facts.stack.map((f) => ({
        ...f,
        used: [...f.used],
        conflicts: f.conflicts ? [...f.conflicts] : null,
        triggers: [...f.triggers],
      }));
      s.stalled = facts.stalled;
      s.turnAbilities = facts.turnAbilities;
      s.result = result ? { ...result, scores: { ...result.scores } } : null;
      return s;
    };
    // The pending decision says something about hidden cards too (the other seat may place a
    // Block card from its hand only if it holds one): draws that disagree with it are rejected.
    // Earlier decisions of the other seat are not checked (an approximation, see the header).
    const pending = JSON.stringify(v.pending);
    return (rng: RandomSource) => {
      let s = draw(rng);
      for (let i = 1; i < MAX_DRAWS && JSON.stringify(pendingDecision(s)) !== pending; i++) s = draw(rng);
      return s;
    };
  };
}

/** Draws before a sample that disagrees with the pending decision is given anyway (never seen in the property tests). */
const MAX_DRAWS = 256;

/**
 * The leaf value for `seat`: the score lead (R-SCORE), with a little for covered cards in the
 * main zone (likely points next turn), credits and cards in hand. A finished game is ±1000.
 */
export function evaluate(s: GameState, seat: Seat): number {
  const opp = other(seat);
  if (s.result) return s.result.winner === null ? 0 : s.result.winner === seat ? 1000 : -1000;
  const sc = scores(s);
  let value = sc[seat] - sc[opp];
  for (const i of MAIN_ZONE) {
    const bc = s.board[i];
    if (bc?.covered) value += bc.facing === seat ? 0.4 : -0.4;
  }
  value += 0.05 * (s.credits[seat] - s.credits[opp]) + 0.05 * (s.hands[seat].length - s.hands[opp].length);
  return value;
}
