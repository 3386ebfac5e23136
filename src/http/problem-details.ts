/**
 * RFC 9457 problem details: the one builder for every application/problem+json body, and the
 * mapping from the service's error kinds to HTTP statuses (GraphQL reports the same status in
 * its error extensions, so both APIs agree on what an error means).
 */
import { STATUS_OF_KIND } from '../contract/errors.js';
import type { ServiceError } from '../service/errors.js';

/** Problem types are URNs (RFC 9457 allows any URI); the code after the prefix is stable. */
export const PROBLEM_TYPE_BASE = 'urn:evons:problem:';

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  version?: number;
  errors?: string[];
}

/** A problem body; `type` defaults to the code. */
export function problem(init: {
  status: number;
  code: string;
  title: string;
  detail?: string;
  version?: number;
  errors?: string[];
  type?: string;
}): Problem {
  const p: Problem = { type: PROBLEM_TYPE_BASE + (init.type ?? init.code), title: init.title, status: init.status, code: init.code };
  if (init.detail !== undefined) p.detail = init.detail;
  if (init.version !== undefined) p.version = init.version;
  if (init.errors !== undefined) p.errors = init.errors;
  return p;
}

export function toProblem(e: ServiceError): Problem {
  return problem({ ...e, status: STATUS_OF_KIND[e.kind], detail: e.detail, version: e.version, errors: e.errors });
}
