/**
 * The computer's dice for one decision: derived from the match's secret seed (committed at
 * creation by its sha256, published only when the match is over), its id and the version the
 * decision is for. Before the end nobody but the server can compute it, so an opponent cannot
 * foresee the computer's slips or tie-breaks; after it, anyone holding the published seed can
 * recompute every decision's seed. The worker receives this derived value only, never the seed:
 * HMAC-SHA256 keyed by the seed says nothing about the seed, nor about the deal's streams (keyed
 * by other purposes).
 */
import { createHmac } from 'node:crypto';

/** Names the derivation: a change of it is a new label, so old seeds stay what they were. */
export const AI_SEED_LABEL = 'evons-ai/1';

/** HMAC-SHA256(matchSeed, "evons-ai/1:<matchId>:<version>"), as hex. */
export function aiSeed(matchSeed: string, matchId: string, version: number): string {
  return createHmac('sha256', matchSeed).update(`${AI_SEED_LABEL}:${matchId}:${version}`).digest('hex');
}
