/**
 * Credentials this node has seen verified, by sha256. The rate limiter keys a request on its
 * credential only when the credential is known to be valid; an unknown or invalid one counts
 * against the client's address, so inventing tokens (or respelling one) buys no fresh budget.
 */
import { LRUCache } from 'lru-cache';

export class KnownCredentials {
  private readonly hashes: LRUCache<string, true>;

  constructor(max = 100_000) {
    this.hashes = new LRUCache({ max });
  }

  /** Called where a token has just been issued or matched to a seat. */
  remember(tokenHash: string): void {
    this.hashes.set(tokenHash, true);
  }

  has(tokenHash: string): boolean {
    return this.hashes.has(tokenHash);
  }
}
