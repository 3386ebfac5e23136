/** §11 Conflicts, §12 Flips (covered cards and coveredHitByArrow), §19 Color Synergy in conflicts. */
import { describe, expect, it } from 'vitest';
import { act, activating, at, build, card, cardView, eventsOf, hid, legal, playUp, scoreOf, types } from './helpers.js';

describe('conflicts', () => {
  it('R-CONF-6 (OQ-15): DEF exactly 0 is destroyed', () => {
    const s = build({ board: { C2: card('p2', 'south', { id: 'def' }) }, hands: { p1: ['north'] } });
    const r = act(s, 'p1', playUp(hid('north', 'p1'), 'C3'));
    expect(eventsOf(r.events, 'ConflictResolved')[0]).toMatchObject({ attackerDef: 0, defenderDef: 0 });
    expect(r.state.graveyards).toEqual({ p1: [hid('north', 'p1')], p2: ['def'] });
  });

  it('R-CONF-7: both cards can be destroyed by the same conflict', () => {
    const u = build({ board: { C2: card('p2', 'south', { id: 'sx' }) }, hands: { p1: ['north'] } });
    const ru = act(u, 'p1', playUp(hid('north', 'p1'), 'C3'));
    expect(types(ru.events).filter((x) => x === 'CardDestroyed')).toHaveLength(2);
    expect(ru.events).toContainEqual({ type: 'ActivationEnded', card: hid('north', 'p1'), reason: 'destroyed' });
  });

  it('R-CONF-9 R-FLIP-1/2: a destroyed defender lets the sequence go on to flip the other cards', () => {
    const s = build({ board: { C2: card('p2', 'south', { id: 'weak' }), D3: card('p2', 'f') }, hands: { p1: ['a5'] } });
    const r = act(s, 'p1', playUp(hid('a5', 'p1'), 'C3'));
    expect(r.state.graveyards.p2).toEqual(['weak']);
    expect(r.events).toContainEqual({ type: 'CardFlipped', card: 'f@D3', cell: 'D3', to: 'p1', covered: false });
    expect(at(r.state, 'C3')).toMatchObject({ facing: 'p1' });
  });

  it('R-CONF-2 R-FLIP-2: a defender that survives its conflict is not flipped', () => {
    const s = build({ board: { C2: card('p2', 'hitter') }, hands: { p1: ['tank'] } });
    const r = act(s, 'p1', playUp(hid('tank', 'p1'), 'C3'));
    expect(eventsOf(r.events, 'ConflictResolved')).toHaveLength(1);
    expect(types(r.events)).not.toContain('CardFlipped');
    expect(at(r.state, 'C2')).toMatchObject({ facing: 'p2' });
  });

  it('R-CONF-14: an own card pointing back is never conflicted (and never flipped)', () => {
    const s = build({ board: { C2: card('p1', 'south', { id: 'mine' }) }, hands: { p1: ['north'] } });
    const r = act(s, 'p1', playUp(hid('north', 'p1'), 'C3'));
    expect(types(r.events)).not.toContain('ConflictResolved');
    expect(types(r.events)).not.toContain('CardFlipped');
  });

  it('R-CONF-15 R-FACE-11: a covered opponent card with an arrow pointing back does not defend', () => {
    const s = build({
      config: { coveredHitByArrow: 'IGNORE' },
      board: { C2: card('p2', 'south', { id: 'cov', covered: true }) },
      hands: { p1: ['north'] },
    });
    const r = act(s, 'p1', playUp(hid('north', 'p1'), 'C3'));
    expect(r.events).toContainEqual({ type: 'ConflictsFixed', card: hid('north', 'p1'), defenders: [] });
  });

  it('R-FACE-11: a covered card\'s arrows do not count as "pointing back" for a face-up card either way', () => {
    // P1 covered north on C4 does not make the P2 card on C3... it is the activating P2 card that matters: a face-up
    // P1 card is flipped by an activating P2 card unless its own arrow points back.
    const s = build({ active: 'p2', board: { C4: card('p1', 'north', { id: 'cov', covered: true }) }, hands: { p2: ['south'] } });
    const r = act(s, 'p2', playUp(hid('south', 'p2'), 'C3'));
    expect(types(r.events)).not.toContain('ConflictResolved');
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'CardDestroyed', card: 'cov', cause: 'arrow' }));
  });

  it('R-CONF-12: Block cards never take part in conflicts', () => {
    const s = build({ board: { C2: card('p2', 'block-water') }, hands: { p1: ['north'] } });
    const r = act(s, 'p1', playUp(hid('north', 'p1'), 'C3'));
    expect(r.events).toContainEqual({ type: 'ConflictsFixed', card: hid('north', 'p1'), defenders: [] });
    expect(at(r.state, 'C2')).toMatchObject({ facing: 'p2' });
  });

  it('R-CONF-16 (OQ-33): conflicts are mandatory: the order decision offers only conflicts, never end-phase or pass', () => {
    const s = build({ board: { C2: card('p2', 'b1'), D3: card('p2', 'b2') }, hands: { p1: ['a5'] } });
    const r = act(s, 'p1', playUp(hid('a5', 'p1'), 'C3'));
    expect(legal(r.state).every((a) => a.type === 'conflict')).toBe(true);
  });

  it('R-SYN-4 [T] R-CONF-5: with colorSynergy, a same-element friendly Block adds +1 ATK/+1 DEF in the conflict', () => {
    // leaf-like Nature attacker: use 'north' (Fire) next to a P1 Fire Block.
    const spec = { board: { C2: card('p2', 'south', { id: 'def' }), B3: card('p1', 'block-fire') }, hands: { p1: ['north'] } };
    const on = act(build({ ...spec, config: { colorSynergy: true } }), 'p1', playUp(hid('north', 'p1'), 'C3'));
    expect(eventsOf(on.events, 'ConflictResolved')[0]).toMatchObject({
      attackerDamage: 1,
      defenderDamage: 2,
      attackerDef: 1,
      defenderDef: -1,
    });
    expect(on.state.graveyards.p1).toEqual([]);
    const off = act(build(spec), 'p1', playUp(hid('north', 'p1'), 'C3'));
    expect(eventsOf(off.events, 'ConflictResolved')[0]).toMatchObject({ attackerDef: 0, defenderDef: 0 });
  });
});

describe('flips and covered cards', () => {
  const covered = (coveredHitByArrow?: 'DESTROY' | 'FLIP_OWNERSHIP' | 'IGNORE') =>
    build({
      config: coveredHitByArrow ? { coveredHitByArrow } : {},
      board: { D3: card('p2', 'wisp', { id: 'cov', covered: true }) },
      hands: { p1: ['a7'] },
    });

  it("R-FACE-12 R-FLIP-8 R-AB-NORM-3 (DESTROY, default): a standard covered opponent card is destroyed to its owner's graveyard", () => {
    const r = act(covered(), 'p1', playUp(hid('a7', 'p1'), 'C3'));
    expect(r.events).toContainEqual({ type: 'CardDestroyed', card: 'cov', defId: 'wisp-r', owner: 'p2', cell: 'D3', cause: 'arrow' });
    expect(r.state.graveyards.p2).toEqual(['cov']);
    expect(types(r.events)).not.toContain('CardFlipped');
  });

  it('R-FACE-12 (FLIP_OWNERSHIP): the covered card turns to face the active player and stays covered', () => {
    const r = act(covered('FLIP_OWNERSHIP'), 'p1', playUp(hid('a7', 'p1'), 'C3'));
    expect(r.events).toContainEqual({ type: 'CardFlipped', card: 'cov', cell: 'D3', to: 'p1', covered: true });
    expect(at(r.state, 'D3')).toMatchObject({ id: 'cov', facing: 'p1', covered: true });
    expect(r.state.cards.cov!.owner).toBe('p2');
    expect(scoreOf(r.state)).toEqual({ p1: 1, p2: 0 });
  });

  it('R-FACE-12 (IGNORE): the covered card is left alone', () => {
    const r = act(covered('IGNORE'), 'p1', playUp(hid('a7', 'p1'), 'C3'));
    const p1Turn = r.events.slice(0, types(r.events).indexOf('TurnEnded'));
    expect(p1Turn.some((e) => e.type === 'CardFlipped' || e.type === 'CardDestroyed')).toBe(false);
    expect(at(r.state, 'D3')).toMatchObject({ id: 'cov', facing: 'p2' });
  });

  for (const mode of ['DESTROY', 'FLIP_OWNERSHIP', 'IGNORE'] as const) {
    it(`R-FLIP-7 R-FACE-13 R-AB-NORM-2 (${mode}): a Growth-placed card is never destroyed or flipped by an arrow`, () => {
      const s = build({
        config: { coveredHitByArrow: mode },
        board: { D3: card('p2', 'wisp', { id: 'gro', growth: true }) },
        hands: { p1: ['a7'] },
      });
      const r = act(s, 'p1', playUp(hid('a7', 'p1'), 'C3'));
      expect(r.events.some((e) => (e.type === 'CardFlipped' || e.type === 'CardDestroyed') && e.card === 'gro')).toBe(false);
      expect(at(r.state, 'D3')).toMatchObject({ id: 'gro', facing: 'p2', covered: true, growth: true });
    });
  }

  it('R-FLIP-11 (OQ-33): every eligible card is flipped, with no decision', () => {
    const s = build({ board: { C2: card('p2', 'f'), D3: card('p2', 'wisp') }, hands: { p1: ['a5'] } });
    const r = act(s, 'p1', playUp(hid('a5', 'p1'), 'C3'));
    expect(eventsOf(r.events, 'CardFlipped')).toHaveLength(2);
    expect(r.state.active).toBe('p2');
  });

  it('R-CONF-10: damage taken earlier in the turn counts in a later conflict', () => {
    const s = build({ board: { D3: card('p2', 'tank', { id: 'hurt', damage: 2, raw: true }) }, hands: { p1: ['a7'] } });
    // tank raw facing p2: its printed N/E/W arrows point S/W/E on the board; W points at C3 → it defends.
    const r = act(s, 'p1', playUp(hid('a7', 'p1'), 'C3'));
    expect(eventsOf(r.events, 'ConflictResolved')[0]).toMatchObject({ defender: 'hurt', defenderDef: 2 });
  });

  it('R-FLIP-5: a flipped card keeps the damage it took this turn', () => {
    const s = activating('a8', 'B3', { board: { C3: card('p2', 'leaf', { id: 'hurt', damage: 1 }) }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'end-phase' });
    expect(r.events).toContainEqual({ type: 'CardFlipped', card: 'hurt', cell: 'C3', to: 'p1', covered: false });
    expect(at(r.state, 'C3')).toMatchObject({ facing: 'p1', damage: 1 });
    expect(cardView(r.state, 'C3')?.currentDef).toBe(1);
  });
});
