/**
 * Deterministic randomness for rules engines, derived from the match seed alone (so replay
 * reproduces it) and split into independent keyed streams, one per purpose ("ids", "deal:p1",
 * "shuffle:3" …). Each stream is HMAC-SHA256 in counter mode keyed by the seed: block i of
 * purpose P is HMAC(seed, "P\0i"). Outputs of one stream say nothing about another or about the
 * seed, so a game may publish values drawn from one purpose (opaque card ids) without exposing
 * the order of hidden cards drawn from another (the deal). node:crypto's HMAC is a pure function;
 * nothing here does I/O or reads the clock.
 *
 * `sfc32Stream` is the generator the first Evons matches were dealt with (one stream for
 * everything); it stays so that those matches still replay.
 */
import { createHash, createHmac } from 'node:crypto';

/** A source of uniform 32-bit unsigned integers. */
export interface RandomSource {
  nextUint32(): number;
}

/** Names a generator in a match's creation event, so old matches replay with their own. */
export type GeneratorId = 'sfc32' | 'hmac-sha256';

/** An independent stream for one purpose of one match. */
export function keyedStream(seed: string, purpose: string): RandomSource {
  if (purpose.includes('\0')) throw new RangeError('purpose must not contain NUL');
  let block = 0;
  let words: number[] = [];
  return {
    nextUint32() {
      if (words.length === 0) {
        const mac = createHmac('sha256', seed).update(`${purpose}\0${block++}`).digest();
        words = [];
        for (let i = 28; i >= 0; i -= 4) words.push(mac.readUInt32BE(i));
      }
      return words.pop() as number;
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
