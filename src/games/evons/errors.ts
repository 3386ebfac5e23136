/** Stable error codes for rejected actions. Messages never mention hidden information. */
export const ERROR_CODES = [
  'INVALID_ACTION',
  'GAME_OVER',
  'NOT_YOUR_DECISION',
  'WRONG_DECISION',
  'CARD_NOT_IN_HAND',
  'CELL_OCCUPIED',
  'UNKNOWN_CELL',
  'INSUFFICIENT_CREDITS',
  'BLOCK_PLAY_NOT_ALLOWED',
  'NOT_AN_ABILITY_ARROW',
  'ARROW_ALREADY_USED',
  'INVALID_TARGET',
  'INVALID_CHOICE',
  'RESURRECTION_COST_EXCEEDED',
  'NOT_A_CANDIDATE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface RuleError {
  code: ErrorCode;
  message: string;
}

export const err = (code: ErrorCode, message: string): RuleError => ({ code, message });
