/**
 * apply() checks actions with a hand-written fast path before Zod (actions.ts, wellFormedAction).
 * The fast path may only accept what ActionSchema accepts, and must yield the same action; every
 * other input goes to the schema. These properties pin that down (engine guarantee, no rule ID:
 * INVALID_ACTION answers come from the schema alone).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ActionSchema, wellFormedAction } from '../../../src/games/evons/actions.js';

const TYPES = ['reveal', 'play', 'pass', 'ability', 'end-phase', 'conflict', 'activate', 'discard', 'resign', 'nope'];
const KEYS = ['type', 'card', 'cell', 'covered', 'arrow', 'target', 'pull', 'defender', 'extra'];
/** Values near the schema's edges: cell names and near misses, id lengths 0/1/64/65, arrows in and out of range. */
const value = fc.oneof(
  fc.constantFrom(...TYPES),
  fc.constantFrom('C3', 'X0', 'Y6', 'A7', 'Z1', 'c3', 'C3\n', '', 'C', 'c0123456789'),
  fc.constantFrom('a'.repeat(64), 'a'.repeat(65), 'x'),
  fc.constantFrom(0, 7, 8, -1, 3.5, Number.NaN, Infinity, -0),
  fc.boolean(),
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 4 }),
  fc.array(fc.string(), { maxLength: 2 }),
);
const candidate = fc
  .record({ type: fc.constantFrom(...TYPES) })
  .chain((base) => fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 5 }).map((rest) => ({ ...rest, ...base })));

const VALID = [
  { type: 'reveal', card: 'c1' },
  { type: 'play', card: 'c1', cell: 'C3', covered: false },
  { type: 'pass' },
  { type: 'ability', arrow: 2, target: 'B1' },
  { type: 'ability', arrow: 0, target: 'B1', card: 'c2', pull: 'X0' },
  { type: 'end-phase' },
  { type: 'conflict', defender: 'c3' },
  { type: 'activate', card: 'c4' },
  { type: 'discard', card: 'c5' },
  { type: 'resign' },
];
/** A valid action with one key set to an edge value, or removed. */
const nearMiss = fc.tuple(fc.constantFrom(...VALID), fc.constantFrom(...KEYS), fc.boolean(), value).map(([a, key, remove, v]) => {
  const out: Record<string, unknown> = { ...a };
  if (remove) delete out[key];
  else out[key] = v;
  return out;
});

describe('the action fast path agrees with ActionSchema', () => {
  it('accepts only what the schema accepts, and yields the same action', () => {
    fc.assert(
      fc.property(fc.oneof(nearMiss, candidate, fc.anything()), (input) => {
        const fast = wellFormedAction(input);
        if (fast === null) return;
        const parsed = ActionSchema.safeParse(input);
        expect(parsed.success).toBe(true);
        expect(fast).toStrictEqual(parsed.data);
      }),
      { numRuns: 20_000 },
    );
  });

  it('accepts the well-formed action of every type (so the fast path is taken at all)', () => {
    for (const a of VALID) expect(wellFormedAction(a)).toStrictEqual(ActionSchema.parse(a));
  });

  it('leaves inputs the schema rejects, and unusual objects, to the schema', () => {
    for (const input of [
      { type: 'play', card: 'c1', cell: 'C3', covered: false, extra: 1 },
      { type: 'ability', arrow: 2, target: 'B1', card: undefined },
      { type: 'reveal', card: '' },
      { type: 'reveal', card: 'a'.repeat(65) },
      { type: 'ability', arrow: 8, target: 'B1' },
      { type: 'ability', arrow: -1, target: 'B1' },
      { type: 'ability', arrow: 1.5, target: 'B1' },
      { type: 'ability', arrow: Number.NaN, target: 'B1' },
      { type: 'ability', arrow: 1, target: 'B1', pull: 'A7' },
      { type: 'play', card: 'c1', cell: 'C3', covered: 'yes' },
      { type: 'play', card: 'c1', cell: 'H9', covered: false },
      Object.assign(Object.create(null) as object, { type: 'pass' }),
      ['pass'],
      'pass',
    ]) {
      expect(wellFormedAction(input)).toBeNull();
    }
  });
});
