/**
 * The match id's one rule: what the service issues and what every API, page and cursor accepts
 * (`MatchIdSchema` in src/contract/ids.ts is this pattern; the store checks its cursors with it).
 */
export const MATCH_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
