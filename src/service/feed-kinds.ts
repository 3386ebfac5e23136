/** The kinds of account feed entry (the triggers of migrations account_feed and tournaments write these names). */
export const FEED_KINDS = [
  'match-started',
  'your-turn',
  'match-ended',
  'challenge-received',
  'challenge-accepted',
  'challenge-declined',
  'challenge-canceled',
  'challenge-expired',
  'rematch-offered',
  'seek-paired',
  'tournament-round-started',
  'tournament-finished',
] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
