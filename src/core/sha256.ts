/**
 * SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104) in plain TypeScript, for the short inputs of a
 * deal: a match seed and a stream's purpose. Replay deals again on every load, and node:crypto's
 * Hmac objects cost more to set up than hashing a seed costs here (a seventh of replaying a
 * match). Same bits as node:crypto (test/core/sha256.test.ts); long texts stay with hash.ts.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INIT = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** The message schedule, reused by every compression (this module is synchronous). */
const W = new Uint32Array(64);

/** One compression of the 64-byte block at `bytes[at..]` into the chaining state `h`. */
function compress(h: Uint32Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4) W[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15]!;
    const b = W[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = h[0]!,
    b = h[1]!,
    c = h[2]!,
    d = h[3]!,
    e = h[4]!,
    f = h[5]!,
    g = h[6]!,
    k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}

/** UTF-8 bytes of `text` (what node:crypto hashes for a string): ASCII without an encoder. */
export function utf8(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return new TextEncoder().encode(text);
    out[i] = c;
  }
  return out;
}

/**
 * Hashes `prefix` (whole 64-byte blocks, already compressed into `h`) followed by `bytes`:
 * pads, compresses what is left and returns `h`, the digest as eight big-endian words.
 */
function finish(h: Uint32Array, prefixBytes: number, bytes: Uint8Array): Uint32Array {
  const whole = bytes.length - (bytes.length % 64);
  for (let at = 0; at < whole; at += 64) compress(h, bytes, at);
  const rest = bytes.length - whole;
  const tail = new Uint8Array(rest < 56 ? 64 : 128);
  // A loop rather than set(subarray): a subarray is a new typed array, costly for a few bytes.
  for (let i = 0; i < rest; i++) tail[i] = bytes[whole + i]!;
  tail[rest] = 0x80;
  const bits = (prefixBytes + bytes.length) * 8;
  const end = tail.length;
  // The length in bits, big-endian, in the last 8 bytes (inputs here are far below 2^53 bits).
  const hi = Math.floor(bits / 0x100000000);
  tail[end - 8] = hi >>> 24;
  tail[end - 7] = hi >>> 16;
  tail[end - 6] = hi >>> 8;
  tail[end - 5] = hi;
  tail[end - 4] = bits >>> 24;
  tail[end - 3] = bits >>> 16;
  tail[end - 2] = bits >>> 8;
  tail[end - 1] = bits;
  for (let at = 0; at < end; at += 64) compress(h, tail, at);
  return h;
}

/** SHA-256 of `bytes` as eight big-endian words. */
export function sha256Words(bytes: Uint8Array): Uint32Array {
  return finish(INIT.slice(), 0, bytes);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lower-case hex of digest words (as `digest('hex')` writes them). */
export function wordsHex(words: Uint32Array): string {
  let out = '';
  for (const w of words) out += HEX[w >>> 24]! + HEX[(w >>> 16) & 0xff]! + HEX[(w >>> 8) & 0xff]! + HEX[w & 0xff]!;
  return out;
}

/** sha256 of a text's UTF-8 bytes, in hex: core/hash.ts's sha256Hex, for short texts. */
export function sha256HexOf(text: string): string {
  return wordsHex(sha256Words(utf8(text)));
}

/** A key's HMAC state after its inner and outer pad blocks: what every message under it starts from. */
interface HmacKey {
  readonly key: string;
  readonly inner: Uint32Array;
  readonly outer: Uint32Array;
}

function hmacKey(key: string): HmacKey {
  let k = utf8(key);
  if (k.length > 64) {
    const d = sha256Words(k);
    k = new Uint8Array(32);
    for (let i = 0; i < 8; i++) for (let b = 0; b < 4; b++) k[i * 4 + b] = d[i]! >>> (24 - 8 * b);
  }
  const pad = new Uint8Array(64);
  const inner = INIT.slice();
  const outer = INIT.slice();
  for (let i = 0; i < 64; i++) pad[i] = (k[i] ?? 0) ^ 0x36;
  compress(inner, pad, 0);
  for (let i = 0; i < 64; i++) pad[i] = (k[i] ?? 0) ^ 0x5c;
  compress(outer, pad, 0);
  return { key, inner, outer };
}

/** The last key's pad states: a deal derives three streams' keys from one seed. */
let lastKey: HmacKey | null = null;

/** HMAC-SHA256(key, message), both texts as UTF-8, as eight big-endian words. */
export function hmacSha256Words(key: string, message: string): Uint32Array {
  if (lastKey === null || lastKey.key !== key) lastKey = hmacKey(key);
  const innerDigest = finish(lastKey.inner.slice(), 64, utf8(message));
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const w = innerDigest[i]!;
    bytes[i * 4] = w >>> 24;
    bytes[i * 4 + 1] = w >>> 16;
    bytes[i * 4 + 2] = w >>> 8;
    bytes[i * 4 + 3] = w;
  }
  return finish(lastKey.outer.slice(), 64, bytes);
}
