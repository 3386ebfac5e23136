/** The leak checks' quoted-id search (quoted.ts) answers exactly as `text.includes(`"${id}"`)`. */
import { describe, expect, it } from 'vitest';
import { prng } from '../helpers.js';
import { quotedIn } from './quoted.js';

describe('quotedIn', () => {
  it('agrees with includes() on random texts made of ids, quotes and other characters', () => {
    const rand = prng(7);
    const alphabet = ['"', 'a', 'b', 'ab', 'ba', '"a"', 'c1', ':', ',', '\\"', ' '];
    const ids = ['a', 'b', 'ab', 'ba', 'c1', 'a"b', '', 'zz'];
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: Math.floor(rand() * 12) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
      const quoted = quotedIn(text);
      for (const id of ids) expect(quoted(id), `${id} in ${text}`).toBe(text.includes(`"${id}"`));
    }
  });
});
