/**
 * What an error means on the wire, alike in both APIs: the HTTP status of each kind of service
 * error (REST answers with it; GraphQL puts it in extensions.status) and how a validation failure
 * lists its fields in `errors`.
 */
import type { ErrorKind } from '../service/errors.js';
import { issueLine, issueLines, type Issue } from '../core/issues.js';

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
