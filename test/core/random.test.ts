// Keyed random streams (src/core/random.ts): determinism, independence per purpose, legacy sfc32.
import { describe, expect, it } from 'vitest';
import { keyedStream, nextInt, randomId, sfc32Stream, shuffle, type RandomSource } from '../../src/core/random.js';

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

  it('are the ChaCha20 keystream under HMAC-SHA256(seed, purpose), word by word across chunks', async () => {
    const { createCipheriv, createHmac } = await import('node:crypto');
    const key = createHmac('sha256', 'seed').update('ids').digest();
    const stream = createCipheriv('chacha20', key, Buffer.alloc(16)).update(Buffer.alloc(4096));
    const words = draw(keyedStream('seed', 'ids'), 1024);
    for (let i = 0; i < 1024; i++) expect(words[i]).toBe(stream.readUInt32BE(i * 4));
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

describe('randomId', () => {
  it('is "c" then one alphabet character per nextInt(src, 36), as ids have always been drawn', () => {
    const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
    const a = keyedStream('ids-known', 'ids');
    const b = keyedStream('ids-known', 'ids');
    for (let i = 0; i < 300; i++) {
      let want = 'c';
      for (let k = 0; k < 10; k++) want += alphabet[nextInt(b, 36)];
      expect(randomId(a)).toBe(want);
    }
    expect(randomId(sfc32Stream('x', 'p'), 4)).toMatch(/^c[0-9a-z]{4}$/);
  });

  it('skips a rejected word (≥ the largest multiple of 36 below 2^32) like nextInt, also inside a buffered run', () => {
    // A rejected word has odds 4 in 2^32: write some into both streams' buffers to see it handled.
    type Buffered = { words: Uint32Array; at: number };
    const words = new Uint32Array(40).map((_, i) => (i * 2654435761) >>> 0);
    words[3] = 0xffffffff;
    words[17] = 0xfffffffd;
    const a = keyedStream('rejections', 'ids') as unknown as Buffered & RandomSource;
    const b = keyedStream('rejections', 'ids') as unknown as Buffered & RandomSource;
    a.nextUint32();
    b.nextUint32();
    a.words = words.slice();
    b.words = words.slice();
    a.at = b.at = 0;
    const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
    for (let i = 0; i < 3; i++) {
      let want = 'c';
      for (let k = 0; k < 10; k++) want += alphabet[nextInt(b, 36)];
      expect(randomId(a)).toBe(want);
    }
    expect(a.at).toBe(32);
  });
});

describe('legacy sfc32 stream', () => {
  it('reproduces the engine generator that dealt the first matches', () => {
    // Known answer, taken from the former src/games/evons/rng.ts (seedRng('abc')) before it was deleted.
    expect(draw(sfc32Stream('abc', 'evons-rng:'), 8)).toEqual([
      203831194, 2788759768, 2790711903, 3173817509, 804239383, 1791703766, 3951678906, 1819131732,
    ]);
  });
});
