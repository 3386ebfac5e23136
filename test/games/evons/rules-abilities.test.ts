/** §15 The arrow abilities (Growth, Shockwave, Magnetism, Resurrection, Block, and the provisional Firestorm, Swap, Remove). */
import { describe, expect, it } from 'vitest';
import {
  act,
  activating,
  at,
  build,
  card,
  cardView,
  cellOf,
  decision,
  eventsOf,
  gid,
  hid,
  legal,
  abilityOptions,
  reject,
  scoreOf,
  types,
  type Spec,
} from './helpers.js';

/** Like `activating`, with options for the activating card (damage). */
const activatingWith = (def: string, cell: string, opts: { damage?: number }, spec: Spec) =>
  build({
    ...spec,
    step: 'activate',
    played: true,
    board: { ...(spec.board ?? {}), [cell]: card('p1', def, { id: 'act', ...opts }) },
    stack: [{ card: 'act', kind: 'activation', phase: 'ability1', used: [], revivedCost: 0, conflicts: null }],
  });

describe('Growth', () => {
  it('R-AB-GRO-8/9: Block cards are not growable; with no monster in hand Growth is not offered', () => {
    const s = activating('sprout', 'B3', { config: { arrowReach: 'ADJACENT' }, hands: { p1: ['block-nature'] } });
    expect(decision(s)).not.toMatchObject({ kind: 'ability' });
    expect(at(s, 'C3')).toBeNull();
  });

  it('R-AB-GRO-2/3 R-ARROW-6 (LINE): any empty cell the arrow passes over, any hand monster', () => {
    const s = activating('sprout', 'B3', { board: { E3: card('p2', 'f') }, hands: { p1: ['titan', 'leaf'] } });
    const opts = abilityOptions(s)
      .map((o) => `${o.target}:${o.card}`)
      .sort();
    expect(opts).toEqual([
      `C3:${hid('leaf', 'p1', 1)}`,
      `C3:${hid('titan', 'p1', 0)}`,
      `D3:${hid('leaf', 'p1', 1)}`,
      `D3:${hid('titan', 'p1', 0)}`,
    ]);
  });
});

describe('Shockwave', () => {
  it("R-AB-SHK-4 R-FACE-13c: the landing cell's occupant is destroyed whatever it is, even a Growth-placed card", () => {
    const s = activating('a8', 'B3', {
      board: { C3: card('p2', 'f'), D3: card('p1', 'titan', { id: 'gro', growth: true }) },
      hands: { p1: ['filler'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r.events).toContainEqual({
      type: 'CardDestroyed',
      card: 'gro',
      defId: 'titan',
      owner: 'p1',
      cell: 'D3',
      cause: 'shockwave-landing',
    });
    expect(at(r.state, 'D3')?.id).toBe('f@C3');
    expect(r.state.graveyards.p1).toContain('gro');
  });

  it('R-AB-SHK-2: pushes covered cards of either player too', () => {
    const s = activating('a8', 'B3', {
      board: { C3: card('p2', 'wisp', { id: 'cov', covered: true }) },
      config: { coveredHitByArrow: 'IGNORE' },
      hands: { p1: ['filler'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r.events).toContainEqual({ type: 'CardMoved', card: 'cov', from: 'C3', to: 'D3', cause: 'Shockwave' });
  });

  it('R-AB-SHK-5 (OQ-32): a push along the border from one out-zone cell to another is an ordinary push', () => {
    const s = activating('a8', 'A0', { board: { B0: card('p2', 'f') }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'B0' });
    expect(r.events).toContainEqual({ type: 'CardMoved', card: 'f@B0', from: 'B0', to: 'C0', cause: 'Shockwave' });
    expect(r.state.removed).toEqual([]);
  });

  it('R-AB-SHK-8: with nothing in the line Shockwave is not offered', () => {
    const s = activating('a8', 'B3', { hands: { p1: ['filler'] } });
    expect(decision(s)).not.toMatchObject({ kind: 'ability' });
  });
});

describe('Magnetism', () => {
  it('R-AB-MAG-11 [T] (magnetismSelfPull on): the activating card may pull itself, without a reactivation', () => {
    const s = activating('volt', 'B3', { config: { arrowReach: 'ADJACENT', magnetismSelfPull: true }, hands: { p1: ['filler'] } });
    expect(abilityOptions(s)).toEqual([{ type: 'ability', arrow: 0, target: 'C3', pull: 'B3' }]);
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3', pull: 'B3' });
    expect(cellOf(r.state, 'act')).toBe('C3');
    expect(types(r.events)).not.toContain('TriggersQueued');
  });

  it('R-AB-MAG-5 R-AB-MAG-11 (default off): self-pull is refused', () => {
    const s = activating('volt', 'B3', { config: { arrowReach: 'ADJACENT' }, board: { C2: card('p2', 'f') }, hands: { p1: ['filler'] } });
    reject(s, 'p1', { type: 'ability', arrow: 0, target: 'C3', pull: 'B3' }, 'INVALID_CHOICE');
  });
});

describe('Resurrection', () => {
  it('R-AB-RES-4: cost 6 with two arrows: revive a 4 then a 2 (total 6) is allowed', () => {
    const s = activating('lich', 'C3', { graveyards: { p1: ['cost4', 'cost2', 'cost3'] }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: gid('cost4', 'p1', 0) });
    expect(r.state.stack.at(-1)).toMatchObject({ card: 'act', revivedCost: 4, used: [0] });
    const cards = new Set(abilityOptions(r.state).map((o) => o.card));
    expect(cards).toEqual(new Set([gid('cost2', 'p1', 1)]));
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 1, target: 'D3', card: gid('cost2', 'p1', 1) });
    expect(r2.events).toContainEqual({ type: 'CardRevived', seat: 'p1', card: gid('cost2', 'p1', 1), defId: 'cost2', cell: 'D3', cost: 2 });
    expect(r2.state.graveyards.p1).toEqual([gid('cost3', 'p1', 2)]);
  });

  it('R-AB-RES-4: cost 6: a 3 then a 4 (total 7) is refused with RESURRECTION_COST_EXCEEDED', () => {
    const s = activating('lich', 'C3', { graveyards: { p1: ['cost4', 'cost2', 'cost3'] }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: gid('cost3', 'p1', 2) });
    const msg = reject(
      r.state,
      'p1',
      { type: 'ability', arrow: 1, target: 'D3', card: gid('cost4', 'p1', 0) },
      'RESURRECTION_COST_EXCEEDED',
    );
    expect(msg).toMatch(/3/);
    expect(legal(r.state)).toContainEqual({ type: 'ability', arrow: 1, target: 'D3', card: gid('cost2', 'p1', 1) });
  });

  it('R-AB-RES-7 R-CRED-8: the revived card arrives face-up, facing the reviver, at full DEF, no credits paid', () => {
    const s = activating('night', 'C3', { graveyards: { p1: ['brute'] }, hands: { p1: ['filler'] }, credits: { p1: 7 } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C2', card: gid('brute', 'p1') });
    expect(at(r.state, 'C2')).toMatchObject({ id: gid('brute', 'p1'), facing: 'p1', covered: false, damage: 0 });
    expect(cardView(r.state, 'C2')?.currentDef).toBe(3);
    expect(r.state.credits.p1).toBe(7);
  });
});

describe('Block ability', () => {
  it('R-AB-BLK-7: places a Block card on an out-zone cell', () => {
    const s = activating('mason', 'A0', { config: { arrowReach: 'ADJACENT' }, hands: { p1: ['block-earth'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'B0', card: hid('block-earth', 'p1') });
    expect(at(r.state, 'B0')).toMatchObject({ id: hid('block-earth', 'p1'), covered: false });
  });

  it('R-BLOCK-3 R-AB-BLK-6: a placed Block card never scores and never activates', () => {
    const s = activating('mason', 'B3', { config: { arrowReach: 'ADJACENT' }, hands: { p1: ['block-earth', 'filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3', card: hid('block-earth', 'p1') });
    expect(r.events.some((e) => e.type === 'ActivationStarted' && e.card === hid('block-earth', 'p1'))).toBe(false);
    expect(eventsOf(r.events, 'GameEnded')).toEqual([]);
    expect(at(r.state, 'C3')).toMatchObject({ id: hid('block-earth', 'p1'), facing: 'p1', covered: false });
    expect(scoreOf(r.state)).toEqual({ p1: 1, p2: 0 });
  });
});

describe('Firestorm (provisional model, OQ-18 reading A)', () => {
  const line = {
    board: { C3: card('p2', 'leaf'), D3: card('p1', 'pebble'), E3: card('p2', 'b7'), Y3: card('p2', 'titan') },
    hands: { p1: ['filler'] },
  };

  it("R-AB-FIRE-1/2/6 (LINE): a pool equal to the user's current DEF runs down the line, own cards skipped, surplus goes on", () => {
    const s = activating('blaze', 'B3', line);
    expect(abilityOptions(s)).toEqual([{ type: 'ability', arrow: 0, target: 'C3' }]);
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(eventsOf(r.events, 'FirestormDamage')).toEqual([
      { type: 'FirestormDamage', card: 'leaf@C3', cell: 'C3', amount: 2, def: 0 },
      { type: 'FirestormDamage', card: 'b7@E3', cell: 'E3', amount: 1, def: 0 },
      { type: 'FirestormDamage', card: 'titan@Y3', cell: 'Y3', amount: 1, def: 5 },
    ]);
    expect(r.state.graveyards.p2.sort()).toEqual(['b7@E3', 'leaf@C3']);
    expect(at(r.state, 'D3')?.damage).toBe(0);
  });

  it("R-AB-FIRE-2 R-CONF-10: the pool is the user's CURRENT DEF (damaged blaze 4−3 = 1)", () => {
    const s = activatingWith('blaze', 'B3', { damage: 3 }, line);
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(eventsOf(r.events, 'FirestormDamage')).toEqual([{ type: 'FirestormDamage', card: 'leaf@C3', cell: 'C3', amount: 1, def: 1 }]);
  });

  it('R-AB-FIRE-6 (ADJACENT): only the neighbouring card is hit', () => {
    const s = activating('blaze', 'B3', { ...line, config: { arrowReach: 'ADJACENT' } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(eventsOf(r.events, 'FirestormDamage').map((e) => e.cell)).toEqual(['C3']);
  });

  it('R-AB-FIRE-3 R-AB-GRO-5: a Growth-placed card dealt 1 damage is destroyed', () => {
    const s = activating('blaze', 'B3', { board: { C3: card('p2', 'titan', { id: 'gro', growth: true }) }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r.events).toContainEqual({ type: 'CardDestroyed', card: 'gro', defId: 'titan-r', owner: 'p2', cell: 'C3', cause: 'firestorm' });
  });

  it('R-AB-FIRE-5 R-BLOCK-6: a Block card in the line protects the monsters behind it', () => {
    const s = activating('blaze', 'B3', {
      board: { C3: card('p2', 'leaf'), D3: card('p1', 'block-fire'), E3: card('p2', 'b7') },
      hands: { p1: ['filler'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(eventsOf(r.events, 'FirestormDamage').map((e) => e.cell)).toEqual(['C3']);
    expect(at(r.state, 'E3')).not.toBeNull();
  });
});

describe('Swap (provisional, OQ-19) and Remove (provisional, OQ-20)', () => {
  it('R-AB-SWAP-1/4 R-AB-GRO-6: Swap exchanges places with a Growth-placed card (it stays covered)', () => {
    const s = activating('swapper', 'B3', { board: { C3: card('p2', 'wisp', { id: 'gro', growth: true }) }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(at(r.state, 'B3')).toMatchObject({ id: 'gro', covered: true, growth: true });
    expect(at(r.state, 'C3')?.id).toBe('act');
  });

  it('R-AB-SWAP-4 R-ACT-11a R-ACT-13: the other card reactivates if it is an own face-up card; the swapper never does', () => {
    const s = activating('swapper', 'B3', { board: { C3: card('p1', 'pebble', { id: 'mine' }) }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(eventsOf(r.events, 'ActivationStarted')).toEqual([
      { type: 'ActivationStarted', card: 'mine', cell: 'B3', kind: 'reactivation' },
    ]);
  });

  it("R-AB-REM-1/3: Remove destroys any monster whatever its DEF (face-up, covered, Growth-placed; either player) to its owner's graveyard", () => {
    const cases = [
      card('p2', 'titan', { id: 'v' }),
      card('p2', 'titan', { id: 'v', covered: true }),
      card('p2', 'titan', { id: 'v', growth: true }),
      card('p1', 'titan', { id: 'v' }),
    ];
    for (const target of cases) {
      const s = activating('reaper', 'B3', { board: { C3: target }, hands: { p1: ['filler'] } });
      const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
      expect(r.events).toContainEqual(expect.objectContaining({ type: 'CardDestroyed', card: 'v', owner: target.facing, cause: 'remove' }));
      expect(r.state.graveyards[target.facing]).toContain('v');
    }
  });
});
