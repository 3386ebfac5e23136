// The plain-TypeScript SHA-256, HMAC-SHA256 and ChaCha20 (src/core/sha256.ts, chacha20.ts) give node:crypto's bits.
import { createCipheriv, createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chachaBlocks, chachaState } from '../../src/core/chacha20.js';
import { hmacSha256Words, sha256HexOf, wordsHex } from '../../src/core/sha256.js';

// Lengths around the block and padding edges (55/56/63/64/119/120), multi-byte UTF-8, long keys.
const texts = [
  '',
  'a',
  'seed',
  'ids',
  'deal:p1',
  'bench-0',
  'x'.repeat(55),
  'x'.repeat(56),
  'y'.repeat(63),
  'y'.repeat(64),
  'z'.repeat(65),
  'w'.repeat(119),
  'w'.repeat(120),
  'q'.repeat(300),
  'héllo wörld ✓',
  '日本語のシード',
  '\u{1F600}'.repeat(20),
];

describe('sha256 / hmac-sha256', () => {
  it('sha256HexOf equals node:crypto for every length class', () => {
    for (const t of texts) expect(sha256HexOf(t)).toBe(createHash('sha256').update(t).digest('hex'));
  });

  it('hmacSha256Words equals node:crypto, for keys short and long, one after another and repeated', () => {
    for (const k of texts)
      for (const m of [...texts.slice(0, 6), 'w'.repeat(120)]) {
        expect(wordsHex(hmacSha256Words(k, m))).toBe(createHmac('sha256', k).update(m).digest('hex'));
      }
    expect(wordsHex(hmacSha256Words('seed', 'ids'))).toBe(createHmac('sha256', 'seed').update('ids').digest('hex'));
  });
});

describe('chacha20', () => {
  it('is node:crypto chacha20 (zero counter and nonce), block by block across calls', () => {
    const key = createHmac('sha256', 'seed').update('deal:p2').digest();
    const want = createCipheriv('chacha20', key, Buffer.alloc(16)).update(Buffer.alloc(64 * 40));
    const state = chachaState(new Uint32Array(key.buffer.slice(key.byteOffset, key.byteOffset + 32)));
    const out = new Uint32Array(16 * 40);
    chachaBlocks(state, out, 0, 3);
    chachaBlocks(state, out, 48, 37);
    for (let i = 0; i < out.length; i++) expect(out[i]).toBe(want.readUInt32LE(i * 4));
  });
});

describe('keyed streams across the switch to node:crypto', () => {
  it('give the keystream word by word, whatever the hint (small chunks computed here, large ones by the cipher)', async () => {
    const { keyedStream } = await import('../../src/core/random.js');
    const key = createHmac('sha256', 'bench-7').update('deal:p1').digest();
    const want = createCipheriv('chacha20', key, Buffer.alloc(16)).update(Buffer.alloc(4 * 6000));
    for (const hint of [undefined, 1, 40, 64, 383, 384, 1208, 5000]) {
      const s = keyedStream('bench-7', 'deal:p1', hint);
      for (let i = 0; i < 6000; i++) expect(s.nextUint32()).toBe(want.readUInt32BE(i * 4));
    }
  });
});
