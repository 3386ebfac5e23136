/**
 * Seeded pseudo-random generator: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator,
 * 128-bit state), seeded from SHA-256 of the match seed. The state is plain data kept in the
 * game, so a match's randomness is a function of its seed alone.
 */
import { sha256Hex } from './hash.js';

export type RngState = [number, number, number, number];

export function seedRng(seed: string): RngState {
  const h = sha256Hex(`evons-rng:${seed}`);
  const s: RngState = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) s[i] = parseInt(h.slice(i * 8, i * 8 + 8), 16) >>> 0;
  // Discard the first outputs, as the algorithm's author recommends.
  for (let i = 0; i < 15; i++) nextUint32(s);
  return s;
}

/** Advances the state in place; returns a uniform 32-bit unsigned integer. */
export function nextUint32(s: RngState): number {
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
}

/** Uniform integer in [0, n) without modulo bias. */
export function nextInt(s: RngState, n: number): number {
  if (n <= 0) throw new RangeError('n must be positive');
  const limit = Math.floor(0x100000000 / n) * n;
  let x = nextUint32(s);
  while (x >= limit) x = nextUint32(s);
  return x % n;
}

/** Fisher–Yates shuffle, in place. */
export function shuffle<T>(s: RngState, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = nextInt(s, i + 1);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** An opaque id such as `c7k2m9x0qa`: random, so it says nothing about the card. */
export function randomId(s: RngState, length = 10): string {
  let out = 'c';
  for (let i = 0; i < length; i++) out += ALPHABET[nextInt(s, ALPHABET.length)];
  return out;
}
