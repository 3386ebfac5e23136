/**
 * Property tests over random playouts that choose only from legalActions (fast-check drives the
 * seeds and settings). Rule IDs: R-BOARD-6, R-SCORE-1..3, R-END-1/5, R-GY-1, plus the
 * engine-level guarantees: replay = live state; views never leak hidden information.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actionDescriber,
  apply,
  board,
  createGame,
  defaultCardSet,
  expandDeckList,
  legalActions,
  pendingDecision,
  randomPlayer,
  redactEvent,
  replay,
  seedCommitment,
  seededPick,
  RulesConfigSchema,
  view,
  type GameEvent,
  type GameState,
  type Seat,
} from '../../../src/games/evons/index.js';

const cardSet = defaultCardSet();
const starter = cardSet.file.starterDecks.map((d) => expandDeckList(d.cards));

const configArb = fc.record({
  arrowReach: fc.constantFrom('LINE' as const, 'ADJACENT' as const),
  coveredHitByArrow: fc.constantFrom('DESTROY' as const, 'FLIP_OWNERSHIP' as const, 'IGNORE' as const),
  growthAutoReveal: fc.boolean(),
  unpaidCoverBehaviour: fc.constantFrom('STAY_COVERED' as const, 'DESTROY' as const),
  allowDirectBlockPlay: fc.boolean(),
  colorSynergy: fc.boolean(),
  magnetismSelfPull: fc.boolean(),
  firstPlayer: fc.constantFrom('RANDOM' as const, 'p1' as const, 'p2' as const),
});

interface Playout {
  state: GameState;
  events: GameEvent[];
  states: GameState[];
}

const MAX_DECISIONS = 5000;

function playout(seed: number, deckA: number, deckB: number, cfg: object, opts: { keepStates?: boolean; resignAt?: number } = {}): Playout {
  const config = RulesConfigSchema.parse(cfg);
  const created = createGame({ cardSet, config, decks: { p1: starter[deckA]!, p2: starter[deckB]! }, seed: `prop-${seed}` });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const events = [...created.events];
  const states = opts.keepStates ? [state] : [];
  const choose = randomPlayer(`player-${seed}`);
  for (let n = 0; !state.result; n++) {
    if (n >= MAX_DECISIONS) throw new Error(`no end after ${MAX_DECISIONS} decisions`);
    const d = pendingDecision(state);
    check(d !== null, 'a running game always waits for a decision');
    const actions = legalActions(state, d!.seat);
    const others = legalActions(state, d!.seat === 'p1' ? 'p2' : 'p1');
    check(others.length === 0, () => `the seat not deciding has legal actions: ${JSON.stringify(others)}`);
    const action = n === opts.resignAt ? { type: 'resign' as const } : choose(state, actions);
    const r = apply(state, d!.seat, action);
    if (!r.ok) throw new Error(`legal action rejected: ${JSON.stringify(action)} → ${r.error.code}: ${r.error.message}`);
    checkInvariants(r.state);
    state = r.state;
    events.push(...r.events);
    if (opts.keepStates) states.push(state);
  }
  return { state, events, states };
}

function checkInvariants(s: GameState): void {
  // Every card in exactly one place; a cell holds at most one card (R-BOARD-6).
  const places = new Map<string, number>();
  const count = (id: string) => places.set(id, (places.get(id) ?? 0) + 1);
  for (const bc of s.board) if (bc) count(bc.id);
  for (const seat of ['p1', 'p2'] as const) {
    s.decks[seat].forEach(count);
    s.hands[seat].forEach(count);
    s.graveyards[seat].forEach((id) => {
      count(id);
      check(s.cards[id]!.owner === seat, () => `R-GY-2: graveyards hold their owner’s cards: ${id} of ${s.cards[id]!.owner} in ${seat}'s`);
    });
  }
  s.removed.forEach(count);
  check(places.size === Object.keys(s.cards).length, () => `${places.size} cards placed, ${Object.keys(s.cards).length} exist`);
  for (const [id, n] of places) if (n !== 1) throw new Error(`${id} is in ${n} places`);
  // R-SCORE-1..3: recount independently.
  const recount = { p1: 0, p2: 0 };
  for (let i = 0; i < board.CELL_COUNT; i++) {
    const bc = s.board[i];
    if (!bc || bc.covered || !board.isMainZone(i)) continue;
    if (cardSet.byId.get(s.cards[bc.id]!.def)!.kind === 'monster') recount[bc.facing]++;
  }
  const v = view(s, 'spectator');
  check(
    v.seats.p1.score === recount.p1 && v.seats.p2.score === recount.p2,
    () => `view scores ${v.seats.p1.score}/${v.seats.p2.score}, recount ${recount.p1}/${recount.p2}`,
  );
  check(recount.p1 + recount.p2 <= 25, () => `${recount.p1 + recount.p2} monsters score`);
  if (s.result) {
    // Rare (once per game): expect's messages.
    expect(s.result.scores).toEqual(recount);
    if (s.result.reason === 'main-zone-full') {
      for (let i = 0; i < board.CELL_COUNT; i++) if (board.isMainZone(i)) expect(s.board[i]).not.toBeNull();
    } else {
      expect(['stalemate', 'resignation', 'deck-out']).toContain(s.result.reason);
    }
  }
}

/** Ids `viewer` must never see: the other seat's cards that were never public (still in hand or deck). */
function neverSeen(s: GameState, viewer: Seat | 'spectator'): Set<string> {
  const seats: Seat[] = viewer === 'spectator' ? ['p1', 'p2'] : [viewer === 'p1' ? 'p2' : 'p1'];
  return new Set(seats.flatMap((seat) => [...s.hands[seat], ...s.decks[seat]]));
}

function assertNoLeak(s: GameState, viewer: Seat | 'spectator', hiddenIds: ReadonlySet<string>): void {
  const v = view(s, viewer);
  const json = JSON.stringify(v);
  const shown = containedIds(json, hiddenIds);
  check(shown.length === 0, () => `${viewer} view shows hidden card ${shown[0]}`);
  if (!s.result) check(!json.includes(s.seed), () => `${viewer} view shows the seed`);
  for (const seat of ['p1', 'p2'] as const) {
    if (seat !== viewer) check(v.seats[seat].hand === null, () => `${viewer} sees ${seat}'s hand: ${JSON.stringify(v.seats[seat].hand)}`);
  }
  for (const c of v.board) {
    if (c.card?.covered && c.card.owner !== viewer)
      check(c.card.defId === null && c.card.name === null, () => `${viewer} sees covered ${c.cell}: ${c.card!.defId} ${c.card!.name}`);
  }
}

/**
 * A plain assertion for the per-step checks. They run hundreds of thousands of times per run,
 * and one expect() call costs more than a game step (measured: vitest's expect bookkeeping was
 * about 40% of this file's CPU); the check is the same, only the failure text is built by hand.
 */
function check(ok: boolean, message: string | (() => string)): asserts ok {
  if (!ok) throw new Error(typeof message === 'string' ? message : message());
}

/** The card instance ids' shape (11 characters: 'c' and ten of [0-9a-z]). */
const ID_SHAPE = /^c[0-9a-z]{10}$/;
/** Every place in a text where an id-shaped string starts (overlapping ones too). */
const ID_CANDIDATE = /(?=(c[0-9a-z]{10}))/g;
const allIdShaped = new WeakMap<ReadonlySet<string>, boolean>();

/**
 * Which of `ids` occur in `text` as substrings: the same answer as
 * `[...ids].filter((id) => text.includes(id))` (order aside), in one pass over the text when
 * every id has the instance id shape: each id-shaped substring of the text is looked up in the
 * set. The views, events and texts are checked against every hidden id at every step; one
 * includes() per id was most of this file's CPU once expect() left the hot loops.
 */
function containedIds(text: string, ids: ReadonlySet<string>): string[] {
  let shaped = allIdShaped.get(ids);
  if (shaped === undefined) {
    shaped = [...ids].every((id) => ID_SHAPE.test(id));
    allIdShaped.set(ids, shaped);
  }
  if (!shaped) return [...ids].filter((id) => text.includes(id));
  const found = new Set<string>();
  for (const m of text.matchAll(ID_CANDIDATE)) if (ids.has(m[1]!)) found.add(m[1]!);
  return [...found];
}

/** expect(actual).toEqual(expected), with node's strict deep equality as the fast path (strictly equal implies toEqual). */
function expectEqual(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}

// Each property plays hundreds of complete games: generous timeouts, no timing assertions.
const SLOW = { timeout: 600_000 };

describe('random playouts (fast-check)', () => {
  it('R-BOARD-6 R-SCORE-1..3 R-END-1/5: 1,500 games end with no exception and all invariants holding', SLOW, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat(2), fc.nat(2), configArb, (seed, a, b, cfg) => {
        const { state } = playout(seed, a, b, cfg);
        expect(state.result).not.toBeNull();
      }),
      { numRuns: 1500 },
    );
  });

  it('replay(events) deep-equals the live state, at the end and at every step', SLOW, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), configArb, (seed, cfg) => {
        const { state, events } = playout(seed, 0, 1, cfg);
        expectEqual(replay(events, cardSet), state);
      }),
      { numRuns: 300 },
    );
    const { events, states } = playout(4242, 1, 2, {}, { keepStates: true });
    // Every intermediate state equals the replay of the events up to it.
    let upTo = 0;
    const created = createGame({ cardSet, config: states[0]!.config, decks: { p1: starter[1]!, p2: starter[2]! }, seed: 'prop-4242' });
    upTo = created.ok ? created.events.length : 0;
    expect(replay(events.slice(0, upTo), cardSet)).toEqual(states[0]);
  });

  it('no seat or spectator view, and no redacted event, shows the other hand, deck order, covered identities or the seed', SLOW, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), configArb, (seed, cfg) => {
        const { state, events, states } = playout(seed, 0, 2, cfg, { keepStates: true });
        for (const s of states) {
          for (const viewer of ['p1', 'p2', 'spectator'] as const) assertNoLeak(s, viewer, neverSeen(s, viewer));
        }
        for (const viewer of ['p1', 'p2', 'spectator'] as const) {
          const hidden = neverSeen(state, viewer);
          const log = JSON.stringify(events.map((e) => redactEvent(e, viewer)).filter((e) => e && e.type !== 'SeedRevealed'));
          const shown = containedIds(log, hidden);
          check(shown.length === 0, () => `${viewer} log shows ${shown[0]}`);
          check(!log.includes(state.seed), () => `${viewer} log shows the seed before the end`);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('resigning at a random point ends the game at once; the other seat wins', SLOW, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat(60), (seed, at) => {
        const { state } = playout(seed, 0, 1, {}, { resignAt: at });
        if (state.result!.reason === 'resignation') expect(state.result!.winner).not.toBeNull();
      }),
      { numRuns: 100 },
    );
  });

  it('apply never mutates its input state', SLOW, () => {
    const { states } = playout(77, 0, 1, {}, { keepStates: true });
    const snapshot = JSON.stringify(states.map((s) => ({ ...s, cardSet: undefined })));
    // Re-apply a legal action to every stored state; the stored states must not move.
    for (const s of states) {
      const d = pendingDecision(s);
      if (d) apply(s, d.seat, legalActions(s, d.seat)[0]!);
    }
    expect(JSON.stringify(states.map((s) => ({ ...s, cardSet: undefined })))).toBe(snapshot);
  });
});

describe('arbitrary actions (fast-check)', () => {
  // Cells and card ids drawn from what the state holds, plus some that do not exist.
  function actionArb(s: GameState) {
    const ids = [...Object.keys(s.cards), 'c-nope', ''];
    const cells = ['A1', 'C3', 'E5', 'X0', 'Y6', 'D2', 'B4', 'Z9'];
    const id = fc.constantFrom(...ids);
    const cell = fc.constantFrom(...cells);
    return fc.oneof(
      fc.record({ type: fc.constant('reveal'), card: id }),
      fc.record({ type: fc.constant('play'), card: id, cell, covered: fc.boolean() }),
      fc.constant({ type: 'pass' }),
      fc.record({
        type: fc.constant('ability'),
        arrow: fc.integer({ min: -1, max: 8 }),
        target: cell,
        card: fc.option(id, { nil: undefined }),
        pull: fc.option(cell, { nil: undefined }),
      }),
      fc.constant({ type: 'end-phase' }),
      fc.record({ type: fc.constant('conflict'), defender: id }),
      fc.record({ type: fc.constant('activate'), card: id }),
      fc.record({ type: fc.constant('discard'), card: id }),
      fc.record({ type: fc.constantFrom('fly', 'PLAY', 'resign '), card: id }),
    );
  }

  it('apply never throws; it accepts exactly what legalActions lists (plus resign) and a rejection changes nothing', SLOW, () => {
    const { states } = playout(99, 0, 2, {}, { keepStates: true });
    const sample = states.filter((_, i) => i % 3 === 0);
    for (const s of sample) {
      const d = pendingDecision(s);
      if (!d) continue;
      const legal = new Set(legalActions(s, d.seat).map((a) => JSON.stringify(a)));
      const before = JSON.stringify({ ...s, cardSet: undefined });
      fc.assert(
        fc.property(
          fc.oneof(actionArb(s), fc.constantFrom(...legalActions(s, d.seat))),
          fc.constantFrom('p1' as const, 'p2' as const),
          (raw, seat) => {
            const action = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
            const r = apply(s, seat, action);
            const listed = seat === d.seat && legal.has(JSON.stringify(action));
            if (r.ok) check(listed, () => `accepted but not listed: ${JSON.stringify(action)} for ${seat}`);
            else {
              check(!listed, () => `listed but rejected: ${JSON.stringify(action)} → ${r.error.code}`);
              check(typeof r.error.message === 'string', () => `error message is a ${typeof r.error.message}`);
            }
          },
        ),
        { numRuns: 60 },
      );
      expect(JSON.stringify({ ...s, cardSet: undefined })).toBe(before);
    }
  });
});

describe('verifiable deal (R-HAND-4 randomness; seed commitment)', () => {
  it('after the end, the published seed and deck lists recompute the same deal and match the commitment', SLOW, () => {
    const { state, events } = playout(2024, 1, 2, { firstPlayer: 'RANDOM' });
    const pub = events.map((e) => redactEvent(e, 'spectator')).filter((e): e is Record<string, unknown> => e !== null);
    const created = pub.find((e) => e.type === 'MatchCreated')!;
    const revealed = pub.find((e) => e.type === 'SeedRevealed') as { seed: string; decks: Record<Seat, string[]> };
    expect(revealed).toBeDefined();
    // The commitment published at the start is the hash of the seed published at the end.
    expect(seedCommitment(revealed.seed)).toBe(created.seedCommitment);
    // Anyone can deal again from what is public now and get the same cards, ids and first player.
    const again = createGame({ cardSet, config: state.config, decks: revealed.decks, seed: revealed.seed });
    if (!again.ok) throw new Error(again.errors.join('; '));
    expect(again.state.cards).toEqual(state.cards);
    expect(again.state.first).toBe(state.first);
    // The public draws of each seat's own view are the top of that recomputed deck, in order.
    for (const seat of ['p1', 'p2'] as const) {
      const drawn = events.filter((e) => e.type === 'CardDrawn' && e.seat === seat).map((e) => (e as { card: string }).card);
      const dealt = [...again.state.hands[seat], ...again.state.decks[seat]];
      expect(drawn).toEqual(dealt.slice(0, drawn.length));
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Secrecy under every visibility-changing rules setting (hidden information; R-HAND-1, R-FACE-1/3,
// R-FACE-4 (unpaid covers stay covered or die), R-FACE-7 (growthAutoReveal), R-FACE-12
// (coveredHitByArrow), R-PLAY-5 (allowDirectBlockPlay), R-HAND-2 (discards), R-CRED-1/2).

/** Each RulesConfig setting that changes what is visible to whom, alone and all together. */
const VISIBILITY_CONFIGS: Record<string, object> = {
  'R-FACE-12 coveredHitByArrow FLIP_OWNERSHIP': { coveredHitByArrow: 'FLIP_OWNERSHIP' },
  'R-FACE-12 coveredHitByArrow IGNORE': { coveredHitByArrow: 'IGNORE' },
  'R-FACE-7 growthAutoReveal': { growthAutoReveal: true },
  'R-CRED-1/2 R-FACE-4 low credits, many deferred reveals': { startingCredits: 0, creditsPerTurn: 1, unpaidCoverBehaviour: 'STAY_COVERED' },
  'R-FACE-4 unpaidCoverBehaviour DESTROY, low credits': { startingCredits: 0, creditsPerTurn: 1, unpaidCoverBehaviour: 'DESTROY' },
  'R-PLAY-5 allowDirectBlockPlay': { allowDirectBlockPlay: true },
  'R-HAND-2 small hand limit (many discards)': { handLimit: 1, startingHandSize: 7 },
  'all together': {
    coveredHitByArrow: 'FLIP_OWNERSHIP',
    growthAutoReveal: true,
    startingCredits: 2,
    creditsPerTurn: 1,
    allowDirectBlockPlay: true,
    magnetismSelfPull: true,
    arrowReach: 'ADJACENT',
  },
};

const VIEWERS = ['p1', 'p2', 'spectator'] as const;
type AnyViewer = (typeof VIEWERS)[number];

/** Ids whose existence `viewer` may not learn: every deck (order is secret) and the other hands. */
function hiddenIds(s: GameState, viewer: AnyViewer): Set<string> {
  const out = new Set<string>([...s.decks.p1, ...s.decks.p2]);
  for (const seat of ['p1', 'p2'] as const) if (seat !== viewer) s.hands[seat].forEach((id) => out.add(id));
  return out;
}

/** Cards whose identity `viewer` may not learn: the hidden ids plus covered cards it does not own. */
function hiddenIdentities(s: GameState, viewer: AnyViewer): Set<string> {
  const out = hiddenIds(s, viewer);
  for (const bc of s.board) if (bc?.covered && s.cards[bc.id]!.owner !== viewer) out.add(bc.id);
  return out;
}

const nameOf = (s: GameState, id: string) => cardSet.byId.get(s.cards[id]!.def)!.name;

/** Card ids an action refers to. */
function refs(a: Record<string, unknown>): string[] {
  return [a.card, a.defender].filter((x): x is string => typeof x === 'string');
}

interface Hidden {
  ids: Set<string>;
  identities: Set<string>;
}

const hiddenFor = (s: GameState, viewer: AnyViewer): Hidden => ({ ids: hiddenIds(s, viewer), identities: hiddenIdentities(s, viewer) });

/**
 * Throws if `text` (shown to `viewer`) carries a hidden id it was not sent, or names a hidden card
 * the action refers to. Plain checks, not expect(): this runs millions of times.
 */
function assertTextSafe(s: GameState, h: Hidden, viewer: AnyViewer, text: string, action: Record<string, unknown>, what: string): void {
  const sent = JSON.stringify(action);
  for (const id of containedIds(text, h.ids)) {
    if (!sent.includes(id)) throw new Error(`${what} for ${viewer} shows hidden id ${id}: ${text}`);
  }
  for (const id of refs(action)) {
    if (!h.identities.has(id) || !s.cards[id]) continue;
    const def = s.cards[id]!.def;
    if (text.includes(nameOf(s, id)) || (!sent.includes(def) && text.includes(def)))
      throw new Error(`${what} for ${viewer} names hidden ${id} (${def}): ${text}`);
  }
}

/** Throws if one redacted event names a hidden card for `viewer` (`s` = the state after its step). */
function assertEventSafe(s: GameState, h: Hidden, viewer: AnyViewer, e: Record<string, unknown>): void {
  if (e.type === 'SeedRevealed') return;
  const json = JSON.stringify(e);
  for (const id of containedIds(json, h.ids)) throw new Error(`${viewer} event ${json} shows hidden id ${id}`);
  if (typeof e.card === 'string' && 'defId' in e && h.identities.has(e.card))
    throw new Error(`${viewer} event ${json} identifies a hidden card`);
  if (!s.result && json.includes(s.seed)) throw new Error(`${viewer} event shows the seed`);
}

/** A few arbitrary actions drawn from every id the state holds (most are illegal). */
function randomActions(s: GameState, pick: (n: number) => number, n: number): Record<string, unknown>[] {
  const ids = Object.keys(s.cards);
  const cells = ['A1', 'B2', 'C3', 'D4', 'E5', 'X0', 'Y6', 'Q9'];
  const id = () => ids[pick(ids.length)]!;
  const cell = () => cells[pick(cells.length)]!;
  const make = [
    () => ({ type: 'reveal', card: id() }),
    () => ({ type: 'play', card: id(), cell: cell(), covered: pick(2) === 0 }),
    () => ({ type: 'ability', arrow: pick(8), target: cell(), card: id() }),
    () => ({ type: 'conflict', defender: id() }),
    () => ({ type: 'activate', card: id() }),
    () => ({ type: 'discard', card: id() }),
    () => ({ type: 'pass' }),
  ];
  return Array.from({ length: n }, () => make[pick(make.length)]!());
}

function checkSecrecy(seed: number, cfg: object): void {
  const config = RulesConfigSchema.parse(cfg);
  const created = createGame({ cardSet, config, decks: { p1: starter[seed % 3]!, p2: starter[(seed + 1) % 3]! }, seed: `leak-${seed}` });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  let stepEvents: GameEvent[] = created.events;
  const choose = randomPlayer(`leak-player-${seed}`);
  const pick = seededPick(`leak-actions-${seed}`);
  for (let n = 0; ; n++) {
    if (n >= MAX_DECISIONS) throw new Error(`no end after ${MAX_DECISIONS} decisions`);
    const hidden = { p1: hiddenFor(state, 'p1'), p2: hiddenFor(state, 'p2'), spectator: hiddenFor(state, 'spectator') };
    for (const viewer of VIEWERS) {
      assertNoLeak(state, viewer, hidden[viewer].ids);
      for (const e of stepEvents) {
        const r = redactEvent(e, viewer);
        if (r) assertEventSafe(state, hidden[viewer], viewer, r);
      }
    }
    if (state.result) return;
    const d = pendingDecision(state)!;
    const actions = legalActions(state, d.seat);
    for (const viewer of VIEWERS) {
      const describe = actionDescriber(state, viewer);
      for (const a of actions) assertTextSafe(state, hidden[viewer], viewer, describe(a), a as Record<string, unknown>, 'action text');
    }
    for (const a of randomActions(state, pick, 4)) {
      for (const seat of ['p1', 'p2'] as const) {
        const r = apply(state, seat, a);
        if (!r.ok) assertTextSafe(state, hidden[seat], seat, r.error.message, a, `error ${r.error.code}`);
      }
    }
    const r = apply(state, d.seat, choose(state, actions));
    if (!r.ok) throw new Error(r.error.message);
    state = r.state;
    stepEvents = r.events;
  }
}

describe('secrecy under every visibility-changing setting (views, redacted events, action text, rule errors)', () => {
  for (const [name, cfg] of Object.entries(VISIBILITY_CONFIGS)) {
    it(`${name}: no view, event, action text or error message names a card the viewer may not know`, SLOW, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => checkSecrecy(seed, cfg)),
        { numRuns: Number(process.env.LEAK_RUNS ?? 6) },
      );
    });
  }

  it('the id search (containedIds) finds exactly what includes() finds, in real views and in planted texts', () => {
    const { states } = playout(31, 0, 1, {}, { keepStates: true });
    for (const s of states.filter((_, i) => i % 7 === 0)) {
      const ids = new Set(Object.keys(s.cards));
      const some = [...ids].filter((_, i) => i % 5 === 0);
      for (const text of [JSON.stringify(view(s, 'p1')), `x${some.join('')}y`, some.join('-').replace(/c/g, 'cc'), '']) {
        expect(containedIds(text, ids).sort()).toEqual([...ids].filter((id) => text.includes(id)).sort());
      }
    }
    const odd = new Set(['not-an-id', 'c0123456789']);
    expect(containedIds('… not-an-id …', odd)).toEqual(['not-an-id']);
  });

  it('the oracle catches the FLIP_OWNERSHIP leak: naming a flipped covered card by its controller', () => {
    // Guards the guard: a text built from the full state (what the old describeAction did) fails.
    let caught = 0;
    for (let seed = 1; seed < 40 && caught === 0; seed++) {
      const created = createGame({
        cardSet,
        config: RulesConfigSchema.parse({ coveredHitByArrow: 'FLIP_OWNERSHIP' }),
        decks: { p1: starter[0]!, p2: starter[1]! },
        seed: `oracle-${seed}`,
      });
      if (!created.ok) throw new Error('deal');
      let state = created.state;
      const choose = randomPlayer(`oracle-${seed}`);
      while (!state.result) {
        const d = pendingDecision(state)!;
        const actions = legalActions(state, d.seat);
        for (const a of actions) {
          if (a.type !== 'reveal' || state.cards[a.card]!.owner === d.seat) continue;
          expect(() => assertTextSafe(state, hiddenFor(state, d.seat), d.seat, `Reveal ${nameOf(state, a.card)}`, a, 'old text')).toThrow();
          caught++;
        }
        const r = apply(state, d.seat, choose(state, actions));
        if (!r.ok) throw new Error(r.error.message);
        state = r.state;
      }
    }
    expect(caught, 'some random FLIP_OWNERSHIP game offers a reveal of a flipped opponent card').toBeGreaterThan(0);
  });
});
