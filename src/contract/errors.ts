/**
 * What an error means on the wire, alike in both APIs: the HTTP status of each kind of service
 * error (REST answers with it; GraphQL puts it in extensions.status) and how a validation failure
 * lists its fields in `errors`.
 */
import { issueLine, issueLines, type Issue } from '../core/issues.js';

/** What kind of failure, which decides how each API reports it. */
export type ErrorKind =
  | 'invalid-request' // the request is malformed or self-contradictory
  | 'unauthenticated' // a seat token is missing or wrong
  | 'forbidden' // the credential is valid but may not do this
  | 'not-found'
  | 'conflict' // the match moved on, or the seat is gone: reload and retry
  | 'rejected' // well-formed but refused: an illegal action, a bad deck or settings
  | 'rate-limited'
  | 'unavailable'; // a dependency is down or the node is stopping: retry later

export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  'invalid-request': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  rejected: 422,
  'rate-limited': 429,
  unavailable: 503,
};

/** One entry of a validation failure's `errors`: "where.path: message" (e.g. "body.decks.p1: Required"). */
export function validationLine(where: string, path: readonly PropertyKey[], message: string): string {
  return issueLine({ path, message }, where, '');
}

/** A schema's issues as `errors` entries, under `where` (the input, body or argument that failed). */
export function validationLines(where: string, issues: readonly Issue[]): string[] {
  return issueLines(issues, where, '');
}
