/** Seat tokens: 32 random bytes, base64url. Only their sha256 is stored. */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../../core/hash.js';

export function newSeatToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return sha256Hex(token);
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token of an `Authorization: Bearer <token>` header; undefined when absent, null when malformed. */
export function bearerToken(header: string | string[] | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) return null;
  const m = /^Bearer\s+([A-Za-z0-9_-]{16,128})\s*$/i.exec(header);
  return m ? (m[1] as string) : null;
}

/** New match ids: 16 random bytes, base64url (22 characters). */
export function newMatchId(): string {
  return randomBytes(16).toString('base64url');
}

/** Personal API tokens carry a prefix, so a token says what it is (and secret scanners can find leaked ones). */
export const PLAYER_TOKEN_PREFIX = 'evp_';

export function newPlayerToken(): string {
  return PLAYER_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function isPlayerToken(token: string): boolean {
  return token.startsWith(PLAYER_TOKEN_PREFIX);
}
