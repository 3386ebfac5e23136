/**
 * The lean answer to an action (RFC 7240 `Prefer: return=minimal`): what a client needs to go on
 * (the new version, its own events, the status and the next decision) without the whole match
 * view, which is most of an action's bytes.
 */
import type { z } from 'zod';
import type { ActionResult } from '../service/types.js';
import { pendingOf } from '../service/reads.js';
import type { MinimalActionResultSchema } from './schemas.js';

type MinimalActionResult = z.infer<typeof MinimalActionResultSchema>;

/** Whether a Prefer header asks for return=minimal (preferences are comma-separated, case-insensitive). */
export function prefersMinimal(prefer: string | undefined): boolean {
  return prefer !== undefined && prefer.split(',').some((p) => p.trim().toLowerCase() === 'return=minimal');
}

export function minimalResult(r: ActionResult): MinimalActionResult {
  const m = r.match;
  return {
    version: r.version,
    events: r.events,
    status: m.status,
    winner: m.winner,
    outcome: m.outcome as MinimalActionResult['outcome'],
    pending: pendingOf(m) as MinimalActionResult['pending'],
  };
}
