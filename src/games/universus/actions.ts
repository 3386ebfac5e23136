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
