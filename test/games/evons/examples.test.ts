/**
 * EXAMPLES.md (EX-01 … EX-25) as acceptance tests. P1 = first player (row-6 side); fixture
 * arrows are board directions for the card's current facing (see helpers.ts).
 */
import { describe, expect, it } from 'vitest';
import { expandDeckList, validateDeck } from '../../../src/games/evons/index.js';
import {
  abilityOptions,
  act,
  at,
  build,
  card,
  cardView,
  cellOf,
  cs,
  decision,
  eventsOf,
  gid,
  hid,
  legal,
  playUp,
  scoreOf,
  start,
  types,
} from './helpers.js';

describe('EX-01 Magnetism adjacency from the target cell', () => {
  it('EX-01 R-AB-MAG-3/4/5/8: Volt on B3 targeting D3 may pull D2 or E3, never D4 (Block) or A3', () => {
    const s = build({
      board: {
        D2: card('p2', 'filler'),
        E3: card('p1', 'pebble'),
        D4: card('p2', 'block-fire'),
        A3: card('p2', 'wisp'),
      },
      hands: { p1: ['volt'] },
    });
    const r = act(s, 'p1', playUp(hid('volt', 'p1'), 'B3'));
    expect(decision(r.state)).toMatchObject({ kind: 'ability', seat: 'p1', cell: 'B3', phase: 1 });
    const opts = abilityOptions(r.state);
    expect(opts).toHaveLength(2);
    expect(opts).toEqual(
      expect.arrayContaining([
        { type: 'ability', arrow: 0, target: 'D3', pull: 'D2' },
        { type: 'ability', arrow: 0, target: 'D3', pull: 'E3' },
      ]),
    );
    expect(opts.some((o) => o.pull === 'D4' || o.pull === 'A3' || o.pull === 'B3')).toBe(false);
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'D3', pull: 'D2' });
    expect(at(r2.state, 'D2')).toBeNull();
    expect(at(r2.state, 'D3')?.id).toBe('filler@D2');
    expect(eventsOf(r2.events, 'CardMoved')).toEqual([{ type: 'CardMoved', card: 'filler@D2', from: 'D2', to: 'D3', cause: 'Magnetism' }]);
  });

  it('EX-01 R-AB-MAG-3/4/8: pulling the Block card on D4 or the A3 card is refused', () => {
    const s = build({
      board: { D2: card('p2', 'filler'), E3: card('p1', 'pebble'), D4: card('p2', 'block-fire'), A3: card('p2', 'wisp') },
      hands: { p1: ['volt'] },
    });
    const r = act(s, 'p1', playUp(hid('volt', 'p1'), 'B3'));
    for (const pull of ['D4', 'A3']) {
      const bad = { type: 'ability' as const, arrow: 0, target: 'D3', pull };
      expect(legal(r.state)).not.toContainEqual(bad);
    }
  });

  for (const arrowReach of ['LINE', 'ADJACENT'] as const) {
    it(`EX-01 R-AB-MAG-4/5 (neighbour variant, ${arrowReach}): target C3 offers D3, C2, C4, never the activating B3`, () => {
      const s = build({
        config: { arrowReach },
        board: { D3: card('p2', 'filler'), C2: card('p2', 'wisp'), C4: card('p1', 'pebble') },
        hands: { p1: ['volt'] },
      });
      const r = act(s, 'p1', playUp(hid('volt', 'p1'), 'B3'));
      const opts = abilityOptions(r.state);
      expect(opts.map((o) => `${o.target}<${o.pull}`).sort()).toEqual(['C3<C2', 'C3<C4', 'C3<D3']);
    });
  }
});

describe('EX-02 Magnetism without a valid card or with an occupied target', () => {
  for (const arrowReach of ['LINE', 'ADJACENT'] as const) {
    it(`EX-02 R-AB-MAG-2/8/9 (${arrowReach}): only a Block card and the activating card around the reachable cells → not offered`, () => {
      const s = build({ config: { arrowReach }, board: { B2: card('p2', 'block-earth') }, hands: { p1: ['volt-n'] } });
      const r = act(s, 'p1', playUp(hid('volt-n', 'p1'), 'C3'));
      expect(types(r.events)).not.toContain('AbilityUsed');
      // No ability decision: the phase was skipped and the turn went on to P2.
      expect(decision(r.state)).toEqual({ kind: 'play', seat: 'p2' });
      const started = types(r.events).indexOf('ActivationStarted');
      expect(r.events[started + 1]).toEqual({ type: 'PhaseStarted', card: hid('volt-n', 'p1'), phase: 'conflicts' });
    });
  }

  it('EX-02 R-AB-MAG-2 (ADJACENT variant): a card on C2 makes the target occupied, so Magnetism is not offered even with a pullable neighbour', () => {
    const s = build({
      config: { arrowReach: 'ADJACENT' },
      board: { B2: card('p2', 'block-earth'), C2: card('p1', 'pebble'), D2: card('p2', 'filler') },
      hands: { p1: ['volt-n'] },
    });
    const r = act(s, 'p1', playUp(hid('volt-n', 'p1'), 'C3'));
    expect(types(r.events)).not.toContain('AbilityUsed');
    expect(decision(r.state)).toEqual({ kind: 'play', seat: 'p2' });
    // Control: with C2 empty, the same board offers a pull from D2.
    const c = build({
      config: { arrowReach: 'ADJACENT' },
      board: { B2: card('p2', 'block-earth'), D2: card('p2', 'filler') },
      hands: { p1: ['volt-n'] },
    });
    const rc = act(c, 'p1', playUp(hid('volt-n', 'p1'), 'C3'));
    expect(abilityOptions(rc.state)).toEqual([{ type: 'ability', arrow: 0, target: 'C2', pull: 'D2' }]);
  });
});

describe('EX-04 Revived monsters activate from their new cell', () => {
  it('EX-04 R-AB-RES-3/5 R-ACT-10c R-ACT-14 R-OUT-4 (case 1, out zone): Brute revived on A0 activates, no flip of B0', () => {
    const s = build({ board: { B0: card('p2', 'f') }, hands: { p1: ['night'] }, graveyards: { p1: ['brute'] } });
    const r = act(s, 'p1', playUp(hid('night', 'p1'), 'A1'));
    expect(abilityOptions(r.state)).toEqual([{ type: 'ability', arrow: 0, target: 'A0', card: gid('brute', 'p1') }]);
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'A0', card: gid('brute', 'p1') });
    const brute = gid('brute', 'p1');
    expect(r2.events).toContainEqual({ type: 'CardRevived', seat: 'p1', card: brute, defId: 'brute', cell: 'A0', cost: 2 });
    expect(r2.events).toContainEqual({ type: 'ActivationStarted', card: brute, cell: 'A0', kind: 'activation' });
    expect(types(r2.events)).not.toContain('CardFlipped');
    expect(types(r2.events)).not.toContain('ConflictResolved');
    expect(at(r2.state, 'B0')).toMatchObject({ facing: 'p2' });
    expect(at(r2.state, 'A0')).toMatchObject({ id: brute, facing: 'p1', covered: false });
    expect(r2.state.graveyards.p1).toEqual([]);
    // credits: only Night's cost was paid (R-CRED-8)
    expect(r2.state.credits.p1).toBe(47);
  });

  it('EX-04 R-AB-RES-3 R-CHAIN-2 R-FLIP-2 (case 2, main zone): Brute revived on B3 flips C3 before Night continues', () => {
    const s = build({ board: { C3: card('p2', 'f') }, hands: { p1: ['night-s'] }, graveyards: { p1: ['brute'] } });
    const r = act(s, 'p1', playUp(hid('night-s', 'p1'), 'B2'));
    const brute = gid('brute', 'p1');
    const night = hid('night-s', 'p1');
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: brute });
    const ev = r2.events;
    const flip = ev.findIndex((e) => e.type === 'CardFlipped' && e.card === 'f@C3');
    const bruteEnd = ev.findIndex((e) => e.type === 'ActivationEnded' && e.card === brute);
    const nightConflicts = ev.findIndex((e) => e.type === 'PhaseStarted' && e.card === night && e.phase === 'conflicts');
    expect(ev).toContainEqual({ type: 'ActivationStarted', card: brute, cell: 'B3', kind: 'activation' });
    expect(flip).toBeGreaterThan(-1);
    expect(flip).toBeLessThan(bruteEnd);
    expect(bruteEnd).toBeLessThan(nightConflicts);
    expect(at(r2.state, 'C3')).toMatchObject({ facing: 'p1' });
    expect(scoreOf(r2.state)).toEqual({ p1: 3, p2: 0 });
  });
});

describe('EX-05 damage carries over; conflict order matters', () => {
  const setup = () => build({ board: { C2: card('p2', 'b1'), D3: card('p2', 'b2') }, hands: { p1: ['a5'] } });

  it('EX-05 R-CONF-1/4: both B1 and B2 defend, and the active player is asked for the order', () => {
    const r = act(setup(), 'p1', playUp(hid('a5', 'p1'), 'C3'));
    expect(decision(r.state)).toEqual({
      kind: 'conflict-order',
      seat: 'p1',
      card: hid('a5', 'p1'),
      defenders: expect.arrayContaining(['b1@C2', 'b2@D3']),
    });
    expect(legal(r.state)).toHaveLength(2);
    expect(legal(r.state)).toEqual(
      expect.arrayContaining([
        { type: 'conflict', defender: 'b1@C2' },
        { type: 'conflict', defender: 'b2@D3' },
      ]),
    );
  });

  it('EX-05 R-CONF-4/5/6/8/10/11: order B2 then B1 → A and B2 destroyed, B1 survives at DEF 2', () => {
    const r = act(setup(), 'p1', playUp(hid('a5', 'p1'), 'C3'));
    const r2 = act(r.state, 'p1', { type: 'conflict', defender: 'b2@D3' });
    const res = eventsOf(r2.events, 'ConflictResolved');
    expect(res).toEqual([
      {
        type: 'ConflictResolved',
        attacker: hid('a5', 'p1'),
        defender: 'b2@D3',
        attackerDamage: 1,
        defenderDamage: 3,
        attackerDef: 2,
        defenderDef: -1,
      },
      {
        type: 'ConflictResolved',
        attacker: hid('a5', 'p1'),
        defender: 'b1@C2',
        attackerDamage: 3,
        defenderDamage: 3,
        attackerDef: -1,
        defenderDef: 2,
      },
    ]);
    expect(r2.state.graveyards.p1).toEqual([hid('a5', 'p1')]);
    expect(r2.state.graveyards.p2).toEqual(['b2@D3']);
    expect(at(r2.state, 'C2')).toMatchObject({ id: 'b1@C2', facing: 'p2' });
    expect(at(r2.state, 'C3')).toBeNull();
    // R-TURN-7: damage is gone once the turn has ended (the engine is now in P2's turn).
    expect(cardView(r2.state, 'C2')).toMatchObject({ damage: 0, currentDef: 5 });
  });

  it('EX-05 R-CONF-8/11: order B1 then B2 → A destroyed in conflict 1, the B2 conflict never happens', () => {
    const r = act(setup(), 'p1', playUp(hid('a5', 'p1'), 'C3'));
    const r2 = act(r.state, 'p1', { type: 'conflict', defender: 'b1@C2' });
    const res = eventsOf(r2.events, 'ConflictResolved');
    expect(res).toHaveLength(1);
    expect(res[0]).toMatchObject({ defender: 'b1@C2', attackerDef: 0, defenderDef: 2 });
    expect(r2.events).toContainEqual({ type: 'ActivationEnded', card: hid('a5', 'p1'), reason: 'destroyed' });
    expect(r2.state.graveyards.p1).toEqual([hid('a5', 'p1')]);
    expect(r2.state.graveyards.p2).toEqual([]);
    expect(at(r2.state, 'D3')).toMatchObject({ id: 'b2@D3', facing: 'p2', damage: 0 });
  });

  it('EX-05 R-CONF-10 R-TURN-7: a DEF-6 attacker hit for 3 starts its next conflict at DEF 3, and is back to 6 after step 9', () => {
    const s = build({
      board: { C2: card('p2', 'hitter'), D3: card('p2', 'b2'), B3: card('p2', 'east') },
      hands: { p1: ['tank'] },
    });
    const tank = hid('tank', 'p1');
    const r = act(s, 'p1', playUp(tank, 'C3'));
    expect(decision(r.state)).toMatchObject({ kind: 'conflict-order' });
    const r2 = act(r.state, 'p1', { type: 'conflict', defender: 'hitter@C2' });
    // Mid-turn: still choosing between the other two defenders.
    expect(decision(r2.state)).toMatchObject({ kind: 'conflict-order', defenders: expect.arrayContaining(['b2@D3', 'east@B3']) });
    expect(cardView(r2.state, 'C3')).toMatchObject({ damage: 3, currentDef: 3 });
    expect(cardView(r2.state, 'C2')).toMatchObject({ damage: 1, currentDef: 8 });
    const r3 = act(r2.state, 'p1', { type: 'conflict', defender: 'b2@D3' });
    const res = eventsOf(r3.events, 'ConflictResolved');
    expect(res[0]).toMatchObject({ defender: 'b2@D3', attackerDamage: 1, attackerDef: 2, defenderDef: 1 });
    expect(res[1]).toMatchObject({ defender: 'east@B3', attackerDamage: 1, attackerDef: 1, defenderDef: 0 });
    expect(r3.state.graveyards.p2).toEqual(['east@B3']);
    expect(r3.state.active).toBe('p2');
    expect(cardView(r3.state, 'C3')).toMatchObject({ damage: 0, currentDef: 6 });
    expect(cardView(r3.state, 'D3')).toMatchObject({ damage: 0, currentDef: 2 });
  });
});

describe('EX-06 activating card destroyed mid-conflict', () => {
  it('EX-06 R-CONF-8 R-ACT-5 R-FLIP-1: no flip of F, no Ability Phase 2, P1 score unchanged', () => {
    const s = build({ board: { C2: card('p2', 'd'), D3: card('p2', 'f') }, hands: { p1: ['a6'] } });
    const a = hid('a6', 'p1');
    const before = scoreOf(s);
    const r = act(s, 'p1', playUp(a, 'C3'));
    // Shockwave is usable in AP1 (E arrow at F on D3), P1 declines.
    expect(abilityOptions(r.state)).toEqual([{ type: 'ability', arrow: 1, target: 'D3' }]);
    const r2 = act(r.state, 'p1', { type: 'end-phase' });
    expect(eventsOf(r2.events, 'ConflictResolved')).toEqual([
      { type: 'ConflictResolved', attacker: a, defender: 'd@C2', attackerDamage: 2, defenderDamage: 1, attackerDef: -1, defenderDef: 1 },
    ]);
    expect(r2.events).toContainEqual({ type: 'ActivationEnded', card: a, reason: 'destroyed' });
    expect(types(r2.events)).not.toContain('CardFlipped');
    expect(types(r2.events)).not.toContain('AbilityUsed');
    expect(r2.events.some((e) => e.type === 'PhaseStarted' && (e.phase === 'flip' || e.phase === 'ability2'))).toBe(false);
    expect(at(r2.state, 'D3')).toMatchObject({ id: 'f@D3', facing: 'p2' });
    expect(at(r2.state, 'C2')).toMatchObject({ id: 'd@C2', facing: 'p2' });
    expect(scoreOf(r2.state).p1).toBe(before.p1);
    expect(r2.state.graveyards.p1).toEqual([a]);
  });
});

describe('EX-07 flip of a non-defending card', () => {
  it('EX-07 R-FLIP-1..5 R-SCORE-1 R-ARROW-3: B is flipped to P1, scores move, its arrow now points south', () => {
    const s = build({ board: { D3: card('p2', 'b7') }, hands: { p1: ['a7'] } });
    expect(scoreOf(s)).toEqual({ p1: 0, p2: 1 });
    expect(cardView(s, 'D3')?.boardArrows).toEqual([{ dir: 'N', type: 'Normal' }]);
    const r = act(s, 'p1', playUp(hid('a7', 'p1'), 'C3'));
    expect(types(r.events)).not.toContain('ConflictResolved');
    expect(r.events).toContainEqual({ type: 'ConflictsFixed', card: hid('a7', 'p1'), defenders: [] });
    expect(r.events).toContainEqual({ type: 'CardFlipped', card: 'b7@D3', cell: 'D3', to: 'p1', covered: false });
    expect(at(r.state, 'D3')).toMatchObject({ facing: 'p1' });
    expect(r.state.cards['b7@D3']!.owner).toBe('p2');
    expect(scoreOf(r.state)).toEqual({ p1: 2, p2: 0 });
    expect(cardView(r.state, 'D3')?.boardArrows).toEqual([{ dir: 'S', type: 'Normal' }]);
    // R-FLIP-12: the flip alone does not activate B.
    expect(r.events.filter((e) => e.type === 'ActivationStarted').map((e) => (e as { card: string }).card)).toEqual([hid('a7', 'p1')]);
  });
});

describe('EX-08 flipping does not use up an ability', () => {
  it('EX-08 R-ARROW-2 R-FLIP-6 R-ACT-11a (fixture A): flip in the Flip step, then the same Shockwave arrow in AP2; B reactivates', () => {
    const s = build({ board: { C3: card('p2', 'f') }, hands: { p1: ['a8'] } });
    const a = hid('a8', 'p1');
    const r = act(s, 'p1', playUp(a, 'B3'));
    expect(decision(r.state)).toMatchObject({ kind: 'ability', phase: 1 });
    const r2 = act(r.state, 'p1', { type: 'end-phase' });
    expect(r2.events).toContainEqual({ type: 'CardFlipped', card: 'f@C3', cell: 'C3', to: 'p1', covered: false });
    expect(decision(r2.state)).toMatchObject({ kind: 'ability', phase: 2, card: a });
    expect(abilityOptions(r2.state)).toEqual([{ type: 'ability', arrow: 0, target: 'C3' }]);
    const r3 = act(r2.state, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r3.events).toContainEqual({ type: 'CardMoved', card: 'f@C3', from: 'C3', to: 'D3', cause: 'Shockwave' });
    expect(r3.events).toContainEqual({ type: 'ActivationStarted', card: 'f@C3', cell: 'D3', kind: 'reactivation' });
    expect(at(r3.state, 'D3')).toMatchObject({ id: 'f@C3', facing: 'p1' });
    expect(at(r3.state, 'C3')).toBeNull();
  });

  it('EX-08 R-ARROW-5 R-ACT-11b (fixture B, LINE): push first, then the E arrow reaches D3 and flips B, which reactivates (moved + flipped)', () => {
    const s = build({ config: { arrowReach: 'LINE' }, board: { C3: card('p2', 'f') }, hands: { p1: ['a8'] } });
    const r = act(s, 'p1', playUp(hid('a8', 'p1'), 'B3'));
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r2.events).toContainEqual({ type: 'CardMoved', card: 'f@C3', from: 'C3', to: 'D3', cause: 'Shockwave' });
    expect(r2.events).toContainEqual({ type: 'CardFlipped', card: 'f@C3', cell: 'D3', to: 'p1', covered: false });
    expect(r2.events).toContainEqual({ type: 'ActivationStarted', card: 'f@C3', cell: 'D3', kind: 'reactivation' });
    expect(at(r2.state, 'D3')).toMatchObject({ facing: 'p1' });
  });

  it('EX-08 R-ARROW-5 (fixture B, ADJACENT): push first, the E arrow then concerns the empty C3 and nothing is flipped', () => {
    const s = build({ config: { arrowReach: 'ADJACENT' }, board: { C3: card('p2', 'f') }, hands: { p1: ['a8'] } });
    const r = act(s, 'p1', playUp(hid('a8', 'p1'), 'B3'));
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r2.events).toContainEqual({ type: 'CardMoved', card: 'f@C3', from: 'C3', to: 'D3', cause: 'Shockwave' });
    expect(types(r2.events)).not.toContain('CardFlipped');
    expect(at(r2.state, 'D3')).toMatchObject({ facing: 'p2' });
    expect(r2.events.filter((e) => e.type === 'ActivationStarted')).toHaveLength(0);
  });
});

describe('EX-12 Shockwave main → out → off the board', () => {
  it('EX-12 R-AB-SHK-5/6 R-OUT-6 R-AB-RES-6: two pushes remove the card from the game; it can never be revived', () => {
    const s = build({
      board: { A1: card('p2', 'filler', { id: 'victim' }) },
      hands: { p1: ['quake-n', 'quake-n'], p2: ['night'] },
      graveyards: { p2: ['wisp'] },
      decks: { p1: ['filler', 'filler'], p2: ['filler', 'filler'] },
    });
    const r = act(s, 'p1', playUp(hid('quake-n', 'p1', 0), 'A2'));
    expect(abilityOptions(r.state)).toEqual([{ type: 'ability', arrow: 0, target: 'A1' }]);
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'A1' });
    expect(r2.events).toContainEqual({ type: 'CardMoved', card: 'victim', from: 'A1', to: 'A0', cause: 'Shockwave' });
    expect(cellOf(r2.state, 'victim')).toBe('A0');
    expect(r2.state.removed).toEqual([]);
    // R-FLIP-10 / OQ-3: the out-zone card the arrow now points at is not flipped.
    expect(at(r2.state, 'A0')).toMatchObject({ facing: 'p2' });
    // P2 passes; P1 pushes it again from A1.
    const r3 = act(r2.state, 'p2', { type: 'pass' });
    expect(decision(r3.state)).toEqual({ kind: 'play', seat: 'p1' });
    const r4 = act(r3.state, 'p1', playUp(hid('quake-n', 'p1', 1), 'A1'));
    const r5 = act(r4.state, 'p1', { type: 'ability', arrow: 0, target: 'A0' });
    expect(r5.events).toContainEqual({ type: 'CardRemovedFromGame', card: 'victim', defId: 'filler-r', owner: 'p2', cell: 'A0' });
    expect(cellOf(r5.state, 'victim')).toBeNull();
    expect(r5.state.removed).toEqual(['victim']);
    expect(r5.state.graveyards.p1).not.toContain('victim');
    expect(r5.state.graveyards.p2).not.toContain('victim');
    // P2's Resurrection offers only real graveyard cards.
    const r6 = act(r5.state, 'p2', playUp(hid('night', 'p2'), 'C3'));
    const opts = abilityOptions(r6.state);
    expect(opts.length).toBeGreaterThan(0);
    expect(new Set(opts.map((o) => o.card))).toEqual(new Set([gid('wisp', 'p2')]));
  });
});

describe('EX-14 Block ability: the three cases', () => {
  it('EX-14a R-AB-BLK-2/5/8: empty C3 + Block card in hand → Block card placed face-up, hand −1, no credits spent', () => {
    const s = build({ config: { arrowReach: 'ADJACENT' }, hands: { p1: ['mason', 'block-fire'] } });
    const r = act(s, 'p1', playUp(hid('mason', 'p1'), 'B3'));
    expect(r.state.credits.p1).toBe(49);
    const blk = hid('block-fire', 'p1', 1);
    expect(abilityOptions(r.state)).toEqual([{ type: 'ability', arrow: 0, target: 'C3', card: blk }]);
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'C3', card: blk });
    expect(r2.events).toContainEqual({ type: 'BlockPlaced', seat: 'p1', card: blk, defId: 'block-fire', cell: 'C3' });
    expect(at(r2.state, 'C3')).toMatchObject({ id: blk, covered: false, facing: 'p1' });
    expect(r2.state.hands.p1).toEqual([]);
    expect(r2.state.credits.p1).toBe(49);
  });

  it('EX-14b R-AB-BLK-2 R-ACT-7: empty C3 and no Block card in hand → Block not offered', () => {
    const s = build({ config: { arrowReach: 'ADJACENT' }, hands: { p1: ['mason', 'filler'] } });
    const r = act(s, 'p1', playUp(hid('mason', 'p1'), 'B3'));
    expect(types(r.events)).not.toContain('AbilityUsed');
    expect(decision(r.state)).toEqual({ kind: 'play', seat: 'p2' });
    expect(at(r.state, 'C3')).toBeNull();
  });

  it("EX-14c R-AB-BLK-3 R-AB-BLK-9 R-GY-2: C3 holds P2's Block card → it goes to P2's graveyard, no Block card needed", () => {
    const s = build({ board: { C3: card('p2', 'block-water') }, hands: { p1: ['mason'] } });
    const r = act(s, 'p1', playUp(hid('mason', 'p1'), 'B3'));
    expect(abilityOptions(r.state)).toEqual([{ type: 'ability', arrow: 0, target: 'C3' }]);
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r2.events).toContainEqual({
      type: 'CardDestroyed',
      card: 'block-water@C3',
      defId: 'block-water',
      owner: 'p2',
      cell: 'C3',
      cause: 'block-ability',
    });
    expect(at(r2.state, 'C3')).toBeNull();
    expect(r2.state.graveyards.p2).toEqual(['block-water@C3']);
    expect(r2.state.graveyards.p1).toEqual([]);
  });

  it('EX-14d R-AB-BLK-4 R-FACE-10: C3 holds a P2 covered monster → Block does nothing (not offered); the Flip step then destroys it (R-FACE-12 DESTROY)', () => {
    const s = build({ board: { C3: card('p2', 'wisp', { covered: true }) }, hands: { p1: ['mason', 'block-fire'] } });
    const r = act(s, 'p1', playUp(hid('mason', 'p1'), 'B3'));
    expect(types(r.events)).not.toContain('AbilityUsed');
    expect(types(r.events)).not.toContain('BlockPlaced');
    expect(r.events).toContainEqual({ type: 'CardDestroyed', card: 'wisp@C3', defId: 'wisp-r', owner: 'p2', cell: 'C3', cause: 'arrow' });
    expect(r.state.hands.p1).toEqual([hid('block-fire', 'p1', 1)]);
  });

  it('EX-14d R-AB-BLK-4 (coveredHitByArrow IGNORE): the covered monster stays exactly as it was', () => {
    const s = build({
      config: { coveredHitByArrow: 'IGNORE' },
      board: { C3: card('p2', 'wisp', { covered: true }) },
      hands: { p1: ['mason', 'block-fire'] },
    });
    const r = act(s, 'p1', playUp(hid('mason', 'p1'), 'B3'));
    expect(types(r.events)).not.toContain('AbilityUsed');
    const p1Turn = r.events.slice(0, types(r.events).indexOf('TurnEnded'));
    expect(p1Turn.some((e) => (e.type === 'CardDestroyed' || e.type === 'CardFlipped') && e.card === 'wisp@C3')).toBe(false);
    // Still P2's card on C3 (P2 then reveals it at their own step 3).
    expect(at(r.state, 'C3')).toMatchObject({ id: 'wisp@C3', facing: 'p2' });
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'CardRevealed', seat: 'p2', card: 'wisp@C3' }));
  });
});

describe('EX-15 Growth', () => {
  it('EX-15 R-AB-GRO-2..7 R-FACE-6/7/13 R-AB-NORM-2: cost-12 monster grown for free; immune to a Normal arrow; Shockwave moves it', () => {
    const s = build({
      credits: { p1: 2, p2: 50 },
      hands: { p1: ['sprout', 'titan'], p2: ['west', 'quake-s'] },
    });
    const titan = hid('titan', 'p1', 1);
    const r = act(s, 'p1', playUp(hid('sprout', 'p1'), 'B3'));
    expect(r.state.credits.p1).toBe(0);
    expect(abilityOptions(r.state)).toContainEqual({ type: 'ability', arrow: 0, target: 'C3', card: titan });
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'C3', card: titan });
    expect(r2.events).toContainEqual({ type: 'CardGrown', seat: 'p1', card: titan, defId: 'titan', cell: 'C3' });
    expect(at(r2.state, 'C3')).toMatchObject({ id: titan, covered: true, growth: true, facing: 'p1' });
    expect(r2.state.credits.p1).toBe(0);
    // P2's turn 4: a face-up W(Normal) card on D3 points at C3 → neither destroyed nor flipped.
    expect(decision(r2.state)).toEqual({ kind: 'play', seat: 'p2' });
    const r3 = act(r2.state, 'p2', playUp(hid('west', 'p2', 0), 'D3'));
    expect(types(r3.events)).not.toContain('CardDestroyed');
    expect(types(r3.events)).not.toContain('CardFlipped');
    expect(at(r3.state, 'C3')).toMatchObject({ id: titan, covered: true, growth: true, facing: 'p1' });
    // P1's turn 5: no cost requested for the grown card (not revealed, nothing paid).
    const t5 = r3.events.filter((e) => e.type === 'TurnStarted').at(-1);
    expect(t5).toEqual({ type: 'TurnStarted', turn: 5, seat: 'p1' });
    expect(r3.events.some((e) => (e.type === 'CardRevealed' || e.type === 'RevealDeferred') && e.card === titan)).toBe(false);
    expect(r3.state.credits.p1).toBe(5);
    const r4 = act(r3.state, 'p1', { type: 'pass' });
    // P2's turn 6: an Earth card on C2 with S(Shockwave) pushes it to C4.
    const r5 = act(r4.state, 'p2', playUp(hid('quake-s', 'p2', 1), 'C2'));
    expect(abilityOptions(r5.state)).toEqual([{ type: 'ability', arrow: 0, target: 'C3' }]);
    const r6 = act(r5.state, 'p2', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r6.events).toContainEqual({ type: 'CardMoved', card: titan, from: 'C3', to: 'C4', cause: 'Shockwave' });
    expect(at(r6.state, 'C4')).toMatchObject({ id: titan, covered: true, growth: true, facing: 'p1' });
    expect(r6.state.graveyards.p1).not.toContain(titan);
  });
});

describe('EX-17 Resurrection from the out zone', () => {
  it('EX-17 R-OUT-9 R-AB-RES-3: Night on A0 revives onto A1; the revived card conflicts in the main zone', () => {
    const s = build({ board: { B1: card('p2', 'west') }, hands: { p1: ['night-s'] }, graveyards: { p1: ['brute'] } });
    const r = act(s, 'p1', playUp(hid('night-s', 'p1'), 'A0'));
    const brute = gid('brute', 'p1');
    expect(abilityOptions(r.state)).toContainEqual({ type: 'ability', arrow: 0, target: 'A1', card: brute });
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'A1', card: brute });
    expect(r2.events).toContainEqual({ type: 'ActivationStarted', card: brute, cell: 'A1', kind: 'activation' });
    expect(eventsOf(r2.events, 'ConflictResolved')).toEqual([
      {
        type: 'ConflictResolved',
        attacker: brute,
        defender: 'west@B1',
        attackerDamage: 1,
        defenderDamage: 3,
        attackerDef: 2,
        defenderDef: -2,
      },
    ]);
    expect(r2.state.graveyards.p2).toEqual(['west@B1']);
    expect(at(r2.state, 'A1')).toMatchObject({ id: brute, facing: 'p1' });
  });

  it('EX-17 R-OUT-9 R-FLIP-2: the revived card also flips a non-defending card from A1', () => {
    const s = build({ board: { B1: card('p2', 'f') }, hands: { p1: ['night-s'] }, graveyards: { p1: ['brute'] } });
    const r = act(s, 'p1', playUp(hid('night-s', 'p1'), 'A0'));
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'A1', card: gid('brute', 'p1') });
    expect(r2.events).toContainEqual({ type: 'CardFlipped', card: 'f@B1', cell: 'B1', to: 'p1', covered: false });
    expect(scoreOf(r2.state)).toEqual({ p1: 2, p2: 0 });
  });
});

describe('EX-18 first-turn credit exception', () => {
  it('EX-18 R-CRED-1/2/3: 50, 50, 55, 55, 60 after step 1 of turns 1–5', () => {
    const { state, events } = start({ turn: 1, step: 'start', credits: { p1: 50, p2: 50 } });
    expect(types(events)).not.toContain('CreditsGained');
    expect(state.turn).toBe(1);
    expect(state.credits).toEqual({ p1: 50, p2: 50 });
    let s = state;
    const seen: [number, string, number][] = [[1, 'p1', s.credits.p1]];
    const gains: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const r = act(s, s.active, { type: 'pass' });
      s = r.state;
      gains.push(...eventsOf(r.events, 'CreditsGained'));
      seen.push([s.turn, s.active, s.credits[s.active]]);
    }
    expect(seen).toEqual([
      [1, 'p1', 50],
      [2, 'p2', 50],
      [3, 'p1', 55],
      [4, 'p2', 55],
      [5, 'p1', 60],
    ]);
    expect(gains).toEqual([
      { type: 'CreditsGained', seat: 'p1', amount: 5, total: 55 },
      { type: 'CreditsGained', seat: 'p2', amount: 5, total: 55 },
      { type: 'CreditsGained', seat: 'p1', amount: 5, total: 60 },
    ]);
  });
});

describe('EX-19 turn flow with a pass', () => {
  it('EX-19 R-TURN-1/2 R-FACE-3 R-HAND-2: reveal pays 4 (55→51), flips, P1 passes, score includes the flip, discard to 8', () => {
    const { state, events } = start({
      turn: 3,
      step: 'start',
      credits: { p1: 50, p2: 50 },
      board: { C3: card('p1', 'c4', { covered: true }), D3: card('p2', 'f') },
      hands: { p1: ['filler', 'filler', 'filler', 'filler', 'filler', 'filler', 'filler', 'filler'] },
    });
    expect(types(events).slice(1, 5)).toEqual(['CreditsGained', 'CardDrawn', 'StepStarted', 'CardRevealed']);
    expect(events).toContainEqual({ type: 'CardRevealed', seat: 'p1', card: 'c4@C3', defId: 'c4', cell: 'C3', paid: 4, total: 51 });
    expect(events).toContainEqual({ type: 'ActivationStarted', card: 'c4@C3', cell: 'C3', kind: 'activation' });
    expect(events).toContainEqual({ type: 'CardFlipped', card: 'f@D3', cell: 'D3', to: 'p1', covered: false });
    expect(state.credits.p1).toBe(51);
    expect(decision(state)).toEqual({ kind: 'play', seat: 'p1' });
    expect(scoreOf(state)).toEqual({ p1: 2, p2: 0 });
    const r = act(state, 'p1', { type: 'pass' });
    expect(r.events[0]).toEqual({ type: 'Passed', seat: 'p1', auto: false, stalled: false });
    expect(types(r.events)).not.toContain('CardPlayed');
    expect(decision(r.state)).toEqual({ kind: 'discard', seat: 'p1', count: 1 });
    const r2 = act(r.state, 'p1', { type: 'discard', card: 'filler@p1hand0' });
    expect(r2.state.hands.p1).toHaveLength(8);
    expect(r2.state.graveyards.p1).toEqual(['filler@p1hand0']);
    expect(r2.events).toContainEqual({ type: 'TurnEnded', turn: 3, seat: 'p1' });
    expect(scoreOf(r2.state)).toEqual({ p1: 2, p2: 0 });
  });
});

describe('EX-20 hand limit 8', () => {
  const tenCards = Array<string>(10).fill('filler');
  it('EX-20 R-HAND-2: 10 cards at step 8 → discard 2 chosen cards, end with 8', () => {
    const s = build({ hands: { p1: tenCards } });
    const r = act(s, 'p1', { type: 'pass' });
    expect(decision(r.state)).toEqual({ kind: 'discard', seat: 'p1', count: 2 });
    expect(legal(r.state)).toHaveLength(10);
    const r2 = act(r.state, 'p1', { type: 'discard', card: 'filler@p1hand3' });
    expect(decision(r2.state)).toEqual({ kind: 'discard', seat: 'p1', count: 1 });
    const r3 = act(r2.state, 'p1', { type: 'discard', card: 'filler@p1hand7' });
    expect(r3.state.hands.p1).toHaveLength(8);
    expect(r3.state.hands.p1).not.toContain('filler@p1hand3');
    expect(r3.state.graveyards.p1).toEqual(['filler@p1hand3', 'filler@p1hand7']);
    expect(r3.state.active).toBe('p2');
  });

  it('EX-20 R-HAND-2: exactly 8 cards → nothing discarded', () => {
    const s = build({ hands: { p1: Array<string>(8).fill('filler') } });
    const r = act(s, 'p1', { type: 'pass' });
    expect(types(r.events)).not.toContain('CardDiscarded');
    expect(r.state.hands.p1).toHaveLength(8);
    expect(decision(r.state)).toEqual({ kind: 'play', seat: 'p2' });
  });
});

describe('EX-21 Swap does not reactivate the swapping card', () => {
  it('EX-21 R-ACT-13 R-AB-SWAP-4: after the Swap the swapper continues its own sequence from its new cell', () => {
    const s = build({ board: { C3: card('p2', 'wisp'), D3: card('p2', 'f') }, hands: { p1: ['swapper'] } });
    const sw = hid('swapper', 'p1');
    const r = act(s, 'p1', playUp(sw, 'B3'));
    expect(abilityOptions(r.state)).toEqual([{ type: 'ability', arrow: 0, target: 'C3' }]);
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r2.events).toContainEqual({ type: 'CardsSwapped', card: sw, other: 'wisp@C3', from: 'B3', to: 'C3' });
    expect(cellOf(r2.state, sw)).toBe('C3');
    expect(cellOf(r2.state, 'wisp@C3')).toBe('B3');
    const all = [...r.events, ...r2.events];
    expect(eventsOf(all, 'ActivationStarted')).toEqual([{ type: 'ActivationStarted', card: sw, cell: 'B3', kind: 'activation' }]);
    expect(types(r2.events)).not.toContain('TriggersQueued');
    // continues from C3: its E arrow now flips D3
    expect(r2.events).toContainEqual({ type: 'CardFlipped', card: 'f@D3', cell: 'D3', to: 'p1', covered: false });
    expect(at(r2.state, 'B3')).toMatchObject({ facing: 'p2' });
  });
});

describe('EX-23 Color Synergy', () => {
  const board = {
    C3: card('p1', 'block-nature'),
    C2: card('p1', 'leaf'),
    D3: card('p1', 'rock'),
    B3: card('p2', 'leaf'),
    B2: card('p1', 'leaf', { id: 'diag-leaf' }),
    A0: card('p1', 'block-nature'),
    A1: card('p1', 'leaf', { id: 'out-leaf' }),
  };
  it('EX-23 R-SYN-2/3/4 (colorSynergy on): only the orthogonal friendly same-element main-zone monster gains +1/+1', () => {
    const s = build({ config: { colorSynergy: true }, board, hands: { p1: ['filler'] } });
    expect(cardView(s, 'C2')).toMatchObject({ atk: 3, currentDef: 3 });
    expect(cardView(s, 'D3')).toMatchObject({ atk: 2, currentDef: 2 });
    expect(cardView(s, 'B3')).toMatchObject({ atk: 2, currentDef: 2 });
    expect(cardView(s, 'B2')).toMatchObject({ atk: 2, currentDef: 2 });
    expect(cardView(s, 'A1')).toMatchObject({ atk: 2, currentDef: 2 });
  });

  it('EX-23 R-SYN-1 (colorSynergy off, the default): all at printed values', () => {
    const s = build({ board, hands: { p1: ['filler'] } });
    for (const c of ['C2', 'D3', 'B3', 'B2', 'A1']) expect(cardView(s, c)).toMatchObject({ atk: 2, currentDef: 2 });
  });
});

describe('EX-24 deck construction', () => {
  const deck = (cards: [string, number][]) => expandDeckList(cards.map(([card, count]) => ({ card, count })));
  it('EX-24 R-DECK-1/2/3: 60 cards with 4 copies is legal; 5 copies illegal; 30 Block cards of one kind legal; 59/61 illegal', () => {
    const base: [string, number][] = [
      ['volt', 4],
      ['night', 4],
      ['brute', 4],
      ['a5', 4],
      ['b1', 4],
      ['b2', 4],
      ['tank', 4],
      ['filler', 2],
    ];
    const legal30 = deck([...base, ['block-fire', 30]]);
    expect(legal30).toHaveLength(60);
    expect(validateDeck(cs, legal30)).toEqual({ ok: true });
    const five = deck([
      ['volt', 5],
      ['night', 4],
      ['brute', 4],
      ['a5', 4],
      ['b1', 4],
      ['b2', 4],
      ['tank', 4],
      ['filler', 1],
      ['block-fire', 30],
    ]);
    expect(five).toHaveLength(60);
    const r5 = validateDeck(cs, five);
    expect(r5.ok).toBe(false);
    if (!r5.ok) expect(r5.errors.join(' ')).toMatch(/5 copies of "Volt"/);
    expect(validateDeck(cs, legal30.slice(1)).ok).toBe(false);
    expect(validateDeck(cs, [...legal30, 'block-earth']).ok).toBe(false);
    expect(validateDeck(cs, [...Array<string>(56).fill('block-earth'), 'volt', 'volt', 'volt', 'volt'])).toEqual({ ok: true });
  });
});

describe('EX-25 Block card immunities', () => {
  const active = (def: string, cell: string, extra: Parameters<typeof build>[0] = {}) =>
    build({
      ...extra,
      step: 'activate',
      played: true,
      board: { ...(extra.board ?? {}), [cell]: card('p1', def, { id: 'act' }) },
      stack: [{ card: 'act', kind: 'activation', phase: 'ability1', used: [], revivedCost: 0, conflicts: null }],
    });

  it('EX-25 R-BLOCK-7 R-AB-SWAP-2: Swap cannot target a Block card (monster control is offered)', () => {
    const s = active('swapper', 'B3', { board: { C3: card('p2', 'block-water') }, hands: { p1: ['filler'] } });
    expect(decision(s)).not.toMatchObject({ kind: 'ability' });
    const c = active('swapper', 'B3', { board: { C3: card('p2', 'wisp') }, hands: { p1: ['filler'] } });
    expect(abilityOptions(c)).toEqual([{ type: 'ability', arrow: 0, target: 'C3' }]);
  });

  it('EX-25 R-BLOCK-7 R-AB-SHK-3: Shockwave cannot push a Block card', () => {
    const s = active('a8', 'B3', { board: { C3: card('p2', 'block-water') }, hands: { p1: ['filler'] } });
    expect(decision(s)).not.toMatchObject({ kind: 'ability' });
    expect(at(s, 'C3')?.id).toBe('block-water@C3');
  });

  it('EX-25 R-BLOCK-7 R-AB-MAG-8: Magnetism never pulls a Block card', () => {
    const s = active('volt', 'B3', {
      config: { arrowReach: 'ADJACENT' },
      board: { C2: card('p2', 'block-water'), C4: card('p1', 'block-fire'), D3: card('p2', 'wisp') },
      hands: { p1: ['filler'] },
    });
    expect(abilityOptions(s)).toEqual([{ type: 'ability', arrow: 0, target: 'C3', pull: 'D3' }]);
  });

  it('EX-25 R-BLOCK-7: Resurrection cannot choose a Block card from the graveyard', () => {
    const s = active('night', 'C3', { graveyards: { p1: ['block-darkness', 'cost2'] }, hands: { p1: ['filler'] } });
    const opts = abilityOptions(s);
    expect(opts.length).toBeGreaterThan(0);
    expect(new Set(opts.map((o) => o.card))).toEqual(new Set([gid('cost2', 'p1', 1)]));
  });

  it('EX-25 R-BLOCK-7 R-AB-REM-2: Remove does nothing to a Block card (not offered)', () => {
    const s = active('reaper', 'B3', { board: { C3: card('p2', 'block-water') }, hands: { p1: ['filler'] } });
    expect(decision(s)).not.toMatchObject({ kind: 'ability' });
    expect(at(s, 'C3')?.id).toBe('block-water@C3');
  });

  it('EX-25 R-BLOCK-7 R-AB-FIRE-4/5: Firestorm does nothing to a Block card and stops there', () => {
    const s = active('blaze', 'B3', { board: { C3: card('p2', 'block-water'), D3: card('p2', 'wisp') }, hands: { p1: ['filler'] } });
    expect(decision(s)).not.toMatchObject({ kind: 'ability' });
    expect(at(s, 'C3')?.id).toBe('block-water@C3');
    expect(at(s, 'D3')).toMatchObject({ damage: 0 });
  });

  it('EX-25 R-BLOCK-7 R-AB-SHK-4: a Shockwave landing on a Block card destroys it; the pushed card takes the cell', () => {
    const s = active('a8', 'B3', { board: { C3: card('p2', 'wisp'), D3: card('p2', 'block-water') }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r.events).toContainEqual({
      type: 'CardDestroyed',
      card: 'block-water@D3',
      defId: 'block-water',
      owner: 'p2',
      cell: 'D3',
      cause: 'shockwave-landing',
    });
    expect(at(r.state, 'D3')?.id).toBe('wisp@C3');
    expect(r.state.graveyards.p2).toEqual(['block-water@D3']);
  });

  it('EX-25 R-BLOCK-7 R-AB-BLK-3: the Block ability removes a Block card', () => {
    const s = active('mason', 'B3', { board: { C3: card('p1', 'block-fire') }, hands: { p1: ['filler'] } });
    expect(abilityOptions(s)).toEqual([{ type: 'ability', arrow: 0, target: 'C3' }]);
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r.state.graveyards.p1).toEqual(['block-fire@C3']);
  });
});
