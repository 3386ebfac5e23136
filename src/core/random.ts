/**
 * Deterministic randomness for rules engines, derived from the match seed alone (so replay
 * reproduces it) and split into independent keyed streams, one per purpose ("ids", "deal:p1",
 * "shuffle:3" …). Stream P is the ChaCha20 keystream (zero nonce and counter) under the key
 * HMAC-SHA256(seed, P): outputs of one stream say nothing about another or about the seed, so a
 * game may publish values drawn from one purpose (opaque card ids) without exposing the order of
 * hidden cards drawn from another (the deal). ChaCha20 rather than HMAC per block because a deal
 * needs hundreds of words and replay deals again on every load: one key derivation and one
 * cipher call per 256 words. node:crypto is used as a pure function here; nothing does I/O or
 * reads the clock.
 *
 * `sfc32Stream` is the generator the first Evons matches were dealt with (one stream for
 * everything); it stays so that those matches still replay.
 */
import { createCipheriv, createHash, createHmac } from 'node:crypto';

/** A source of uniform 32-bit unsigned integers. */
export interface RandomSource {
  nextUint32(): number;
}

/** Names a generator in a match's creation event, so old matches replay with their own. */
export type GeneratorId = 'sfc32' | 'chacha20';

const CHUNK = new Uint8Array(1024);

/** An independent stream for one purpose of one match. */
export function keyedStream(seed: string, purpose: string): RandomSource {
  const key = createHmac('sha256', seed).update(purpose).digest();
  // Node's chacha20 takes a 16-byte IV: a 32-bit block counter and a 96-bit nonce, all zero.
  const cipher = createCipheriv('chacha20', key, Buffer.alloc(16));
  let block = Buffer.alloc(0);
  let at = 0;
  return {
    nextUint32() {
      if (at >= block.length) {
        block = cipher.update(CHUNK);
        at = 0;
      }
      const v = block.readUInt32BE(at);
      at += 4;
      return v;
    },
  };
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator) seeded from SHA-256 of
 * `${prefix}${seed}`: the legacy single stream.
 */
export function sfc32Stream(seed: string, prefix: string): RandomSource {
  const h = createHash('sha256').update(`${prefix}${seed}`).digest('hex');
  const s = [0, 1, 2, 3].map((i) => parseInt(h.slice(i * 8, i * 8 + 8), 16) >>> 0) as [number, number, number, number];
  const next = (): number => {
    let [a, b, c, d] = s;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    s[0] = a;
    s[1] = b;
    s[2] = c;
    s[3] = d;
    return t >>> 0;
  };
  // Discard the first outputs, as the algorithm's author recommends.
  for (let i = 0; i < 15; i++) next();
  return { nextUint32: next };
}

/** Uniform integer in [0, n) without modulo bias. */
export function nextInt(src: RandomSource, n: number): number {
  if (!Number.isInteger(n) || n <= 0) throw new RangeError('n must be a positive integer');
  const limit = Math.floor(0x100000000 / n) * n;
  let x = src.nextUint32();
  while (x >= limit) x = src.nextUint32();
  return x % n;
}

/** Fisher–Yates shuffle, in place. */
export function shuffle<T>(src: RandomSource, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = nextInt(src, i + 1);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** An opaque id such as `c7k2m9x0qa`: random, so it says nothing about the card. */
export function randomId(src: RandomSource, length = 10): string {
  let out = 'c';
  for (let i = 0; i < length; i++) out += ALPHABET[nextInt(src, ALPHABET.length)];
  return out;
}
