/**
 * GraphQL inputs judged by the REST schemas (the one schema source): the same input is the same
 * error on both APIs. Shared by the resolver modules (./index.ts, ./tournaments.ts).
 */
import { validationLines } from '../contract/errors.js';
import { problems } from '../service/errors.js';

/**
 * An input object as the REST body it stands for: GraphQL's explicit nulls dropped (an unset field),
 * so the REST schema judges it. JSON-typed fields (settings, position) are left as given.
 */
export function restBody(input: Record<string, unknown>, json: readonly string[] = []): Record<string, unknown> {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => [k, strip(x)]),
    );
  };
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, json.includes(k) ? v : strip(v)]),
  );
}

/** The REST schema's verdict on a GraphQL input, or a validation-failed error naming its fields. */
export function parseInput<T>(
  schema: {
    safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: unknown,
  what: string,
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw problems.validation(`The ${what} does not match the schema.`, validationLines('input', r.error.issues));
}
