/**
 * Values as the drivers hand them back from raw SQL: node-postgres parses timestamps and json,
 * PGlite may leave them as text.
 */
export const asDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
export const asJson = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
