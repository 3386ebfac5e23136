/**
 * Handles no player may register (issue 21): the words the service itself uses for viewers and
 * seats (p1, p2, spectator), names that would pass for the operator or the service (admin, root,
 * system, evons, …), placeholders (anonymous, null, …) and the `ai` family, kept for house bots.
 * Compared case-insensitively, as handles are. Anonymous seats may still use them as labels:
 * those are never verified, so they claim nothing. docs/api.md lists the same words.
 */
export const RESERVED_HANDLES: readonly string[] = [
  'p1',
  'p2',
  'spectator',
  'admin',
  'administrator',
  'root',
  'system',
  'server',
  'evons',
  'universus',
  'support',
  'moderator',
  'staff',
  'official',
  'anonymous',
  'guest',
  'nobody',
  'null',
  'undefined',
  'me',
  'bot',
  'ai',
];

/** `ai` followed by a separator (ai-…, ai_…, ai.…): every such handle is reserved. */
export const RESERVED_PREFIX = /^ai[-_.]/i;

const reserved = new Set(RESERVED_HANDLES);

export function isReservedHandle(handle: string): boolean {
  return reserved.has(handle.toLowerCase()) || RESERVED_PREFIX.test(handle);
}
