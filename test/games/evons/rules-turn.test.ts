/** §7 Credits, §8 Deck/hand, §9 Turn structure, §6 covered cards at step 3, and the settings that govern them. */
import { describe, expect, it } from 'vitest';
import { createGame, expandDeckList, parseConfig } from '../../../src/games/evons/index.js';
import { act, at, build, card, cs, decision, eventsOf, hid, legal, playCovered, playUp, start, types } from './helpers.js';

describe('credits and playing', () => {
  it('R-CRED-4 R-PLAY-4: a face-up play pays the cost at once and activates', () => {
    const s = build({ hands: { p1: ['c4'] }, credits: { p1: 10 } });
    const r = act(s, 'p1', playUp(hid('c4', 'p1'), 'C3'));
    expect(r.events.slice(0, 2)).toEqual([
      { type: 'CardPlayed', seat: 'p1', card: hid('c4', 'p1'), defId: 'c4', cell: 'C3', covered: false, paid: 4, total: 6 },
      { type: 'ActivationStarted', card: hid('c4', 'p1'), cell: 'C3', kind: 'activation' },
    ]);
    expect(r.state.credits.p1).toBe(6);
  });

  it('R-CRED-5 R-CRED-9 R-FACE-15 R-TURN-5: a covered play costs nothing now, even with 0 credits, and does not activate', () => {
    const s = build({ hands: { p1: ['titan'] }, credits: { p1: 0 } });
    const offered = legal(s).filter((a) => a.type === 'play' && a.card === hid('titan', 'p1'));
    expect(offered.every((a) => a.type === 'play' && a.covered)).toBe(true);
    expect(offered).toHaveLength(49);
    const r = act(s, 'p1', playCovered(hid('titan', 'p1'), 'C3'));
    expect(r.state.credits.p1).toBe(0);
    expect(types(r.events)).not.toContain('ActivationStarted');
    expect(at(r.state, 'C3')).toMatchObject({ covered: true, growth: false, facing: 'p1' });
  });

  it("R-FACE-3/4 R-CRED-5: the covered card is revealed at the owner's next step 3, pays then and activates", () => {
    const s = build({ hands: { p1: ['c4'] }, board: { D3: card('p2', 'f') }, credits: { p1: 10 } });
    const r = act(s, 'p1', playCovered(hid('c4', 'p1'), 'C3'));
    const r2 = act(r.state, 'p2', { type: 'pass' });
    expect(r2.events).toContainEqual({
      type: 'CardRevealed',
      seat: 'p1',
      card: hid('c4', 'p1'),
      defId: 'c4',
      cell: 'C3',
      paid: 4,
      total: 11,
    });
    expect(r2.events).toContainEqual({ type: 'ActivationStarted', card: hid('c4', 'p1'), cell: 'C3', kind: 'activation' });
    expect(r2.events).toContainEqual({ type: 'CardFlipped', card: 'f@D3', cell: 'D3', to: 'p1', covered: false });
  });

  it('R-FACE-4 (unpaidCoverBehaviour STAY_COVERED, default): an unaffordable covered card stays covered and is offered again', () => {
    const spec = {
      turn: 3,
      step: 'start' as const,
      config: { creditsPerTurn: 0 },
      credits: { p1: 3 },
      board: { C3: card('p1', 'c4', { covered: true }) },
      hands: { p1: ['filler'] },
    };
    const { state, events } = start(spec);
    expect(events).toContainEqual({ type: 'RevealDeferred', seat: 'p1', card: 'c4@C3', cell: 'C3' });
    expect(at(state, 'C3')).toMatchObject({ covered: true });
    expect(state.credits.p1).toBe(3);
    // next own turn, with enough credits, it is revealed
    const r = act(state, 'p1', { type: 'pass' });
    const r2 = act({ ...r.state, credits: { ...r.state.credits, p1: 4 } }, 'p2', { type: 'pass' });
    expect(r2.events).toContainEqual(expect.objectContaining({ type: 'CardRevealed', card: 'c4@C3', paid: 4, total: 0 }));
  });

  it("R-FACE-4 (unpaidCoverBehaviour DESTROY): the unaffordable covered card goes to its owner's graveyard", () => {
    const { state, events } = start({
      turn: 3,
      step: 'start',
      config: { creditsPerTurn: 0, unpaidCoverBehaviour: 'DESTROY' },
      credits: { p1: 3 },
      board: { C3: card('p1', 'c4', { covered: true }) },
      hands: { p1: ['filler'] },
    });
    expect(events).toContainEqual({ type: 'CardDestroyed', card: 'c4@C3', defId: 'c4', owner: 'p1', cell: 'C3', cause: 'unpaid' });
    expect(state.graveyards.p1).toEqual(['c4@C3']);
    expect(at(state, 'C3')).toBeNull();
  });

  it('R-FACE-5 (OQ-8): several covered cards due → the player orders them, each sequence finishing before the next reveal', () => {
    const { state } = start({
      turn: 3,
      step: 'start',
      board: {
        B3: card('p1', 'east', { covered: true }),
        D4: card('p1', 'north', { covered: true }),
        C3: card('p2', 'f'),
        D2: card('p2', 'wisp'),
      },
      hands: { p1: ['filler'] },
    });
    expect(decision(state)).toEqual({ kind: 'reveal-order', seat: 'p1', cards: expect.arrayContaining(['east@B3', 'north@D4']) });
    expect(legal(state)).toHaveLength(2);
    const r = act(state, 'p1', { type: 'reveal', card: 'north@D4' });
    const t = types(r.events);
    const firstEnd = r.events.findIndex((e) => e.type === 'ActivationEnded' && e.card === 'north@D4');
    const secondReveal = r.events.findIndex((e) => e.type === 'CardRevealed' && e.card === 'east@B3');
    expect(r.events[0]).toMatchObject({ type: 'CardRevealed', card: 'north@D4' });
    expect(firstEnd).toBeGreaterThan(-1);
    expect(firstEnd).toBeLessThan(secondReveal);
    expect(t.filter((x) => x === 'CardFlipped')).toHaveLength(2);
    expect(decision(r.state)).toEqual({ kind: 'play', seat: 'p1' });
  });

  it('R-CRED-6 R-FACE-6 R-FACE-7 (growthAutoReveal true): a Growth-placed card is revealed at step 3 for free and activates', () => {
    const { events, state } = start({
      turn: 3,
      step: 'start',
      config: { growthAutoReveal: true },
      credits: { p1: 0 },
      board: { C3: card('p1', 'titan', { growth: true }) },
      hands: { p1: ['filler'] },
    });
    expect(events).toContainEqual({ type: 'CardRevealed', seat: 'p1', card: 'titan@C3', defId: 'titan', cell: 'C3', paid: 0, total: 5 });
    expect(at(state, 'C3')).toMatchObject({ covered: false, growth: false });
  });

  it('R-FACE-7 (growthAutoReveal false, default): a Growth-placed card is not due at step 3', () => {
    const { events, state } = start({
      turn: 3,
      step: 'start',
      board: { C3: card('p1', 'titan', { growth: true }) },
      hands: { p1: ['filler'] },
    });
    expect(events).toContainEqual({ type: 'StepStarted', step: 'reveal', due: [] });
    expect(at(state, 'C3')).toMatchObject({ covered: true, growth: true });
  });
});

describe('turn structure, pass, one card per turn, hand', () => {
  it('R-TURN-1 R-HAND-1: steps in order: credits, draw, reveal, then the pass point', () => {
    const { events, state } = start({ turn: 3, step: 'start', decks: { p1: ['wisp', 'filler'] } });
    expect(types(events)).toEqual(['PositionLoaded', 'CreditsGained', 'CardDrawn', 'StepStarted', 'StepStarted']);
    expect(events[2]).toEqual({ type: 'CardDrawn', seat: 'p1', card: 'wisp@p1deck0', defId: 'wisp' });
    expect(state.hands.p1).toEqual(['wisp@p1deck0']);
    expect(decision(state)).toEqual({ kind: 'play', seat: 'p1' });
  });

  it('R-TURN-2: passing skips steps 4–6 and goes to discard / end of turn', () => {
    const s = build({ hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'pass' });
    expect(types(r.events).slice(0, 4)).toEqual(['Passed', 'StepStarted', 'TurnEnded', 'TurnStarted']);
    expect(r.state.hands.p1).toEqual([hid('filler', 'p1')]);
    expect(r.state.active).toBe('p2');
  });

  it('R-TURN-3 R-ACT-12: after the one card of the turn has been played, no second play is offered', () => {
    const s = build({ hands: { p1: ['filler', 'wisp'] } });
    const r = act(s, 'p1', playUp(hid('filler', 'p1', 0), 'C3'));
    expect(types(r.events)).toContain('TurnEnded');
    expect(types(r.events).filter((t) => t === 'CardPlayed')).toHaveLength(1);
    expect(r.state.hands.p1).toEqual([hid('wisp', 'p1', 1)]);
    expect(decision(r.state)).toEqual({ kind: 'play', seat: 'p2' });
  });

  it("R-TURN-4 (OQ-24): a Growth placement does not use up the turn's play (the played card is still the only CardPlayed)", () => {
    const s = build({ config: { arrowReach: 'ADJACENT' }, hands: { p1: ['sprout', 'filler'] } });
    const r = act(s, 'p1', playUp(hid('sprout', 'p1'), 'B3'));
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'C3', card: hid('filler', 'p1', 1) });
    expect(types(r2.events)).toContain('CardGrown');
    expect(at(r2.state, 'C3')).toMatchObject({ growth: true });
  });

  it('R-TURN-2 R-END-5: with no legal play (only Block cards in hand) the pass is automatic', () => {
    const s = build({ hands: { p1: ['block-fire'] } });
    expect(decision(s)).toEqual({ kind: 'play', seat: 'p2' });
    const { events } = start({ hands: { p1: ['block-fire'] } });
    expect(events).toContainEqual({ type: 'Passed', seat: 'p1', auto: true, stalled: false });
  });

  it('R-HAND-5 (emptyDeckDraw SKIP, default): drawing from an empty deck is skipped without penalty', () => {
    const { events, state } = start({ turn: 3, step: 'start', decks: { p1: [] }, hands: { p1: ['filler'] } });
    expect(events).toContainEqual({ type: 'DrawSkipped', seat: 'p1' });
    expect(state.result).toBeNull();
    expect(decision(state)).toEqual({ kind: 'play', seat: 'p1' });
  });

  it('R-HAND-5 (emptyDeckDraw LOSE): drawing from an empty deck loses the game', () => {
    const { events, state } = start({
      turn: 3,
      step: 'start',
      config: { emptyDeckDraw: 'LOSE' },
      decks: { p1: [] },
      hands: { p1: ['filler'] },
    });
    expect(events).toContainEqual({ type: 'GameEnded', reason: 'deck-out', winner: 'p2', scores: { p1: 0, p2: 0 } });
    expect(state.result).toMatchObject({ reason: 'deck-out', winner: 'p2' });
    expect(decision(state)).toBeNull();
  });

  it("R-HAND-2 R-GY-2 (handLimit setting): the discard goes to the owner's graveyard and the limit is configurable", () => {
    const s = build({ config: { handLimit: 2 }, hands: { p1: ['filler', 'wisp', 'pebble', 'filler'] } });
    const r = act(s, 'p1', { type: 'pass' });
    expect(decision(r.state)).toEqual({ kind: 'discard', seat: 'p1', count: 2 });
    const r2 = act(r.state, 'p1', { type: 'discard', card: hid('wisp', 'p1', 1) });
    expect(r2.events).toEqual([{ type: 'CardDiscarded', seat: 'p1', card: hid('wisp', 'p1', 1), defId: 'wisp' }]);
  });

  it('R-TURN-7 (OQ-14): damage is cleared at step 9', () => {
    const s = build({ board: { C3: card('p1', 'tank', { damage: 4 }) }, hands: { p1: ['filler'] } });
    expect(at(s, 'C3')?.damage).toBe(4);
    const r = act(s, 'p1', { type: 'pass' });
    expect(at(r.state, 'C3')?.damage).toBe(0);
  });
});

describe('match setup settings', () => {
  const deck = expandDeckList([
    { card: 'filler', count: 4 },
    { card: 'pebble', count: 4 },
    { card: 'wisp', count: 4 },
    { card: 'leaf', count: 4 },
    { card: 'block-fire', count: 44 },
  ]);

  it('R-HAND-4 (startingHandSize, firstPlayer): 3-card hands, p2 first; the first player then draws on turn 1', () => {
    const cfg = parseConfig({ startingHandSize: 3, firstPlayer: 'p2' });
    if (!cfg.ok) throw new Error('config');
    const r = createGame({ cardSet: cs, config: cfg.config, decks: { p1: deck, p2: deck }, seed: 'setup-seed' });
    if (!r.ok) throw new Error(r.errors.join());
    expect(r.state.first).toBe('p2');
    expect(r.events).toContainEqual({ type: 'TurnStarted', turn: 1, seat: 'p2' });
    expect(r.state.hands.p1).toHaveLength(3);
    expect(r.state.hands.p2).toHaveLength(4);
    expect(r.state.decks.p1).toHaveLength(57);
    expect(r.state.credits).toEqual({ p1: 50, p2: 50 });
    expect(types(r.events)).not.toContain('CreditsGained');
  });

  it('R-HAND-4 (defaults): 5-card opening hands, 50 credits, and the RANDOM first player is a function of the seed', () => {
    const cfg = parseConfig({});
    if (!cfg.ok) throw new Error('config');
    const firsts = new Set<string>();
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const r = createGame({ cardSet: cs, config: cfg.config, decks: { p1: deck, p2: deck }, seed });
      if (!r.ok) throw new Error(r.errors.join());
      const dealt = r.events.slice(
        0,
        r.events.findIndex((e) => e.type === 'TurnStarted'),
      );
      const draws = eventsOf(dealt, 'CardDrawn');
      expect(draws.filter((e) => e.seat === 'p1')).toHaveLength(5);
      expect(draws.filter((e) => e.seat === 'p2')).toHaveLength(5);
      expect(draws[0]!.seat).toBe(r.state.first);
      const again = createGame({ cardSet: cs, config: cfg.config, decks: { p1: deck, p2: deck }, seed });
      expect(again.ok && again.state.first).toBe(r.state.first);
      firsts.add(r.state.first);
    }
    expect(firsts.size).toBe(2);
  });

  it('R-DECK-1: createGame refuses an illegal deck', () => {
    const cfg = parseConfig({});
    if (!cfg.ok) throw new Error('config');
    const r = createGame({ cardSet: cs, config: cfg.config, decks: { p1: deck.slice(1), p2: deck }, seed: 's' });
    expect(r.ok).toBe(false);
  });
});
