/**
 * apply() checks actions with a hand-written fast path before Zod (actions.ts, wellFormedAction).
 * The fast path may only accept what actionSchema accepts, and must yield the same action; every
 * other input goes to the schema (engine guarantee, no rule ID: INVALID_ACTION comes from the schema).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionSchema, wellFormedAction } from '../../../src/games/universus/actions.js';

const KEYS = ['type', 'cardId', 'foundationIds', 'attackIds', 'extra'];
const ids = (n: number) => Array.from({ length: n }, (_, i) => `i${i}`);
const value = fc.oneof(
  fc.constantFrom('PlayCard', 'CommitForCheck', 'DeclineCommit', 'Block', 'NoBlock', 'PassCombat', 'ChooseMomentum', 'Nope'),
  fc.constantFrom('', 'x', 'a'.repeat(64), 'a'.repeat(65)),
  fc.constantFrom(ids(0), ids(2), ids(200), ids(201), ['a', ''], ['a', 'a'.repeat(65)], ['a', 3]),
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 3 }),
);
const VALID = [
  { type: 'PlayCard', cardId: 'c1' },
  { type: 'CommitForCheck', foundationIds: ['a', 'b'] },
  { type: 'CommitForCheck', foundationIds: [] },
  { type: 'DeclineCommit' },
  { type: 'Block', cardId: 'c2' },
  { type: 'NoBlock' },
  { type: 'PassCombat' },
  { type: 'ChooseMomentum', attackIds: ['x'] },
];
/** A valid action with one key set to an edge value, or removed. */
const nearMiss = fc.tuple(fc.constantFrom(...VALID), fc.constantFrom(...KEYS), fc.boolean(), value).map(([a, key, remove, v]) => {
  const out: Record<string, unknown> = { ...a };
  if (remove) delete out[key];
  else out[key] = v;
  return out;
});

describe('the UniVersus action fast path agrees with actionSchema', () => {
  it('accepts only what the schema accepts, and yields the same action', () => {
    fc.assert(
      fc.property(fc.oneof(nearMiss, fc.anything()), (input) => {
        const fast = wellFormedAction(input);
        if (fast === null) return;
        const parsed = actionSchema.safeParse(input);
        expect(parsed.success).toBe(true);
        expect(fast).toStrictEqual(parsed.data);
      }),
      { numRuns: 20_000 },
    );
  });

  it('accepts the well-formed action of every type, as a copy (so later changes to the input cannot reach events)', () => {
    for (const a of VALID) {
      const fast = wellFormedAction(a);
      expect(fast).toStrictEqual(actionSchema.parse(a));
      if ('foundationIds' in a) expect((fast as typeof a).foundationIds).not.toBe(a.foundationIds);
    }
  });

  it('leaves inputs the schema rejects, and unusual objects, to the schema', () => {
    for (const input of [
      { type: 'PlayCard', cardId: 'c1', extra: 1 },
      { type: 'PlayCard', cardId: '' },
      { type: 'PlayCard', cardId: 'a'.repeat(65) },
      { type: 'CommitForCheck', foundationIds: ids(201) },
      { type: 'CommitForCheck', foundationIds: ['a', ''] },
      { type: 'ChooseMomentum', attackIds: 'a' },
      Object.assign(Object.create(null) as object, { type: 'NoBlock' }),
      ['NoBlock'],
    ]) {
      expect(wellFormedAction(input)).toBeNull();
    }
  });
});
