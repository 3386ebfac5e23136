// Keyed random streams (src/core/random.ts): determinism, independence per purpose, legacy sfc32.
import { describe, expect, it } from 'vitest';
import { keyedStream, nextInt, randomId, sfc32Stream, shuffle } from '../../src/core/random.js';

const draw = (src: { nextUint32(): number }, n: number) => Array.from({ length: n }, () => src.nextUint32());

describe('keyed streams', () => {
  it('are a function of (seed, purpose) only', () => {
    expect(draw(keyedStream('s', 'deal'), 50)).toEqual(draw(keyedStream('s', 'deal'), 50));
  });

  it('differ by purpose and by seed', () => {
    const a = draw(keyedStream('s', 'deal'), 16);
    expect(draw(keyedStream('s', 'ids'), 16)).not.toEqual(a);
    expect(draw(keyedStream('t', 'deal'), 16)).not.toEqual(a);
  });

  it('match HMAC-SHA256(seed, purpose NUL block) word by word', async () => {
    const { createHmac } = await import('node:crypto');
    const mac = createHmac('sha256', 'seed').update('ids\u00000').digest();
    const src = keyedStream('seed', 'ids');
    for (let i = 0; i < 8; i++) expect(src.nextUint32()).toBe(mac.readUInt32BE(i * 4));
    const mac1 = createHmac('sha256', 'seed').update('ids\u00001').digest();
    expect(src.nextUint32()).toBe(mac1.readUInt32BE(0));
  });

  it('reject a purpose that could collide with the block separator', () => {
    expect(() => keyedStream('s', 'a\u0000b')).toThrow(RangeError);
  });

  it('give roughly uniform integers and permutations', () => {
    const src = keyedStream('uniform', 'test');
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 6000; i++) counts[nextInt(src, 6)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(850);
    const items = Array.from({ length: 20 }, (_, i) => i);
    expect([...shuffle(src, [...items])].sort((x, y) => x - y)).toEqual(items);
    expect(randomId(src)).toMatch(/^c[0-9a-z]{10}$/);
  });
});

describe('legacy sfc32 stream', () => {
  it('reproduces the engine generator that dealt the first matches', () => {
    // Known answer, taken from the former src/games/evons/rng.ts (seedRng('abc')) before it was deleted.
    expect(draw(sfc32Stream('abc', 'evons-rng:'), 8)).toEqual([203831194, 2788759768, 2790711903, 3173817509, 804239383, 1791703766, 3951678906, 1819131732]);
  });
});
