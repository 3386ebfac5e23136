/** Actions as clients send them (U- §5). StartGame is `create()` in this contract. */
import { z } from 'zod';

const id = z.string().min(1).max(64);
export const actionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('PlayCard'), cardId: id }).strict(),
  z.object({ type: z.literal('CommitForCheck'), foundationIds: z.array(id).max(200) }).strict(),
  z.object({ type: z.literal('DeclineCommit') }).strict(),
  z.object({ type: z.literal('Block'), cardId: id }).strict(),
  z.object({ type: z.literal('NoBlock') }).strict(),
  z.object({ type: z.literal('PassCombat') }).strict(),
  z.object({ type: z.literal('ChooseMomentum'), attackIds: z.array(id).max(200) }).strict(),
]);
export type UniversusAction = z.infer<typeof actionSchema>;

const isId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 64;
/** A copy of `v` when it is an array of at most 200 ids (what the schema accepts), else null. */
function idList(v: unknown): string[] | null {
  if (!Array.isArray(v) || v.length > 200) return null;
  for (const x of v) if (!isId(x)) return null;
  return [...(v as string[])];
}

/**
 * A fast path for `actionSchema.safeParse`: a copy of `input` when it is a plain object the
 * schema certainly accepts, otherwise null (then apply() asks the schema, whose answer stands).
 * Zod parsing was a noticeable share of each move on the engine's hot path.
 */
export function wellFormedAction(input: unknown): UniversusAction | null {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Object.prototype) return null;
  const a = input as Record<string, unknown>;
  const keys = Object.keys(a).length;
  switch (a.type) {
    case 'DeclineCommit':
    case 'NoBlock':
    case 'PassCombat':
      return keys === 1 ? { type: a.type } : null;
    case 'PlayCard':
    case 'Block':
      return keys === 2 && isId(a.cardId) ? { type: a.type, cardId: a.cardId } : null;
    case 'CommitForCheck': {
      const ids = keys === 2 ? idList(a.foundationIds) : null;
      return ids ? { type: 'CommitForCheck', foundationIds: ids } : null;
    }
    case 'ChooseMomentum': {
      const ids = keys === 2 ? idList(a.attackIds) : null;
      return ids ? { type: 'ChooseMomentum', attackIds: ids } : null;
    }
    default:
      return null;
  }
}
