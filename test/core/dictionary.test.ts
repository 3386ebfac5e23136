/** idDictionary (src/core/dictionary.ts) must be observably a plain `{}`: deals are compared and serialised as such. */
import { describe, expect, it } from 'vitest';
import { idDictionary } from '../../src/core/dictionary.js';

describe('idDictionary', () => {
  it('is an empty plain object with the ordinary prototype', () => {
    const d = idDictionary<number>();
    expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    expect(Object.keys(d)).toEqual([]);
    expect(JSON.stringify(d)).toBe('{}');
  });

  it('keeps insertion order and serialises like an object literal built the same way', () => {
    const d = idDictionary<{ n: number }>();
    const plain: Record<string, { n: number }> = {};
    for (const [i, id] of ['cz', 'ca1', 'c0', 'cb'].entries()) {
      d[id] = { n: i };
      plain[id] = { n: i };
    }
    expect(Object.keys(d)).toEqual(['cz', 'ca1', 'c0', 'cb']);
    expect(JSON.stringify(d)).toBe(JSON.stringify(plain));
    expect(d).toStrictEqual(plain);
  });
});
