/**
 * The lean answer to an action (RFC 7240 `Prefer: return=minimal`): what a client needs to go on
 * (the new version, its own events, the status and the next decision) without the whole match
 * view, which is most of an action's bytes.
 */
import type { z } from 'zod';
import type { ActionSummary } from '../service/types.js';
import type { MinimalActionResultSchema } from './schemas.js';

type MinimalActionResult = z.infer<typeof MinimalActionResultSchema>;

/** Whether a Prefer header asks for return=minimal (preferences are comma-separated, case-insensitive). */
export function prefersMinimal(prefer: string | undefined): boolean {
  return prefer !== undefined && prefer.split(',').some((p) => p.trim().toLowerCase() === 'return=minimal');
}

/** The lean answer's fields in the documented order (the summary is built by the service). */
export function minimalResult(s: ActionSummary): MinimalActionResult {
  return {
    version: s.version,
    events: s.events,
    status: s.status,
    winner: s.winner,
    outcome: s.outcome as MinimalActionResult['outcome'],
    pending: s.pending as MinimalActionResult['pending'],
  };
}
