/**
 * The computer's players: one registered bot per level, `ai-level-1` … `ai-level-8` (created by the
 * migration ai_players; the `ai-` handles are reserved). A seat held by one of them is played by
 * the server (src/service/ai/runner.ts) at that level.
 */
export const AI_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export type AiLevel = (typeof AI_LEVELS)[number];

export const aiPlayerId = (level: AiLevel): string => `ai-level-${level}`;
export const AI_PLAYER_IDS: readonly string[] = AI_LEVELS.map(aiPlayerId);

/** The level of a computer player's id or handle, or null for anyone else. */
export function aiLevelOf(playerIdOrHandle: string | null | undefined): AiLevel | null {
  const m = /^ai-level-([1-8])$/i.exec(playerIdOrHandle ?? '');
  return m ? (Number(m[1]) as AiLevel) : null;
}
