/** Named parameters (src/persistence/named-sql.ts): numbered by first use, reused, listed in that order. */
import { describe, expect, it } from 'vitest';
import { named } from '../../src/persistence/named-sql.js';

describe('named statements', () => {
  it('numbers each name once, in order of first use, and lists the values in that order', () => {
    const s = named<{
      id: string;
      version: number;
      note: string | null;
    }>()`UPDATE t SET v = ${'version'}, n = ${'note'} WHERE id = ${'id'} AND v < ${'version'}`;
    expect(s.text).toBe('UPDATE t SET v = $1, n = $2 WHERE id = $3 AND v < $1');
    expect(s.values({ id: 'a', version: 3, note: null })).toEqual([3, null, 'a']);
  });

  it('sends an undefined value as NULL and leaves out fields the statement does not use', () => {
    const s = named<{ id: string; unused?: string; maybe?: number }>()`SELECT ${'id'}, ${'maybe'}`;
    expect(s.values({ id: 'x', unused: 'y' })).toEqual(['x', null]);
  });
});
