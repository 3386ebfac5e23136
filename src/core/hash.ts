/** Pure hashing helpers: canonical JSON and SHA-256 (no I/O; node:crypto is a pure function here). */
import { hash } from 'node:crypto';

/** JSON with object keys sorted, so equal data always hashes the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** `v` with every object's keys in sorted order (arrays keep theirs). */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** One-shot hashing (crypto.hash): a third of createHash's time for short texts such as tokens, hashed on every request. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
