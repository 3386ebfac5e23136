/** The kinds of account feed entry (the triggers of migration account_feed write these names). */
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
] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
