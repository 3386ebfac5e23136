/** §10 Activation Sequence, activation vs reactivation; §13 Chains. */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/games/evons/index.js';
import {
  act,
  activating,
  at,
  build,
  card,
  cellOf,
  decision,
  eventsOf,
  fillMain,
  gid,
  hid,
  legal,
  playUp,
  scoreOf,
  types,
} from './helpers.js';

const marks = (events: GameEvent[]) =>
  events.flatMap((e) => {
    if (e.type === 'ActivationStarted') return [`start:${e.card}:${e.kind}`];
    if (e.type === 'ActivationEnded') return [`end:${e.card}:${e.reason}`];
    return [];
  });

describe('activation sequence', () => {
  it('R-ACT-1: phases run ability1 → conflicts → flip → ability2', () => {
    const s = activating('a8', 'B3', { board: { C3: card('p2', 'f') }, hands: { p1: ['filler'] } });
    const r = act(s, 'p1', { type: 'end-phase' });
    const phases = eventsOf(r.events, 'PhaseStarted').map((e) => e.phase);
    expect(phases).toEqual(['conflicts', 'flip', 'ability2']);
    const r2 = act(r.state, 'p1', { type: 'end-phase' });
    expect(r2.events[0]).toEqual({ type: 'ActivationEnded', card: 'act', reason: 'completed' });
  });

  it('R-ACT-2: ending Ability Phase 1 without using the available ability is allowed', () => {
    const s = activating('a8', 'B3', { board: { C3: card('p2', 'f') }, hands: { p1: ['filler'] } });
    expect(legal(s)).toContainEqual({ type: 'end-phase' });
    const r = act(s, 'p1', { type: 'end-phase' });
    expect(types(r.events)).not.toContain('AbilityUsed');
  });

  it('R-ACT-11a R-AB-SHK-7: an own face-up card pushed during your turn reactivates from its new cell', () => {
    const s = activating('a8', 'B3', {
      config: { arrowReach: 'ADJACENT' },
      board: { C3: card('p1', 'east', { id: 'mine' }), E3: card('p2', 'f') },
      hands: { p1: ['filler'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3' });
    expect(r.events).toContainEqual({ type: 'TriggersQueued', cards: ['mine'] });
    expect(r.events).toContainEqual({ type: 'ActivationStarted', card: 'mine', cell: 'D3', kind: 'reactivation' });
    // from D3 its E arrow reaches E3 (adjacent) and flips it
    expect(r.events).toContainEqual({ type: 'CardFlipped', card: 'f@E3', cell: 'E3', to: 'p1', covered: false });
  });

  it('R-ACT-11a R-AB-MAG-10: Magnetism pulling an own face-up card reactivates it', () => {
    const s = activating('volt', 'B3', {
      config: { arrowReach: 'ADJACENT' },
      board: { C2: card('p1', 'pebble', { id: 'mine' }) },
      hands: { p1: ['filler'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3', pull: 'C2' });
    expect(r.events).toContainEqual({ type: 'ActivationStarted', card: 'mine', cell: 'C3', kind: 'reactivation' });
  });

  it('R-ACT-15 R-AB-MAG-6: an opponent card moved but not flipped does not activate', () => {
    // 'west' lands on C3 pointing back at the Volt: it defends (no flip), so nothing may reactivate it.
    const s = activating('volt', 'B3', {
      config: { arrowReach: 'ADJACENT' },
      board: { C2: card('p2', 'west', { id: 'theirs' }) },
      hands: { p1: ['filler'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3', pull: 'C2' });
    expect(r.events[1]).toEqual({ type: 'CardMoved', card: 'theirs', from: 'C2', to: 'C3', cause: 'Magnetism' });
    expect(eventsOf(r.events, 'ConflictResolved').map((e) => e.defender)).toEqual(['theirs']);
    expect(r.events.some((e) => e.type === 'ActivationStarted' && e.card === 'theirs')).toBe(false);
    expect(types(r.events)).not.toContain('TriggersQueued');
  });

  it('R-ACT-16 R-AB-MAG-7: a covered own card that is moved does not reactivate', () => {
    const s = activating('volt', 'B3', {
      config: { arrowReach: 'ADJACENT' },
      board: { C2: card('p1', 'east', { id: 'hid', covered: true }) },
      hands: { p1: ['filler'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'C3', pull: 'C2' });
    expect(r.events).toContainEqual({ type: 'CardMoved', card: 'hid', from: 'C2', to: 'C3', cause: 'Magnetism' });
    expect(types(r.events)).not.toContain('TriggersQueued');
  });

  it('R-ACT-11b R-ACT-15 R-FLIP-12: moved-earlier-this-turn opponent card that is flipped reactivates; an unmoved one does not', () => {
    const s = build({
      board: { D3: card('p2', 'f', { id: 'moved', moved: true }), C2: card('p2', 'wisp', { id: 'still' }) },
      hands: { p1: ['a5'] },
    });
    const r = act(s, 'p1', playUp(hid('a5', 'p1'), 'C3'));
    expect(
      eventsOf(r.events, 'CardFlipped')
        .map((e) => e.card)
        .sort(),
    ).toEqual(['moved', 'still']);
    expect(r.events).toContainEqual({ type: 'ActivationStarted', card: 'moved', cell: 'D3', kind: 'reactivation' });
    expect(r.events.some((e) => e.type === 'ActivationStarted' && e.card === 'still')).toBe(false);
  });

  // Regression: the remaining trigger once started on top of the chosen one's frame.
  it('R-ACT-17 (OQ-28): several cards triggered at once → the active player orders their reactivations', () => {
    const s = build({
      board: { D3: card('p2', 'f', { id: 'x', moved: true }), C2: card('p2', 'wisp', { id: 'y', moved: true }) },
      hands: { p1: ['a5'] },
    });
    const r = act(s, 'p1', playUp(hid('a5', 'p1'), 'C3'));
    expect(r.events).toContainEqual({ type: 'TriggersQueued', cards: expect.arrayContaining(['x', 'y']) });
    expect(decision(r.state)).toEqual({ kind: 'trigger-order', seat: 'p1', cards: expect.arrayContaining(['x', 'y']) });
    expect(legal(r.state)).toHaveLength(2);
    const r2 = act(r.state, 'p1', { type: 'activate', card: 'y' });
    expect(marks(r2.events).slice(0, 4)).toEqual(['start:y:reactivation', 'end:y:completed', 'start:x:reactivation', 'end:x:completed']);
  });

  it('R-ACT-6 R-AB-RES-7: a reactivated card gets its ability arrows back', () => {
    // a8 (own, E Shockwave) pushed by another a8 → reactivates with its Shockwave available again.
    const s = activating('a8', 'A3', {
      config: { arrowReach: 'ADJACENT' },
      board: { B3: card('p1', 'a8', { id: 'other' }), D3: card('p2', 'f') },
      hands: { p1: ['filler'] },
    });
    const r = act(s, 'p1', { type: 'ability', arrow: 0, target: 'B3' });
    expect(decision(r.state)).toMatchObject({ kind: 'ability', card: 'other', cell: 'C3', phase: 1 });
    expect(legal(r.state)).toContainEqual({ type: 'ability', arrow: 0, target: 'D3' });
  });

  it('R-ACT-8 (OQ-27): defenders are fixed at the start of the Conflict step; a defender revealed by a destruction is not added', () => {
    // a5 on C3 (E arrow, LINE). B2 on D3 defends; 'west' on E3 is hidden behind it.
    const s = build({ board: { D3: card('p2', 'b2'), E3: card('p2', 'west') }, hands: { p1: ['a5'] } });
    const r = act(s, 'p1', playUp(hid('a5', 'p1'), 'C3'));
    expect(r.events).toContainEqual({ type: 'ConflictsFixed', card: hid('a5', 'p1'), defenders: ['b2@D3'] });
    expect(eventsOf(r.events, 'ConflictResolved').map((e) => e.defender)).toEqual(['b2@D3']);
    // After the conflict, 'west' points back at C3: it defends, so it is not flipped either.
    expect(at(r.state, 'E3')).toMatchObject({ facing: 'p2', damage: 0 });
    expect(types(r.events)).not.toContain('CardFlipped');
  });

  it('R-ACT-8 (OQ-27): flip targets are fixed at the start of the Flip step; a card uncovered by a flip-step destruction is not flipped', () => {
    const s = build({ board: { D3: card('p2', 'wisp', { covered: true }), E3: card('p2', 'f') }, hands: { p1: ['a7'] } });
    const r = act(s, 'p1', playUp(hid('a7', 'p1'), 'C3'));
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'CardDestroyed', card: 'wisp@D3', cause: 'arrow' }));
    expect(types(r.events)).not.toContain('CardFlipped');
    expect(at(r.state, 'E3')).toMatchObject({ facing: 'p2' });
  });
});

describe('chains', () => {
  it('R-CHAIN-1/2/3: A revives B which revives C → C resolves first, then B, then A', () => {
    const s = build({ hands: { p1: ['night-s'] }, graveyards: { p1: ['night-s', 'cost2'] } });
    const a = hid('night-s', 'p1');
    const b = gid('night-s', 'p1', 0);
    const c = gid('cost2', 'p1', 1);
    const r = act(s, 'p1', playUp(a, 'B2'));
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: b });
    expect(decision(r2.state)).toMatchObject({ kind: 'ability', card: b, cell: 'B3', phase: 1 });
    expect(r2.state.stack.map((f) => f.card)).toEqual([a, b]);
    expect(legal(r2.state)).toContainEqual({ type: 'ability', arrow: 0, target: 'B4', card: c });
    const r3 = act(r2.state, 'p1', { type: 'ability', arrow: 0, target: 'B4', card: c });
    expect(marks(r3.events)).toEqual([`start:${c}:activation`, `end:${c}:completed`, `end:${b}:completed`, `end:${a}:completed`]);
    expect(r3.state.stack).toEqual([]);
  });

  it('R-CHAIN-4 R-CONF-8: a revived card destroyed in its conflict ends its sequence; the reviver continues where it stopped', () => {
    const s = build({ board: { C3: card('p2', 'strong-w') }, hands: { p1: ['night-s'] }, graveyards: { p1: ['east'] } });
    const night = hid('night-s', 'p1');
    const east = gid('east', 'p1');
    const r = act(s, 'p1', playUp(night, 'B2'));
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: east });
    const ev = r2.events;
    expect(marks(ev)).toEqual([`start:${east}:activation`, `end:${east}:destroyed`, `end:${night}:completed`]);
    const ended = ev.findIndex((e) => e.type === 'ActivationEnded' && e.card === east);
    const nightConflicts = ev.findIndex((e) => e.type === 'PhaseStarted' && e.card === night && e.phase === 'conflicts');
    expect(nightConflicts).toBeGreaterThan(ended);
    expect(r2.state.graveyards.p1).toEqual([east]);
    expect(cellOf(r2.state, night)).toBe('B2');
  });

  it('R-CHAIN-5 R-END-1/2/3: a revival filling the last main-zone cell ends the game; nothing left on the chain resolves', () => {
    const s = build({
      board: { ...fillMain(['B2', 'B3']), D1: card('p2', 'f') },
      hands: { p1: ['night-s'] },
      graveyards: { p1: ['east'] },
    });
    const night = hid('night-s', 'p1');
    const east = gid('east', 'p1');
    const r = act(s, 'p1', playUp(night, 'B2'));
    const r2 = act(r.state, 'p1', { type: 'ability', arrow: 0, target: 'B3', card: east });
    expect(types(r2.events)).toEqual(['AbilityUsed', 'CardRevived', 'GameEnded', 'SeedRevealed']);
    expect(r2.state.result).toEqual({ reason: 'main-zone-full', winner: 'p1', scores: { p1: 2, p2: 1 } });
    expect(r2.state.stack).toEqual([]);
    expect(decision(r2.state)).toBeNull();
    expect(scoreOf(r2.state)).toEqual({ p1: 2, p2: 1 });
  });

  it('R-CHAIN-5 R-TURN-8: Magnetism pulling an out-zone card into the last empty main-zone cell ends the game at once', () => {
    const t = activating('volt-n', 'A6', {
      config: { arrowReach: 'ADJACENT' },
      board: { ...fillMain(['A5']), X5: card('p1', 'leaf', { id: 'puller' }) },
      hands: { p1: ['filler'] },
    });
    expect(legal(t)).toContainEqual({ type: 'ability', arrow: 0, target: 'A5', pull: 'X5' });
    const r = act(t, 'p1', { type: 'ability', arrow: 0, target: 'A5', pull: 'X5' });
    expect(types(r.events)).toEqual(['AbilityUsed', 'CardMoved', 'GameEnded', 'SeedRevealed']);
    expect(r.state.result?.reason).toBe('main-zone-full');
  });
});
