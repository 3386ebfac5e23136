/**
 * Deterministic randomness for rules engines, derived from the match seed alone (so replay
 * reproduces it) and split into independent keyed streams, one per purpose ("ids", "deal:p1",
 * "shuffle:3" …). Stream P is the ChaCha20 keystream (zero nonce and counter) under the key
 * HMAC-SHA256(seed, P): outputs of one stream say nothing about another or about the seed, so a
 * game may publish values drawn from one purpose (opaque card ids) without exposing the order of
 * hidden cards drawn from another (the deal). ChaCha20 rather than HMAC per block because a deal
 * needs hundreds of words and replay deals again on every load. Both are computed in plain
 * TypeScript (core/sha256.ts, core/chacha20.ts; the same bits as node:crypto's): nothing does
 * I/O or reads the clock.
 *
 * `sfc32Stream` is the generator the first Evons matches were dealt with (one stream for
 * everything); it stays so that those matches still replay.
 */
import { createCipheriv, type Cipher } from 'node:crypto';
import { chachaBlocks, chachaState } from './chacha20.js';
import { hmacSha256Words, sha256Words, utf8 } from './sha256.js';

/** A source of uniform 32-bit unsigned integers. */
export interface RandomSource {
  nextUint32(): number;
}

/** Names a generator in a match's creation event, so old matches replay with their own. */
export type GeneratorId = 'sfc32' | 'chacha20';

/**
 * Keystream is produced in chunks that grow: most streams need a few words (the first player, a
 * deck's shuffle), the ids stream over a thousand. A caller that knows about how many words it
 * will draw says so (`expectedWords`), and the first chunk is that size. Chunk sizes do not
 * change the words.
 */
const FIRST_CHUNK = 256;
/** Later chunks grow up to this. */
const MAX_CHUNK = 1024;
/** No first chunk beyond this: a hint is only a hint. */
const MAX_FIRST_CHUNK = 4096;

/** `w` with its bytes reversed: ChaCha20 works in little-endian words, streams read big-endian ones. */
const swap = (w: number): number => ((w << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;

/**
 * Chunks of at least this many blocks come from node:crypto's cipher: its set-up costs as much as
 * computing about two dozen blocks here, and its blocks are then far cheaper. A deck's shuffle
 * (a few blocks) is computed here; a deal's ids (some 80 blocks) by the cipher.
 */
const NATIVE_BLOCKS = 24;
const ZEROS = new Uint8Array(MAX_FIRST_CHUNK * 4);
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The keystream's bytes as big-endian words (what Buffer.readUInt32BE reads at each offset). */
function wordsOf(bytes: Buffer): Uint32Array {
  const n = bytes.byteLength >>> 2;
  if (bytes.byteOffset % 4 === 0) {
    // The cipher's output is a fresh buffer of its own: swap its bytes in place and read it whole.
    if (LITTLE_ENDIAN) bytes.swap32();
    return new Uint32Array(bytes.buffer, bytes.byteOffset, n);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = new Uint32Array(n);
  for (let i = 0; i < n; i++) words[i] = view.getUint32(i * 4);
  return words;
}

/**
 * A keyed ChaCha20 stream. Its key (HMAC-SHA256) and its small chunks are computed here
 * (core/sha256.ts, core/chacha20.ts): node:crypto's Hmac and cipher objects cost more to set up
 * than a deck's shuffle costs to compute. A class (not a closure) so that randomId can read a run
 * of buffered words directly: a deal draws over a thousand words for its ids. Its words are the
 * keystream's bytes read as big-endian words.
 */
class KeyedStream implements RandomSource {
  /** The ChaCha20 input block (key, block counter); the counter is the next block's. */
  private readonly state: Uint32Array;
  /** node:crypto's cipher, from the first large chunk on (it then produces every later block). */
  private cipher: Cipher | null = null;
  /** Buffered keystream words; `at` is the next unread one. */
  words: Uint32Array = new Uint32Array(0);
  at = 0;
  /** Words of the next chunk: whole blocks of 16. */
  private size: number;

  constructor(seed: string, purpose: string, expectedWords: number | undefined) {
    const digest = hmacSha256Words(seed, purpose);
    // The key is the digest's bytes, which ChaCha20 reads as little-endian words.
    for (let i = 0; i < 8; i++) digest[i] = swap(digest[i]!);
    this.state = chachaState(digest);
    const words = expectedWords === undefined || !(expectedWords > 0) ? FIRST_CHUNK : Math.min(Math.ceil(expectedWords), MAX_FIRST_CHUNK);
    this.size = Math.ceil(words / 16) * 16;
  }

  nextUint32(): number {
    if (this.at >= this.words.length) this.refill();
    return this.words[this.at++]!;
  }

  /** Drops what is left of the buffer (only ever called when it is all read) and produces the next chunk. */
  private refill(): void {
    const blocks = this.size / 16;
    if (this.cipher || blocks >= NATIVE_BLOCKS) {
      this.cipher ??= this.nativeCipher();
      this.words = wordsOf(this.cipher.update(ZEROS.subarray(0, this.size * 4)));
    } else {
      const words = new Uint32Array(this.size);
      chachaBlocks(this.state, words, 0, blocks);
      for (let i = 0; i < words.length; i++) words[i] = swap(words[i]!);
      this.words = words;
    }
    this.size = Math.min(this.size * 4, MAX_CHUNK);
    this.at = 0;
  }

  /** node:crypto's ChaCha20 under the same key, from the next block on (its IV: counter, then a zero nonce). */
  private nativeCipher(): Cipher {
    // The key's bytes are the state's words 4..11, little-endian (a view; the cipher copies it).
    const key = LITTLE_ENDIAN ? new Uint8Array(this.state.buffer, 16, 32) : new Uint8Array(32);
    if (!LITTLE_ENDIAN) for (let i = 0; i < 8; i++) new DataView(key.buffer).setUint32(i * 4, this.state[4 + i]!, true);
    const iv = new Uint8Array(16);
    new DataView(iv.buffer).setUint32(0, this.state[12]!, true);
    return createCipheriv('chacha20', key, iv);
  }
}

/** An independent stream for one purpose of one match; `expectedWords`: a hint, see above. */
export function keyedStream(seed: string, purpose: string, expectedWords?: number): RandomSource {
  return new KeyedStream(seed, purpose, expectedWords);
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator) seeded from SHA-256 of
 * `${prefix}${seed}`: the legacy single stream.
 */
export function sfc32Stream(seed: string, prefix: string): RandomSource {
  // The digest's first four big-endian words (what parsing its first 32 hex digits gave).
  const h = sha256Words(utf8(`${prefix}${seed}`));
  const s: [number, number, number, number] = [h[0]!, h[1]!, h[2]!, h[3]!];
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
  // x % n without a floating-point modulo (x may exceed 2^31): exact for x < 2^32.
  return x - Math.floor(x / n) * n;
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
const ALPHABET_CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** nextInt's rejection limit for the alphabet's length. */
const ID_LIMIT = Math.floor(0x100000000 / ALPHABET.length) * ALPHABET.length;
const ID_PREFIX = 'c'.charCodeAt(0);

/** The character code of an accepted word (below ID_LIMIT): x < 2^32 is exact in a double, so the remainder needs no floating-point modulo. */
const code = (x: number): number => ALPHABET_CODES[x - Math.floor(x / ALPHABET.length) * ALPHABET.length]!;

/** One character of an id: nextInt(src, 36), inlined, as a character code. */
function idChar(src: RandomSource): number {
  let x = src.nextUint32();
  while (x >= ID_LIMIT) x = src.nextUint32();
  return code(x);
}

/** An opaque id such as `c7k2m9x0qa`: random, so it says nothing about the card. */
export function randomId(src: RandomSource, length = 10): string {
  // One string built at the end (not one per character): a deal makes over a hundred ids. The
  // usual length is one call with its arguments in order (no array of codes).
  if (length === 10) {
    if (src instanceof KeyedStream) {
      const fast = bufferedId(src);
      if (fast !== null) return fast;
    }
    const a = idChar(src),
      b = idChar(src),
      c = idChar(src),
      d = idChar(src),
      e = idChar(src);
    const f = idChar(src),
      g = idChar(src),
      h = idChar(src),
      i = idChar(src),
      j = idChar(src);
    return String.fromCharCode(ID_PREFIX, a, b, c, d, e, f, g, h, i, j);
  }
  const codes: number[] = [ID_PREFIX];
  for (let i = 0; i < length; i++) codes.push(idChar(src));
  return String.fromCharCode(...codes);
}

/**
 * randomId(src, 10) from ten words already in the stream's buffer, none rejected: the same id
 * from the same words, without a call per word. null (nothing read) otherwise; the caller then
 * draws word by word.
 */
function bufferedId(src: KeyedStream): string | null {
  const w = src.words;
  const at = src.at;
  if (at + 10 > w.length) return null;
  for (let k = at; k < at + 10; k++) if (w[k]! >= ID_LIMIT) return null;
  src.at = at + 10;
  return String.fromCharCode(
    ID_PREFIX,
    code(w[at]!),
    code(w[at + 1]!),
    code(w[at + 2]!),
    code(w[at + 3]!),
    code(w[at + 4]!),
    code(w[at + 5]!),
    code(w[at + 6]!),
    code(w[at + 7]!),
    code(w[at + 8]!),
    code(w[at + 9]!),
  );
}

/** Words a randomId of `length` characters usually draws (a rejected word is rare: 4 in 2^32). */
export const ID_WORDS = 10;
