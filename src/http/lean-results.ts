/**
 * The lean answer to an action, the default (CHANGELOG.md; RFC 7240 `Prefer: return=representation`
 * asks for the whole match view instead): what a client needs to go on (the new version, its own
 * events, the status and the next decision) without the view, which is most of an action's bytes
 * and most of the server's work per move.
 */
import type { z } from 'zod';
import type { ActionSummary } from '../service/match/types.js';
import type { MinimalActionResultSchema } from './schemas.js';

type MinimalActionResult = z.infer<typeof MinimalActionResultSchema>;

/**
 * Whether a Prefer header asks for return=representation (preferences are comma-separated,
 * case-insensitive; the last `return` preference wins, as a later one overrides an earlier one).
 */
export function prefersRepresentation(prefer: string | undefined): boolean {
  if (prefer === undefined) return false;
  let full = false;
  for (const p of prefer.split(',')) {
    // RFC 7240: `token [= word]`, a word being a token or a quoted string, then `;` parameters.
    const v = (p.split(';', 1)[0] ?? '')
      .trim()
      .toLowerCase()
      .replace(/\s*=\s*/, '=')
      .replace(/^return="([^"]*)"$/, 'return=$1');
    if (v === 'return=representation') full = true;
    else if (v === 'return=minimal') full = false;
  }
  return full;
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
