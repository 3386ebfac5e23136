/**
 * The lean answer to an action (RFC 7240 `Prefer: return=minimal`): what a client needs to go on
 * (the new version, its own events, the status and the next decision) without the whole match
 * view, which is most of an action's bytes.
 */
import type { z } from 'zod';
import type { ActionResult } from '../service/types.js';
import type { MinimalActionResultSchema } from './schemas.js';

type MinimalActionResult = z.infer<typeof MinimalActionResultSchema>;

/** Whether a Prefer header asks for return=minimal (preferences are comma-separated, case-insensitive). */
export function prefersMinimal(prefer: string | undefined): boolean {
  return prefer !== undefined && prefer.split(',').some((p) => p.trim().toLowerCase() === 'return=minimal');
}

export function minimalResult(r: ActionResult): MinimalActionResult {
  const m = r.match;
  const game = m.game as { pending?: MinimalActionResult['pending'] } | null;
  return {
    version: r.version,
    events: r.events,
    status: m.status,
    winner: m.winner,
    outcome: m.outcome as MinimalActionResult['outcome'],
    // A match ended by its clock or an abort waits for nobody, whatever its game's state says.
    pending: m.outcome ? null : (game?.pending ?? null),
  };
}
