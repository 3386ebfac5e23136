/**
 * The ChaCha20 keystream (RFC 8439, 20 rounds) in plain TypeScript, with node:crypto's
 * 'chacha20' layout: 32-bit block counter from 0, 96-bit nonce of zeros. A deal needs a few
 * hundred words from each of three streams; creating a node:crypto cipher per stream cost more
 * than computing those words here. Same bits as node:crypto (test/core/sha256.test.ts).
 */

/** The key schedule of one stream: the 16-word input block, whose counter (word 12) advances. */
export function chachaState(key: Uint32Array): Uint32Array {
  const s = new Uint32Array(16);
  s[0] = 0x61707865;
  s[1] = 0x3320646e;
  s[2] = 0x79622d32;
  s[3] = 0x6b206574;
  s.set(key, 4);
  return s;
}

/**
 * Writes the next `blocks` keystream blocks of `state` into `out` from word `at` (16 words each,
 * as little-endian words of the keystream bytes) and advances the block counter.
 */
export function chachaBlocks(state: Uint32Array, out: Uint32Array, at: number, blocks: number): void {
  for (let n = 0; n < blocks; n++, at += 16) {
    let x0 = state[0]!,
      x1 = state[1]!,
      x2 = state[2]!,
      x3 = state[3]!;
    let x4 = state[4]!,
      x5 = state[5]!,
      x6 = state[6]!,
      x7 = state[7]!;
    let x8 = state[8]!,
      x9 = state[9]!,
      x10 = state[10]!,
      x11 = state[11]!;
    let x12 = state[12]!,
      x13 = state[13]!,
      x14 = state[14]!,
      x15 = state[15]!;
    for (let r = 0; r < 10; r++) {
      // Column round.
      x0 = (x0 + x4) | 0;
      x12 ^= x0;
      x12 = (x12 << 16) | (x12 >>> 16);
      x8 = (x8 + x12) | 0;
      x4 ^= x8;
      x4 = (x4 << 12) | (x4 >>> 20);
      x0 = (x0 + x4) | 0;
      x12 ^= x0;
      x12 = (x12 << 8) | (x12 >>> 24);
      x8 = (x8 + x12) | 0;
      x4 ^= x8;
      x4 = (x4 << 7) | (x4 >>> 25);
      x1 = (x1 + x5) | 0;
      x13 ^= x1;
      x13 = (x13 << 16) | (x13 >>> 16);
      x9 = (x9 + x13) | 0;
      x5 ^= x9;
      x5 = (x5 << 12) | (x5 >>> 20);
      x1 = (x1 + x5) | 0;
      x13 ^= x1;
      x13 = (x13 << 8) | (x13 >>> 24);
      x9 = (x9 + x13) | 0;
      x5 ^= x9;
      x5 = (x5 << 7) | (x5 >>> 25);
      x2 = (x2 + x6) | 0;
      x14 ^= x2;
      x14 = (x14 << 16) | (x14 >>> 16);
      x10 = (x10 + x14) | 0;
      x6 ^= x10;
      x6 = (x6 << 12) | (x6 >>> 20);
      x2 = (x2 + x6) | 0;
      x14 ^= x2;
      x14 = (x14 << 8) | (x14 >>> 24);
      x10 = (x10 + x14) | 0;
      x6 ^= x10;
      x6 = (x6 << 7) | (x6 >>> 25);
      x3 = (x3 + x7) | 0;
      x15 ^= x3;
      x15 = (x15 << 16) | (x15 >>> 16);
      x11 = (x11 + x15) | 0;
      x7 ^= x11;
      x7 = (x7 << 12) | (x7 >>> 20);
      x3 = (x3 + x7) | 0;
      x15 ^= x3;
      x15 = (x15 << 8) | (x15 >>> 24);
      x11 = (x11 + x15) | 0;
      x7 ^= x11;
      x7 = (x7 << 7) | (x7 >>> 25);
      // Diagonal round.
      x0 = (x0 + x5) | 0;
      x15 ^= x0;
      x15 = (x15 << 16) | (x15 >>> 16);
      x10 = (x10 + x15) | 0;
      x5 ^= x10;
      x5 = (x5 << 12) | (x5 >>> 20);
      x0 = (x0 + x5) | 0;
      x15 ^= x0;
      x15 = (x15 << 8) | (x15 >>> 24);
      x10 = (x10 + x15) | 0;
      x5 ^= x10;
      x5 = (x5 << 7) | (x5 >>> 25);
      x1 = (x1 + x6) | 0;
      x12 ^= x1;
      x12 = (x12 << 16) | (x12 >>> 16);
      x11 = (x11 + x12) | 0;
      x6 ^= x11;
      x6 = (x6 << 12) | (x6 >>> 20);
      x1 = (x1 + x6) | 0;
      x12 ^= x1;
      x12 = (x12 << 8) | (x12 >>> 24);
      x11 = (x11 + x12) | 0;
      x6 ^= x11;
      x6 = (x6 << 7) | (x6 >>> 25);
      x2 = (x2 + x7) | 0;
      x13 ^= x2;
      x13 = (x13 << 16) | (x13 >>> 16);
      x8 = (x8 + x13) | 0;
      x7 ^= x8;
      x7 = (x7 << 12) | (x7 >>> 20);
      x2 = (x2 + x7) | 0;
      x13 ^= x2;
      x13 = (x13 << 8) | (x13 >>> 24);
      x8 = (x8 + x13) | 0;
      x7 ^= x8;
      x7 = (x7 << 7) | (x7 >>> 25);
      x3 = (x3 + x4) | 0;
      x14 ^= x3;
      x14 = (x14 << 16) | (x14 >>> 16);
      x9 = (x9 + x14) | 0;
      x4 ^= x9;
      x4 = (x4 << 12) | (x4 >>> 20);
      x3 = (x3 + x4) | 0;
      x14 ^= x3;
      x14 = (x14 << 8) | (x14 >>> 24);
      x9 = (x9 + x14) | 0;
      x4 ^= x9;
      x4 = (x4 << 7) | (x4 >>> 25);
    }
    out[at] = x0 + state[0]!;
    out[at + 1] = x1 + state[1]!;
    out[at + 2] = x2 + state[2]!;
    out[at + 3] = x3 + state[3]!;
    out[at + 4] = x4 + state[4]!;
    out[at + 5] = x5 + state[5]!;
    out[at + 6] = x6 + state[6]!;
    out[at + 7] = x7 + state[7]!;
    out[at + 8] = x8 + state[8]!;
    out[at + 9] = x9 + state[9]!;
    out[at + 10] = x10 + state[10]!;
    out[at + 11] = x11 + state[11]!;
    out[at + 12] = x12 + state[12]!;
    out[at + 13] = x13 + state[13]!;
    out[at + 14] = x14 + state[14]!;
    out[at + 15] = x15 + state[15]!;
    state[12] = state[12]! + 1;
  }
}
